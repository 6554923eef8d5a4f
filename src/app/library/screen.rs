//! The library's screen on the overlay stack (data only: what it does is in `mod.rs`, which
//! implements its `OverlayState`).

/// The library's screen; `editing`: the filter being typed, when it is.
#[derive(Clone, Debug, Default)]
pub struct LibraryScreen {
    pub editing: Option<String>,
}
