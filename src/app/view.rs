//! How the record is shown: the pane `Tab` focuses, the panes that scroll, the view the keys
//! choose ([`View`], which `App` holds and keeps when the record is replaced), and what the
//! front end's last frame drew ([`Drawn`], handed to the app with each input).

/// The panes `Tab` cycles through.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Focus {
    Moves,
    Variations,
    Comment,
    Header,
}

impl Focus {
    const ORDER: [Focus; 4] = [
        Focus::Moves,
        Focus::Variations,
        Focus::Comment,
        Focus::Header,
    ];
    pub(crate) fn step(self, d: isize) -> Focus {
        let i = Focus::ORDER.iter().position(|&f| f == self).unwrap_or(0) as isize;
        Focus::ORDER[(i + d).rem_euclid(Focus::ORDER.len() as isize) as usize]
    }
}

/// Scrollable text panes whose offsets the app keeps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pane {
    Comment,
    Header,
    /// The top overlay (help, warnings).
    Overlay,
}

/// How the record is shown: what the keys and the screen choose, kept when the record is
/// replaced.
#[derive(Debug)]
pub(super) struct View {
    pub focus: Focus,
    pub flipped: bool,
    /// How big the board is drawn (from `board.size`; `z` cycles it).
    pub board_size: super::config::BoardSize,
    pub comment_scroll: u16,
    pub header_scroll: u16,
    /// What the front end's last frame drew, handed over with the last input (`None`
    /// before the first).
    pub drawn: Option<Drawn>,
}

/// What the front end's last frame drew, as far as a key needs to know it: how far the
/// comment, the header and the overlay on top could scroll, how many rows a list on top and
/// the library showed (a page for PageDown), whether the evaluation graph was on screen.
/// The front end keeps it with its own render state (`tui::view::ViewState`) and hands it
/// to the app with each input ([`update_on`](super::update_on)): drawing writes nothing into the
/// app.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    /// The evaluation graph was on screen (`E` hides what is seen).
    pub graph: bool,
    /// The largest useful scroll offsets of the comment, the header and the overlay on top.
    pub comment_max: u16,
    pub header_max: u16,
    pub overlay_max: u16,
    /// Rows of the overlay on top (a list's page).
    pub overlay_rows: usize,
    /// Rows of games the library showed (0: not shown).
    pub library_rows: usize,
}

impl Drawn {
    /// How far `pane` could scroll.
    pub fn scroll_max(&self, pane: Pane) -> u16 {
        match pane {
            Pane::Comment => self.comment_max,
            Pane::Header => self.header_max,
            Pane::Overlay => self.overlay_max,
        }
    }
}
