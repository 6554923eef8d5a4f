//! The command table: every bindable command with its config name and one-line doc.
//! The keymap parser, the help overlay and the README key table all come from here.

macro_rules! commands {
    ($( $(#[$m:meta])* $variant:ident = $name:literal, $doc:literal; )*) => {
        /// A command a key can be bound to.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Command {
            $( $(#[$m])* #[doc = $doc] $variant, )*
        }
        /// Every command: (command, snake_case name used in the config, one-line doc).
        pub const COMMANDS: &[(Command, &str, &str)] = &[
            $( (Command::$variant, $name, $doc), )*
        ];
    };
}

commands! {
    NextMove = "next_move", "Next move along the current line";
    PrevMove = "prev_move", "Previous move";
    NextVariation = "next_variation", "Next alternative at this ply (switches the line)";
    PrevVariation = "prev_variation", "Previous alternative at this ply";
    GoStart = "go_start", "Start position";
    GoEnd = "go_end", "End of the current line";
    Forward10 = "forward_10", "Forward 10 plies";
    Back10 = "back_10", "Back 10 plies";
    GotoPlyPrompt = "goto_ply", "Go to a ply of the current line (type a number, then Enter)";
    ToggleTree = "toggle_tree", "Show or hide the variation tree";
    FlipBoard = "flip_board", "Turn the board around";
    FocusNext = "focus_next", "Move the focus to the next pane";
    FocusPrev = "focus_prev", "Move the focus to the previous pane";
    ScrollDown = "scroll_down", "Scroll the focused pane down";
    ScrollUp = "scroll_up", "Scroll the focused pane up";
    ShowWarnings = "show_warnings", "List the problems found while reading the file";
    Help = "help", "Show this help";
    Quit = "quit", "Quit";
    TreeDown = "tree_down", "Tree: select the next branch";
    TreeUp = "tree_up", "Tree: select the previous branch";
    TreePageDown = "tree_page_down", "Tree: down one page";
    TreePageUp = "tree_page_up", "Tree: up one page";
    TreeTop = "tree_top", "Tree: first branch";
    TreeBottom = "tree_bottom", "Tree: last branch";
    TreeJump = "tree_jump", "Tree: go to the selected branch";
    Close = "close", "Close this view";
    Submit = "submit", "Command line: run what was typed";
    Cancel = "cancel", "Command line: cancel";
    DeleteBack = "delete_back", "Command line: delete the character before the cursor";
    CopyMenu = "copy_menu", "Copy the position, the line or the record to the clipboard (menu)";
    CopySfen = "copy_sfen", "Copy: the current position as SFEN";
    CopyBod = "copy_bod", "Copy: the current position as a BOD diagram";
    CopyUsi = "copy_usi", "Copy: the moves up to here as a USI `position … moves …` line";
    CopyKif = "copy_kif", "Copy: the whole record as KIF";
    CopyKi2 = "copy_ki2", "Copy: the whole record as KI2";
    CopyCsa = "copy_csa", "Copy: the whole record as CSA";
    Paste = "paste", "Open a pasted record (KIF, KI2, CSA, SFEN/USI, BOD or JKF)";
    Newline = "newline", "Paste prompt: start a new line";
    ToggleWatch = "toggle_watch", "Follow the file: reload when another program writes it";
    NoOp = "none", "Do nothing (unbinds a default key)";
}

impl Command {
    /// The command of a config name.
    pub fn from_name(name: &str) -> Option<Command> {
        COMMANDS
            .iter()
            .find(|(_, n, _)| *n == name)
            .map(|&(c, _, _)| c)
    }
    pub fn name(self) -> &'static str {
        COMMANDS
            .iter()
            .find(|(c, _, _)| *c == self)
            .map(|&(_, n, _)| n)
            .unwrap_or("none")
    }
    pub fn doc(self) -> &'static str {
        COMMANDS
            .iter()
            .find(|(c, _, _)| *c == self)
            .map(|&(_, _, d)| d)
            .unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_snake_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &(c, name, doc) in COMMANDS {
            assert!(seen.insert(name), "duplicate {name}");
            assert!(
                name.chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_'),
                "{name}"
            );
            assert!(!doc.is_empty());
            assert_eq!(Command::from_name(name), Some(c));
            assert_eq!(c.name(), name);
        }
        assert_eq!(Command::from_name("nope"), None);
    }
}
