//! Opening books (定跡).
//!
//! [`build`]: books built from the user's games (`kifview book build`).

pub mod build;
