//! The command table: every bindable command with its snake_case name (used in the config),
//! one-line doc and handler, written once, as helix's `static_commands!`.
//!
//! The table is a macro so it can be expanded at two layers: here into the `Command` enum,
//! its names and docs (the keymap in `config.rs` needs them, and it sits below the app
//! state), and in `dispatch/mod.rs` into the handlers (which need the app state). The handler
//! expressions are resolved where `dispatch/mod.rs` expands them.

/// Calls `$m!` with the whole table: `Variant = "name", "doc", handler;` per command. The
/// panels' commands (`overlay::panels!`, one line per panel) come between the two halves,
/// after `show_warnings`.
macro_rules! command_table {
    ($m:ident) => {
        panels! { panel_commands $m [
            NextMove = "next_move", "Next move along the current line", |a| a.step(1);
            PrevMove = "prev_move", "Previous move", |a| a.step(-1);
            NextVariation = "next_variation", "Next alternative at this ply (switches the line)", |a| a.switch_alternative(1);
            PrevVariation = "prev_variation", "Previous alternative at this ply", |a| a.switch_alternative(-1);
            GoStart = "go_start", "Start position", |a| a.go_on_line(0);
            GoEnd = "go_end", "End of the current line", App::go_end;
            Forward10 = "forward_10", "Forward 10 plies", |a| a.step(10);
            Back10 = "back_10", "Back 10 plies", |a| a.step(-10);
            GotoPlyPrompt = "goto_ply", "Go to a ply of the current line (type a number, then Enter)", typable::open;
            ToggleTree = "toggle_tree", "Show or hide the variation tree", App::toggle_tree;
            FlipBoard = "flip_board", "Turn the board around", |a| a.flip_board();
            ToggleNotation = "toggle_notation", "Move list: KIF (▲７六歩(77)) or KI2 (▲７六歩, △同　銀右) notation", App::toggle_notation;
            CycleBoardSize = "cycle_board_size", "Board size: auto (large when it fits), bod, large", App::cycle_board_size;
            FocusNext = "focus_next", "Move the focus to the next pane", |a| a.step_focus(1);
            FocusPrev = "focus_prev", "Move the focus to the previous pane", |a| a.step_focus(-1);
            ScrollDown = "scroll_down", "Scroll the focused pane down", |a| a.scroll_focused(1);
            ScrollUp = "scroll_up", "Scroll the focused pane up", |a| a.scroll_focused(-1);
            ShowWarnings = "show_warnings", "List the problems found while reading the file", App::show_warnings;
            WarningJump = "warning_jump", "Problem list: go to the move the selected problem names (in the help: close)", App::warning_jump;
        ] [
            Help = "help", "Show this help", App::open_help;
            Quit = "quit", "Quit", |a| a.request_quit(false);
            Suspend = "suspend", "Suspend kifview to the shell (fg brings it back; a running engine pauses with it)", |a| a.suspend_requested = true;
            TreeDown = "tree_down", "Tree: the next branch (the board goes to its first move)", |a| a.tree_move(1);
            TreeUp = "tree_up", "Tree: the previous branch", |a| a.tree_move(-1);
            TreePageDown = "tree_page_down", "Tree: down one page", |a| a.tree_move(10);
            TreePageUp = "tree_page_up", "Tree: up one page", |a| a.tree_move(-10);
            TreeTop = "tree_top", "Tree: first branch", |a| a.tree_move(isize::MIN / 2);
            TreeBottom = "tree_bottom", "Tree: last branch", |a| a.tree_move(isize::MAX / 2);
            TreeJump = "tree_jump", "Tree: close it, staying where it went", App::tree_jump_selected;
            TreeNextMove = "tree_next_move", "Tree: next move along the line", |a| a.tree_step(1);
            TreePrevMove = "tree_prev_move", "Tree: previous move", |a| a.tree_step(-1);
            TreeFold = "tree_fold", "Tree: fold or unfold the branches that leave this one", App::tree_fold;
            Close = "close", "Close this view", App::close_overlay;
            Submit = "submit", "Command line: run what was typed", App::submit;
            Cancel = "cancel", "Command line: cancel", App::cancel;
            DeleteBack = "delete_back", "Command line: delete the character before the cursor", App::delete_back;
            Complete = "complete", "Command line: complete the command or file name (again: the next match); file prompts too", typable::complete;
            EnterMove = "enter_move", "Enter a move on the board: a cursor picks the piece, then the square", App::start_board;
            TypeMove = "type_move", "Type a move: 7g7f, P*5e, ７六歩, 76歩, 同歩, 58金右, 7776FU, 投了", App::open_move_prompt;
            AddEnding = "add_ending", "End the line here (投了, 中断, 千日手, 持将棋, 詰み, ...)", App::open_endings;
            DeleteVariation = "delete_variation", "Delete the current move and everything after it", App::delete_variation;
            CutAfter = "cut_after", "Delete everything after the current move (cut the record here)", App::cut_after;
            MoveAlternativeDown = "move_alternative_down", "Move the current alternative down among its siblings", |a| a.reorder(1);
            MoveAlternativeUp = "move_alternative_up", "Move the current alternative up among its siblings", |a| a.reorder(-1);
            MakeMainLine = "make_main_line", "Make the current line the main line", App::make_main_line;
            MainLine = "main_line", "Back to the main line (本譜) at this ply, leaving the variation", App::back_to_main_line;
            Undo = "undo", "Undo the last edit", App::undo;
            Redo = "redo", "Redo the last undone edit", App::redo;
            EditComment = "edit_comment", "Edit the comment of the current move (the start position's at ply 0)", App::start_comment;
            EditBookmark = "edit_bookmark", "Set, rename or remove (empty name) the bookmark of the current move", App::open_bookmark_prompt;
            ListBookmarks = "list_bookmarks", "List the bookmarks and jump to one", App::open_bookmarks;
            EditPosition = "edit_position", "Set up a position (局面編集): board, hands, piece box, presets; Enter uses it", App::open_position_editor;
            EditHeader = "edit_header", "Edit the header fields (players, event, date, your own keys)", App::open_header;
            Save = "save", "Save to the record's file (:w PATH writes a copy, :saveas PATH switches files)", |a| a.save_or_ask_name(crate::app::document::job::Then::Stay);
            CursorLeft = "cursor_left", "Board: cursor left", |a| a.move_cursor(-1, 0);
            CursorRight = "cursor_right", "Board: cursor right", |a| a.move_cursor(1, 0);
            CursorUp = "cursor_up", "Board: cursor up", |a| a.move_cursor(0, -1);
            CursorDown = "cursor_down", "Board: cursor down", |a| a.move_cursor(0, 1);
            BoardPick = "board_pick", "Board: pick the piece under the cursor, then its destination", App::board_pick;
            DropPawn = "drop_pawn", "Board: drop a pawn (歩) from the hand, then pick the square", |a| a.pick_from_hand(PieceKind::Pawn);
            DropLance = "drop_lance", "Board: drop a lance (香) from the hand", |a| a.pick_from_hand(PieceKind::Lance);
            DropKnight = "drop_knight", "Board: drop a knight (桂) from the hand", |a| a.pick_from_hand(PieceKind::Knight);
            DropSilver = "drop_silver", "Board: drop a silver (銀) from the hand", |a| a.pick_from_hand(PieceKind::Silver);
            DropGold = "drop_gold", "Board: drop a gold (金) from the hand", |a| a.pick_from_hand(PieceKind::Gold);
            DropBishop = "drop_bishop", "Board: drop a bishop (角) from the hand", |a| a.pick_from_hand(PieceKind::Bishop);
            DropRook = "drop_rook", "Board: drop a rook (飛) from the hand", |a| a.pick_from_hand(PieceKind::Rook);
            Promote = "promote", "Board: promote (when asked)", |a| a.answer_promotion(true);
            NoPromote = "no_promote", "Board: do not promote (when asked)", |a| a.answer_promotion(false);
            BoardCancel = "board_cancel", "Board: put the picked piece back, or leave move input", App::board_cancel;
            EditorNewline = "editor_newline", "Editor: new line", |a| a.with_editor(TextEditor::newline);
            EditorBackspace = "editor_backspace", "Editor: delete the character before the cursor", |a| a.with_editor(TextEditor::backspace);
            EditorDelete = "editor_delete", "Editor: delete the character under the cursor", |a| a.with_editor(TextEditor::delete);
            EditorLeft = "editor_left", "Editor: cursor left", |a| a.with_editor(TextEditor::left);
            EditorRight = "editor_right", "Editor: cursor right", |a| a.with_editor(TextEditor::right);
            EditorUp = "editor_up", "Editor: cursor up", |a| a.with_editor(TextEditor::up);
            EditorDown = "editor_down", "Editor: cursor down", |a| a.with_editor(TextEditor::down);
            EditorHome = "editor_home", "Editor: start of the line", |a| a.with_editor(TextEditor::home);
            EditorEnd = "editor_end", "Editor: end of the line", |a| a.with_editor(TextEditor::end);
            EditorDone = "editor_done", "Editor: keep the text and leave (one undo step)", |a| a.finish_comment(true);
            EditorDiscard = "editor_discard", "Editor: leave and throw the changes away", |a| a.finish_comment(false);
            ListDown = "list_down", "List: next entry", |a| a.list_move(1);
            ListUp = "list_up", "List: previous entry", |a| a.list_move(-1);
            ListPageDown = "list_page_down", "List: down one page", |a| a.list_page(1);
            ListPageUp = "list_page_up", "List: up one page", |a| a.list_page(-1);
            ListTop = "list_top", "List: first entry", |a| a.list_move(isize::MIN / 2);
            ListBottom = "list_bottom", "List: last entry", |a| a.list_move(isize::MAX / 2);
            ListPick = "list_pick", "List: choose this entry (jump, edit the value, end the line)", App::list_pick;
            ListAdd = "list_add", "List: add an entry (header: a new field)", App::list_add;
            ListDelete = "list_delete", "List: delete this entry", App::list_delete;
            ListSort = "list_sort", "List: sort by the next column (the games at a position, o: date, 先手, 後手, result, moves)", |a| a.list_sort(false);
            ListReverse = "list_reverse", "List: reverse the order (of a list that sorts)", |a| a.list_sort(true);
            ListFilter = "list_filter", "List: filter (the games at a position, o: the explorer's filter, player:藤井 2020..2023 …)", App::list_filter;
            CopyMenu = "copy_menu", "Copy the position, the line or the record to the clipboard (menu)", clipboard::toggle_copy_menu;
            CopySfen = "copy_sfen", "Copy: the current position as SFEN", |a| clipboard::copy(a, Copy::Sfen);
            CopyBod = "copy_bod", "Copy: the current position as a BOD diagram", |a| clipboard::copy(a, Copy::Bod);
            CopyUsi = "copy_usi", "Copy: the moves up to here as a USI `position … moves …` line", |a| clipboard::copy(a, Copy::Usi);
            CopyKif = "copy_kif", "Copy: the whole record as KIF", |a| clipboard::copy(a, Copy::Kif);
            CopyKi2 = "copy_ki2", "Copy: the whole record as KI2", |a| clipboard::copy(a, Copy::Ki2);
            CopyCsa = "copy_csa", "Copy: the whole record as CSA", |a| clipboard::copy(a, Copy::Csa);
            SaveDiagram = "save_diagram", "Save the current position as an SVG or PNG picture (asks for the file)", App::open_diagram_prompt;
            Paste = "paste", "Open a pasted record (KIF, KI2, CSA, SFEN/USI, BOD or JKF)", |a| clipboard::open_prompt(a, false);
            Newline = "newline", "Paste prompt: start a new line", |a| clipboard::insert(a, '\n');
            ToggleWatch = "toggle_watch", "Follow the file: reload when another program writes it", watch::toggle;
            ToggleAnalysis = "toggle_analysis", "Research: analyse the position with the engine, following the cursor (again: stop)", App::toggle_analysis;
            InsertPv = "insert_pv", "Research: insert the engine's best line here as a variation (one undo step)", App::insert_best_pv;
            PickPv = "pick_pv", "Research: choose one of the engine's lines to insert", App::open_pv_list;
            PvToComment = "pv_to_comment", "Research: add the best line to the comment (ShogiHome's #評価値, #読み筋)", App::pv_to_comment;
            ToggleBestMove = "toggle_best_move", "Research: show or hide the best move's squares on the board", App::toggle_best_move;
            Play = "play", "Play: a game against the engine from this position, or watch two engines (side, engine, time control, names; :play)", App::open_play;
            PlayResign = "play_resign", "Play: resign the game (asks first); watching, stop it", App::play_resign;
            PlayDeclare = "play_declare", "Play: declare a win by entering king (入玉宣言, the 27-point rule decides; a false one loses)", App::play_declare;
            PlayEval = "play_eval", "Play: show or hide the engine's evaluation and line beside the clocks", App::toggle_play_eval;
            CancelJob = "cancel_job", "Stop :analyze or :mate (the comments written so far stay; u undoes them)", App::cancel_job;
            ToggleGraph = "toggle_graph", "Show or hide the evaluation graph of the main line (from the comments' evaluations)", App::toggle_graph;
            GraphScale = "graph_scale", "Graph: centipawns (±2000) or sente's win %", App::toggle_graph_scale;
            NextMark = "next_mark", "Go to the next marked move (緩手, 疑問手, 悪手, 大悪手) of the main line", |a| a.jump_mark(true);
            PrevMark = "prev_mark", "Go to the previous marked move of the main line", |a| a.jump_mark(false);
            Search = "search", "Search the record: moves (76歩, 同歩, 58金右), comments, bookmarks, header (Enter on an empty / repeats the last search)", App::open_search_prompt;
            SearchNext = "search_next", "Next match of the last search (into variations too; wraps around)", |a| a.search_step(true);
            SearchPrev = "search_prev", "Previous match of the last search", |a| a.search_step(false);
            SearchList = "search_list", "List the matches of the last search (those off the current line too) and jump to one", App::open_search_list;
            NextRecord = "next_record", "Next record of a file that holds several (CSA /); asks first about unsaved edits", |a| a.step_record(1);
            PrevRecord = "prev_record", "Previous record of a file that holds several", |a| a.step_record(-1);
            ToggleExplorer = "toggle_explorer", "Show or hide the explorer: the moves the collection's games played here and how they scored (kifview index DIR builds it)", App::toggle_explorer;
            ExplorerMoves = "explorer_moves", "Explorer: give the pane the focus (shown first when hidden) to pick one of its moves or set its filter", App::focus_explorer;
            ExplorerDown = "explorer_down", "Explorer: highlight the next move", |a| a.explorer_select(1);
            ExplorerUp = "explorer_up", "Explorer: highlight the previous move", |a| a.explorer_select(-1);
            ExplorerPlay = "explorer_play", "Explorer: play the highlighted move (the record's move, else a new variation: one undo step)", App::explorer_play_selected;
            ExplorerFollowLibrary = "explorer_follow_library", "Explorer: follow the library (again: its own filter): the games of the library's folder and filter, as they change; the title says 一覧:", App::toggle_explorer_follow;
            ExplorerAsMe = "explorer_as_me", "Explorer: as me (again: everyone): only the games I played ([collection] me, --me), scored from my side whatever my colour (勝 引分 不明, my win %)", App::toggle_explorer_as_me;
            ExplorerFilter = "explorer_filter", "Explorer: filter its games with the filters of kifview find as words (player:藤井 event:竜王 2020..2023 tag:四間飛車; empty: all); o lists the same games", App::open_explorer_filter;
            CollectionGames = "collection_games", "List the collection's games that reach this position, newest first; Enter opens one there", App::open_collection_games;
            CollectionBack = "collection_back", "Back to the record you were in before opening a collection game (its edits and undo intact)", App::collection_back;
            CollectionForward = "collection_forward", "Forward again to the collection game left with collection_back", App::collection_forward;
            ToggleBook = "toggle_book", "Show or hide the book pane: the moves the open opening books (定跡) hold for this position, with value, depth, count and comment (:book open FILE, kifview --book FILE)", App::toggle_book;
            BookMoves = "book_moves", "Books: give the pane the focus (shown first when hidden) to play, add, change, delete or reorder its moves", App::focus_book;
            BookDown = "book_down", "Books: highlight the next move", |a| a.book_select(1);
            BookUp = "book_up", "Books: highlight the previous move", |a| a.book_select(-1);
            BookPlay = "book_play", "Books: play the highlighted move (the record's move, else a new variation: one undo step)", App::book_play_selected;
            BookAdd = "book_add", "Books: add the move that led here to the highlighted move's book (value, depth, count, comment asked; prefilled from the analysis comment)", App::book_add_current;
            BookEdit = "book_edit", "Books: change the highlighted move's value, depth, count and comment", App::book_edit_selected;
            BookDelete = "book_delete", "Books: delete the highlighted move from its book", App::book_delete_selected;
            BookMoveDown = "book_move_down", "Books: move the highlighted move down in its book's order", |a| a.book_reorder(1);
            BookMoveUp = "book_move_up", "Books: move the highlighted move up in its book's order", |a| a.book_reorder(-1);
            BookSave = "book_save", "Books: save every modified book to its file (atomically; :book save too)", |a| { a.book_save(); };
            BookFlipped = "book_flipped", "Books: look the mirrored position up too (YaneuraOu's FlippedBook; its moves marked 反), or stop", App::toggle_book_flipped;
            Library = "library", "The collection's game list (kifview DIR, --index IDX): back to it at the same row, with the same filter", App::open_library;
            LibraryDown = "library_down", "Library: next game", |a| a.library_move(1);
            LibraryUp = "library_up", "Library: previous game", |a| a.library_move(-1);
            LibraryPageDown = "library_page_down", "Library: down one page", |a| a.library_page(1);
            LibraryPageUp = "library_page_up", "Library: up one page", |a| a.library_page(-1);
            LibraryTop = "library_top", "Library: first game", |a| a.library_move(isize::MIN / 2);
            LibraryBottom = "library_bottom", "Library: last game", |a| a.library_move(isize::MAX / 2);
            LibraryOpen = "library_open", "Library: open the game (then } and { open the next and previous game of the list)", App::library_open;
            LibraryFilter = "library_filter", "Library: filter (羽生, player:藤井 event:竜王 2020..2023 result:sente tag:四間飛車); empty clears", App::library_filter;
            LibrarySort = "library_sort", "Library: sort by the next column (date, 先手, 後手, event, result, moves, tags, file)", App::library_sort;
            LibraryReverse = "library_reverse", "Library: reverse the order", App::library_reverse;
            LibrarySide = "library_side", "Library: the summary's results from the next side (先手, 後手, me)", App::library_side;
            LibraryForget = "library_forget", "Library: forget a folder from the index, as kifview index --forget (the library's, or the selected game's; asks first; the files stay)", App::library_forget;
            TrainAnswer = "train_answer", "Training: show the answer (a problem not answered yet is given up, written wrong) and go to its line", App::train_answer;
            TrainNext = "train_next", "Training: the next problem (one not answered is skipped, nothing written)", App::train_next;
            TrainSource = "train_source", "Training: open the problem's source record at its move; again (or Esc) back to the problem", App::train_source;
            NoOp = "none", "Do nothing (unbinds a default key)", |_| {};
        ] }
    };
}
pub(crate) use command_table;

