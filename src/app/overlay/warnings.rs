//! The reader's warnings (`W`): a list whose selected warning Enter goes to (the move it
//! names, or the last move read before the line it names).

use crate::app::overlay::Overlay;
use crate::app::state::{App, Level};

impl App {
    /// `warning_jump` (Enter in the problem list): goes to the move the selected warning
    /// names and closes the list; in the help, closes it.
    pub(crate) fn warning_jump(&mut self) {
        let Some(&Overlay::Warnings { scroll }) = self.overlays().top() else {
            return self.close_overlay();
        };
        let Some(w) = self.source().warnings.get(scroll as usize) else {
            return;
        };
        let (line, target) = (w.line, w.node.or(w.at));
        let Some(id) = target.filter(|id| id.index() < self.record().len()) else {
            let what = if line > 0 {
                format!("line {line} names no move (it is before the first move)")
            } else {
                "this problem names no move or line".to_string()
            };
            return self.info_level(what, Level::Info);
        };
        self.close_overlay();
        self.jump_to(id);
    }
}
