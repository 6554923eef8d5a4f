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
    EnterMove = "enter_move", "Enter a move on the board: a cursor picks the piece, then the square";
    TypeMove = "type_move", "Type a move: 7g7f, P*5e, ７六歩, 76歩, 同歩, 58金右, 7776FU, 投了";
    AddEnding = "add_ending", "End the line here (投了, 中断, 千日手, 持将棋, 詰み, ...)";
    DeleteVariation = "delete_variation", "Delete the current move and everything after it";
    CutAfter = "cut_after", "Delete everything after the current move (cut the record here)";
    MoveAlternativeDown = "move_alternative_down", "Move the current alternative down among its siblings";
    MoveAlternativeUp = "move_alternative_up", "Move the current alternative up among its siblings";
    MakeMainLine = "make_main_line", "Make the current line the main line";
    Undo = "undo", "Undo the last edit";
    Redo = "redo", "Redo the last undone edit";
    EditComment = "edit_comment", "Edit the comment of the current move (the start position's at ply 0)";
    EditBookmark = "edit_bookmark", "Set, rename or remove (empty name) the bookmark of the current move";
    ListBookmarks = "list_bookmarks", "List the bookmarks and jump to one";
    EditHeader = "edit_header", "Edit the header fields (players, event, date, your own keys)";
    Save = "save", "Save to the file it came from (:w PATH saves as, :wq saves and quits)";
    CursorLeft = "cursor_left", "Board: cursor left";
    CursorRight = "cursor_right", "Board: cursor right";
    CursorUp = "cursor_up", "Board: cursor up";
    CursorDown = "cursor_down", "Board: cursor down";
    BoardPick = "board_pick", "Board: pick the piece under the cursor, then its destination";
    DropPawn = "drop_pawn", "Board: drop a pawn (歩) from the hand, then pick the square";
    DropLance = "drop_lance", "Board: drop a lance (香) from the hand";
    DropKnight = "drop_knight", "Board: drop a knight (桂) from the hand";
    DropSilver = "drop_silver", "Board: drop a silver (銀) from the hand";
    DropGold = "drop_gold", "Board: drop a gold (金) from the hand";
    DropBishop = "drop_bishop", "Board: drop a bishop (角) from the hand";
    DropRook = "drop_rook", "Board: drop a rook (飛) from the hand";
    Promote = "promote", "Board: promote (when asked)";
    NoPromote = "no_promote", "Board: do not promote (when asked)";
    BoardCancel = "board_cancel", "Board: put the picked piece back, or leave move input";
    EditorNewline = "editor_newline", "Editor: new line";
    EditorBackspace = "editor_backspace", "Editor: delete the character before the cursor";
    EditorDelete = "editor_delete", "Editor: delete the character under the cursor";
    EditorLeft = "editor_left", "Editor: cursor left";
    EditorRight = "editor_right", "Editor: cursor right";
    EditorUp = "editor_up", "Editor: cursor up";
    EditorDown = "editor_down", "Editor: cursor down";
    EditorHome = "editor_home", "Editor: start of the line";
    EditorEnd = "editor_end", "Editor: end of the line";
    EditorDone = "editor_done", "Editor: keep the text and leave (one undo step)";
    EditorDiscard = "editor_discard", "Editor: leave and throw the changes away";
    ListDown = "list_down", "List: next entry";
    ListUp = "list_up", "List: previous entry";
    ListPick = "list_pick", "List: choose this entry (jump, edit the value, end the line)";
    ListAdd = "list_add", "List: add an entry (header: a new field)";
    ListDelete = "list_delete", "List: delete this entry";
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