/// The panels: overlays that show lines of text (`OverlayState::panel`), opened as
/// `Overlay::Panel` and drawn by the panel widget. One line each: the module under
/// `app/overlay/` (declared from this list: its file holds the state type, which implements
/// `OverlayState` and `Default`, the panel as it opens), the state type, and the name and doc
/// of the command that opens it, which takes its place in the command table (after
/// `show_warnings`), so the config, the help and the README's key table know it. Its default
/// key goes in `config.example.toml`. Calls `$m!` with `$args` and then the list.
macro_rules! panels {
    ($m:ident $($args:tt)*) => {
        $m! { $($args)*
            info => RecordInfo, "record_info", "Show the record's file, format, encoding, line endings, KIF layout and header";
            position_info => PositionInfo, "position_info", "Show the position's SFEN, side to move, each side's pieces and points (持将棋), check and the mates in one";
        }
    };
}
pub(crate) use panels;

/// Calls `$m!` with the command table's lines `$before`, a line per panel (its handler,
/// `open_panel!`, is resolved where `dispatch/mod.rs` expands the table), then `$after`.
macro_rules! panel_commands {
    ($m:ident [$($before:tt)*] [$($after:tt)*] $( $module:ident => $state:ident, $name:literal, $doc:literal; )*) => {
        $m! {
            $($before)*
            $( $state = $name, $doc, open_panel!($module, $state); )*
            $($after)*
        }
    };
}
pub(crate) use panel_commands;

macro_rules! define_commands {
    ($( $variant:ident = $name:literal, $doc:literal, $handler:expr; )*) => {
        /// A command a key can be bound to.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Command {
            $( #[doc = $doc] $variant, )*
        }
        /// Every command with its config name and doc, in the order of the help.
        pub const COMMANDS: &[CommandInfo] = &[
            $( CommandInfo { command: Command::$variant, name: $name, doc: $doc }, )*
        ];
    };
}

/// A command's name and doc.
#[derive(Clone, Copy, Debug)]
pub struct CommandInfo {
    pub command: Command,
    /// The snake_case name used in the config.
    pub name: &'static str,
    /// One line for the help and the README.
    pub doc: &'static str,
}

command_table!(define_commands);

impl Command {
    /// The command of a config name.
    pub fn from_name(name: &str) -> Option<Command> {
        COMMANDS.iter().find(|c| c.name == name).map(|c| c.command)
    }
    /// The table lists the variants in declaration order.
    fn info(self) -> &'static CommandInfo {
        &COMMANDS[self as usize]
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    pub fn doc(self) -> &'static str {
        self.info().doc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_snake_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for (i, c) in COMMANDS.iter().enumerate() {
            assert_eq!(c.command as usize, i, "{} out of order", c.name);
            assert!(seen.insert(c.name), "duplicate {}", c.name);
            assert!(
                c.name
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_'),
                "{}",
                c.name
            );
            assert!(!c.doc.is_empty());
            assert_eq!(Command::from_name(c.name), Some(c.command));
            assert_eq!(c.command.name(), c.name);
        }
        assert_eq!(Command::from_name("nope"), None);
    }
}
