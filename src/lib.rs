//! kifview: a terminal viewer and editor for shogi game records (KIF, KI2, CSA, JKF, USI/SFEN,
//! BOD), and batch tools to check and convert them.
//!
//! # Layers
//!
//! A layer uses only the layers above it in this table. `core` is a crate of its own,
//! `crates/kifview-core` (re-exported here as [`core`], so `crate::core::…` and
//! `kifview::core::…` name it), whose `Cargo.toml` lists only the crates of its row below: the
//! compiler holds it to naming only itself and those (no terminal crate, no SQLite, no
//! renderer), and `cargo test -p kifview-core` tests it alone. The test
//! `tests/integration/viewer/tui_layers.rs` checks each rule here on the source text (core's files
//! as the module `core`; a use is a path or a name a file writes: `crate::`, `super::`, a
//! child module's `stack::Overlay`, a name it imports, a name it re-exports and uses itself;
//! a method call names no file, so it sees none): `core`'s dependencies are the crates its
//! row names; each layer names only itself and the layers its "uses" column names (`core`
//! only `core`); only `tui`, `cli` and `main.rs` name a terminal crate; in `app`, `std::fs`
//! appears only under `app/document/`; no files use each other round a loop that the
//! module file holding them all is not on (a folder's `mod.rs` and its parts may use each
//! other, its parts round a loop without it may not; a file uses the file that defines what
//! it names, a path led through re-exports, `crate::app::App` to `app/state.rs`; a parent's
//! use of its children counts, `mod x;` and its re-exports do not), with no exception (none
//! is left of the ten uses that closed loops when the rule came): `App`
//! (`app/state.rs`) holds the overlay stack, whose kinds, states and continuations act on
//! `App`, so the stack is written once for any app in `app/overlay/stack.rs` (which names
//! no app state) and `app/overlay/mod.rs` names it for `App`; in `app` and `tui`, no file holds over
//! 600 lines of code outside its tests and no function over 80 lines (with no exceptions
//! left); `App` has at most 15 fields and none visible outside `app`; only
//! `Host for App` (`app/overlay/mod.rs`: `Overlay::state`/`state_mut`) and
//! `tui::ui::overlays` name every kind of overlay; drawing writes nothing back into the app
//! (a key's path, step 5); work that outlives a key press, the engine's included, reaches
//! the run loop as events ("Where a change goes").
//!
//! | layer | holds | uses |
//! | --- | --- | --- |
//! | [`core`] | `rules` (board, legal moves and why a move is illegal, a move as played, `Position::move_data`/`play_move`, handicaps, SFEN, `rules::setup`: the rules a position must meet before play starts from it, for the position editor and `kifview mate`; `rules::ending`: 入玉宣言 by the 27- or 24-point rule and 千日手 with 連続王手の千日手), `record` (the tree of moves as an arena held in chunks that copies of a record share until one of them writes, `record::Nodes`, so that a copy for a save or a recovery file costs microseconds, not a key's worth, the main line's node at a ply, edits with their inverses, the undo history), `notation` (decoding, format detection, the readers and writers of every format, what of a file its reader could not read, `unread`, moves and lines in Japanese, `ki2::line_text`), `text` (the one sanitizer for everything that reaches a terminal), `seeded` (a seeded generator, SplitMix64, and a draw weighted by counts: a match's book openings, a repertoire drill's replies) | std, encoding_rs, memchr, serde_json, simdutf8, smallvec, thiserror, unicode-width |
//! | library modules: `engine`, `load`, `pool`, `convert`, `store`, `analyze`, `collection`, `book`, `diagram`, `training`, `game` | USI engines as child processes; the one loader (a path, standard input or bytes to records; one rule for an empty input and for `--record N`, one limit on a file's size, the one walk of folders that reads regular files only, used by the viewer and every subcommand; `load::read_regular` for a file read to be written back, which a FIFO or a device is not); the batch pool (a function over many inputs on every core, results in input order); batch check and convert; writing files safely (atomic, through links, keeping permissions; `store::save_new` for a batch into a folder others may share: never through a link, never replacing a file unless told); game analysis (comments, marks, evaluations for the graph, batches, mate search); collections of games (an index of folders of records: the catalog in SQLite, positions in sorted memory-mapped segments; which games reach a position, what was played from it; `collection::tags`: a game's strategy and castle tags, 戦型・囲い; `collection::duplicates`: copies of one game in several files, counted once; `collection::report`: the tournament table and a player's dossier; `collection::repertoire`: a player's games against a repertoire, a record's tree or, through its `Repertoire` trait, a book the CLI opens); opening books (`book`: the model, an editable `Book` of positions keyed by SFEN without the ply, the `Lookup` interface that books in memory and on disk answer, the formats read and written); diagrams of positions as SVG and PNG (layout, the bundled font, resvg); training (`training`: next-move problem sets in ShogiHome's format, read and written keeping what they do not know; `training::drill`: what every kind of drill answers to the solve mode, asking for engine work as data and never running it; `training::tsume`: the tsume drill, a mating problem's record played through with its defences, another mate than the record's kept when the mate engine confirms it; `training::guess`: guess-the-move over a record, scored against its move and its analysis comments; `training::repertoire_drill`: a repertoire played for one side through its `Lines` trait (a record's tree here, a book the CLI opens), the replies drawn by count with a seed; making them from analysed games with ShogiHome's rules and one engine, `training::make` and `training::batch`; tsume made from the mating finishes of games, confirmed by a mate engine's `go mate`, `training::jissen`; the attempts and their FSRS schedule in SQLite in the user's data directory, with each problem's tags and the statistics, `training::history`); games (`game`: time controls and the clock on an injectable time source, a game's moves and the rules it ends by (mate, resignation, 入玉宣言 and 千日手 from `core::rules`, time, illegal moves, an engine's fault, the move limit), a game as a record with its times and ending, the engine-vs-engine loop and the statistics of `kifview match`) | `core`, and each other: `convert` uses `load`, `pool`, `store`; `analyze` uses `engine`, `convert`, `load`, `store`; `collection` uses `load`, `pool`, `convert` and `analyze`, with rusqlite and memmap2; `book` uses `store`, and for books built from indexed games (`book::build`) `collection`, `load`, `pool`, `analyze` (evaluations in comments) and `engine` (scores), with memmap2 and directories (the cache of sorted copies); `diagram` only `core`, with resvg; `training` uses `engine`, `load`, `store`, `analyze` and `collection` (its strategy tags, for the statistics), with rusqlite and rs-fsrs; `game` uses `engine`, `load`, `pool`, `store` and `analyze` (its comments), and for a match's openings `collection` (positions its games reach) and `book` (walks drawn by count); `engine`, `load`, `pool` and `store` only `core` |
//! | [`app`] | `App` and moving around the record (`app::state`), how the record is shown (`app::view`: the focus, the panes that scroll, what the last frame drew, `Drawn`), config and keymaps (`app::config`), what the move list shows of a line (`app::line_view`), the variation tree as an outline (`app::outline`), the workers' one channel (`app::events`), quitting, suspending and taking the workers' events one by one (`app::lifecycle`), records built by hand for tests and benches (`app::testing`), and one folder per feature: `dispatch` (the command table, the `:` table, the app's key events, `update`), `overlay` (the stack, written for any app in `overlay::stack` and named for `App` in `overlay`, the `OverlayState` trait through which each overlay's state answers for its behaviour, the mechanics of questions, prompts and lists, each of which carries what answering it does, written in the feature that opens it, and the other overlays' states: the comment editor, move input, the tree, the reader's warnings, the record's info and the position's (panels), the mode line), `document` (open, save with its questions and its thread, the records of a multi-record file, following a file, recovery files (of records, and of the books' edits), copy and paste, the copy menu's picture: every record and recovery file the app reads or writes, the only files of `app` that name `std::fs`; the config is read by `app::config` through `load`, books by `app::book` through `book`, the index through `collection`), `edit` (changes to the record, the position editor, bookmarks, the header's fields, a move or an ending typed or chosen), `search` (`/`), `research` (the engine, which one and its options, `:engine` and `:set` in `research::engines`, `:analyze` and `:mate`, the evaluation graph), `play` (a game against the engine from the position at the cursor, or two engines watched, on the `game` layer's rules and clock: its setup, the turns, the clocks' deadlines, takeback, resign, 入玉宣言, each move into the record as it is played with its time; its state is held by `research`'s, which owns the engines), `collection` (the explorer pane, a thread that owns the collection's index and answers off the key path through a latest-wins mailbox, `collection::mailbox`, which the library's lister uses too; both threads follow the index, its generation and its catalog file's identity, looking before each answer and twice a second when idle, and say when it changed so that nothing shown stays from before, the pane's focus with its highlighted move and the filter of its games (and "as me": my games, scored from my side; or the library's folder and filter, which it can follow), the games reaching a position, sorted and filtered, and the back/forward stack of records), `book` (the book pane: the open books' moves for the position, looked up after the key that moved there and kept for drawing, their focus with play and the edits, saving them through `book::save_watched`, the exact modified mark, the recovery files of their unsaved edits (`app::book::recovery`; the files are `app::document::book_recovery`'s), where the line shown leaves the books), `train` (the solve mode of `kifview train`, full screen: the problem's position only, moves entered as everywhere handed to its drill, the verdict, the answer's line, the source record and back, the attempts written to the training history by a thread of its own, the drills' engine requests run on `research`'s engine and answered through its events), `library` (the collection's games as a full-screen list, `kifview DIR`: its filter, sort and row cache, the summary above it, a thread that computes the ordered list (and the summary) and fetches the rows of the pages around the screen before the list gets there, and one that indexes the folder; `}`/`{` through the list) | `core`, the library modules; never a terminal crate |
//! | [`tui`] | the run loop (one wait, `tui::wake`, for the terminal, the workers' events and the frame's timeout), terminal events turned into the app's keys, layout, one widget per pane, theme | `app`, `core`, and the types it draws from `analyze` (evaluations), `collection` (a game's details and result), `engine` (scores, lines) and `game` (clocks); ratatui, crossterm |
//! | `main.rs`, `cli` (the binary: `cli/mod.rs` the arguments, the viewer's launch and `completions`, one file per subcommand or family: `convert`, `show`, `check`, `analyze` with `mate`, `collection` with `index`, `find`, `explore`, `games` and `tags`, `report`, `repertoire` (`check`), `diagram`, `book` with `convert`, `merge`, `show` and `check`, `book_build`, `problems` with `make` and `tsume` (`problems_tsume`: 実戦詰め into a folder of tsume records), and `train` (the solve mode over sets, tsume files, folders or an index's tsume, or what is due) with `stats`, `add`, `remove` and `suspend`, and `train_drills` (its `--guess` and `--repertoire` drills, a book as the repertoire's lines), and `matches` (`kifview match`, engine against engine on `game::matches`, and `match report`)) | arguments, subcommands, printing | everything |
//!
//! # A key, from the terminal to the screen
//!
//! 1. `tui::event` turns a crossterm key into the app's own [`app::KeyEvent`] (and a mouse
//!    click or the wheel into an [`app::Action`]); the front end (`tui::Viewer::handle`)
//!    hands it, or pasted text as `Input::Paste`, to [`app::update`] (through
//!    `app::update_on`, step 5), the one entry for keys, mouse and paste: it clears the last
//!    message (not while a `:` line is typed), runs the input, then names a move the reader
//!    warned about, refreshes a search the change made stale and looks the open books up at
//!    the position it moved to (the same steps for all three).
//! 2. The keymap of the top overlay (`app::overlay`: nothing open is browsing; the `:`
//!    line, a prompt, a question, a list, the comment editor, move input, the tree, help, the
//!    reader's warnings, the copy menu, the paste prompt, the position editor, the library,
//!    the solve mode, a panel each say which keymap, through their state's
//!    `OverlayState::key_mode`) turns the key into an [`app::Command`]; a character typed
//!    where text goes (`OverlayState::takes_text`) becomes `Action::Insert`, which the top
//!    overlay's state takes. Commands whose meaning depends on the overlay (`submit`,
//!    `cancel`, `delete_back`) ask its state too. A question, a prompt or a list carries
//!    what answering it does (`Confirm::on_answer`, `Prompt::on_submit`, a `ListContent`), put
//!    there by the feature that opened it; `app::overlay`'s `confirm.rs`, `prompt.rs` and
//!    `lists.rs` only open, move through and close them and hand the answer over.
//! 3. The command's handler runs from the command table
//!    (`app::dispatch::command`: name, doc and handler, written once); `:` lines run through their own table
//!    (`app::dispatch::typable`: name, aliases, argument, doc, handler).
//! 4. The handler opens or closes an overlay (a stack: closing returns to the one below), moves
//!    in the record (`app::state`), or changes the record through `App::apply`
//!    (`app::edit`), which hands the edit to the [`app::Document`]: the record, its undo
//!    history, its revision and the following of its file live and die together there, and
//!    every change of the record goes through its history: an undo step of its own
//!    (`apply`), or joined to the last step (`apply_joined`: a game's reply with the move it
//!    answers; `apply_comments`: a running analysis's comments), and `undo` and `redo`. The
//!    saves and the recovery files outlive a document: they are the session's
//!    (`app::document::session`). Each state of the
//!    record has a revision, and the record is modified while its revision is not the one
//!    last written whole to disk. `App`'s own fields are the app layer's: the front end,
//!    tests and benches read it through its methods and change it through commands.
//! 5. `tui::ui` lays the screen out and each widget (`tui::widgets`) draws its pane from
//!    `&App`; the overlays are drawn from the bottom of the stack up. Drawing changes nothing
//!    in the app and starts no query: what only drawing knows is the front end's own render
//!    state, `tui::view::ViewState` (where things were drawn for the mouse; the first row the
//!    moves, the variations, the tree and the library show, each following its selection; how
//!    far each pane could scroll; how many rows a list and the library showed). What a key
//!    needs of it (a page's rows for PageDown, how far a pane scrolls, whether the graph is on
//!    screen) is an [`app::Drawn`] handed to the app with each input, `app::update_on`; the
//!    scroll offsets the keys move stay the app's (its view, each overlay's state) and a key
//!    scrolls from where the frame showed them. After a frame that drew other sizes than the
//!    app was last handed (a resize, the library shown) the run loop hands them over as an
//!    input of their own (`Viewer::hand_over_sizes`), on which the library fetches the rows
//!    it can now show (one SQLite query, on the key path, never from drawing).

//! # A file, from bytes to the screen (and back)
//!
//! 1. `app::document` reads the bytes (at launch a path or standard input through `load`, as
//!    every subcommand reads its inputs; `:e` and a followed file read their path again;
//!    pasted text comes as text; `--record N` picks the record by `load::record_index`, as
//!    every subcommand does, and a CSA file of several keeps each record's text so that `}` and
//!    `:record N` show another and saving writes them all back); in `app`, `std::fs` appears
//!    only there. The collection's index is read through `collection`: by the explorer's and
//!    the library's threads, and on the key path by the library (the rows shown after a jump
//!    or a new list, and the game opened: one query each, `app::library`).
//! 2. `core::notation` decodes them (BOM, declared or detected Shift_JIS/UTF-8/EUC-JP, a few
//!    unreadable bytes replaced by � with a warning per line, line endings, all remembered for
//!    writing back), detects the format from the name and the text (and a KIF file's
//!    dialect, `notation::kif::KifDialect`, which saving back to the file keeps; a clean CSA or
//!    KI2 file's text, which its record keeps, `core::record::SourceText`, so that writing it back
//!    reuses the file's own text for what did not change), and
//!    reads it with that format's reader into a [`core::record::Record`] and warnings that
//!    name the line and what was expected. The text is decoded once: `notation::Loaded`
//!    carries it, and the lines the reader could not read are kept from it as remark lines
//!    where they were (`core::notation::unread`, `Loaded::keep_unread`), by the viewer and
//!    `convert` alike. A record written to a terminal is shown from the text it was rendered
//!    from, never from its bytes decoded back (`convert::JobResult::stdout_text`,
//!    `analyze::output::Rendered`).
//! 3. The app shows the record; saving goes back the same way: `app::document::save` asks
//!    first whether to overwrite (the file changed on disk, another file exists), then on a
//!    thread of its own with a copy of the record (`app::document::background`; the copy
//!    shares the record's nodes, `record::Nodes`, so taking it on the UI thread is cheap)
//!    `core::notation` renders and encodes it, once per save (a record of a CSA file of
//!    several in its place among the others as they were, `notation::csa::splice`, which also
//!    rewrites their encoding declaration for a copy in another encoding), and the same thread
//!    finds the reasons to ask that the bytes and the file show (an encoding that cannot hold
//!    a character, a format that cannot hold everything, a read-only file from its metadata:
//!    `background::prepare`); the reasons the session knows of (lines not read, the other
//!    records of a file of several, bytes replaced when the file was read) the app finds
//!    before the thread starts and hands to it (`save.rs`'s `start_save`), each loss typed
//!    until it is shown (`app::document::checks`). The questions are asked one after the other
//!    (`app::document::questions`, each named and counted), and after the last yes (or at
//!    once when there is none) `store` writes the bytes already made, on a thread (a save
//!    that takes longer than about 100 ms shows its progress on the status line; saving as
//!    UTF-8 instead re-encodes a KIF text, and makes another format's again, whose text
//!    declares its encoding in more places). The save's
//!    thread sends `Event::Save` when it ends, the run loop hands it to the app, which takes
//!    its outcome, and the document takes what it means in one step,
//!    `Document::saved`: the revision the bytes were made from is on disk (an edit made
//!    meanwhile stays unsaved), and the file it is now.

//! # Where a change goes
//!
//! - A rule of shogi, or a new handicap: `core::rules` (the rules a game ends by that no single
//!   move shows, 入玉宣言 and 千日手: `core::rules::ending`).
//! - How a game is played, clocked, ended and recorded, by a person or an engine: `game`.
//! - A strategy or castle tag (戦型・囲い): a rule or a `CASTLES` entry in `collection::tags`,
//!   with a game or a position that must get it and a near miss that must not in
//!   `tests/integration/collection/tags.rs`.
//! - A new format, or a reader's or writer's behaviour: `core::notation` (a reader builds the
//!   record the way the other readers do; a writer lists what its format cannot hold).
//! - A new kind of edit to the record: an `Edit` and its inverse in `core::record`, then a
//!   handler in `app::edit` that applies it.
//! - A new key command: a line in the command table (`app::dispatch::command`) with its
//!   handler, and its default key in `config.example.toml` (the defaults themselves,
//!   which document every option and key); the help and the README's key table follow (the
//!   README's rows with `UPDATE_README=1 cargo test --test integration readme`).
//! - A new `:` command: a line in `app::dispatch::typable` (its argument, `Arg`: one that
//!   takes none is refused an argument there, before its handler runs); the help,
//!   `:help NAME`, completion and the README's table follow.
//! - A new question, prompt or list: in the feature's own folder only, with what answering it
//!   does. A question: `App::ask(question, details, answers, |app, answer| ...)` (or
//!   `ask_save_first`); a prompt: `App::open_prompt(Prompt::new(label, text, |app, text| ...))`
//!   (`Prompt::closing` closes it first; `App::next_prompt` asks the next, as the header's
//!   name then value); a list: a type implementing `app::overlay::ListContent<App>` (its tag, its
//!   rows from the app, what Enter, `a` and `d` do), opened with `App::open_list`. The
//!   mechanics (`app/overlay/confirm.rs`, `prompt.rs`, `lists.rs`) and the command table do
//!   not change, unless a key opens it (a line in the command table). As
//!   `app::edit::header` (a list and its prompts), `app::document::picture` (a prompt and a
//!   question) and `app::research::lists` do.
//! - A new overlay: a state type that implements `app::overlay::OverlayState<App>` (its mode,
//!   its keymap, whether it takes text, its tag and way out on the status line, what Enter,
//!   Esc, typing, Backspace and paste do, whether it scrolls, whether it takes every key
//!   itself as the position editor does: one place per overlay, in
//!   `app::overlay` or the feature's folder), the command that opens it (a line in the
//!   command table) and its default key. One that shows lines of text (a panel) answers
//!   `panel` and takes three files: its own, holding a state type that implements
//!   `OverlayState` and `Default` (the panel as it opens); its line in `panels!` beside the command
//!   table (`app::dispatch::command`), which declares its module under `app/overlay/` and
//!   gives it its command (name and doc; its handler opens it as `Overlay::Panel`); and its default key in
//!   `config.example.toml`. The panel widget draws it and nothing else learns it
//!   (`app::overlay::position_info`, `Ctrl-p`, took those three; the README's key table
//!   gains its row from the command above). One with a
//!   widget of its own is also a variant of `Overlay` and of `Mode` (`app/overlay/stack.rs`),
//!   a line in `Host for App`'s `state`/`state_mut` (`app/overlay/mod.rs`, the app's one
//!   `match` over the kinds) and one in
//!   `tui::ui::overlays` (the front end's, which picks the widget); no other file names
//!   every kind (`tests/integration/viewer/tui_layers.rs` checks it).
//! - A message that names a key: `App::key` (browsing) or `App::key_name` (another mode)
//!   names the command's current key, so that a rebound key is the one named.
//! - State of the app: what lives and dies with the record shown (its history, caches of it,
//!   the following of its file) in `app::Document` (`app/document/doc.rs`), which
//!   `replace_record` replaces as a whole; what outlives it (the saves, the recovery files of
//!   every open document) in `app::document::session`; what the screen needs of the session in `App` (at most 15 fields, none
//!   visible outside `app`: the front end reads them through methods).
//! - Reading or writing files from the app: under `app/document/` only (the config file is
//!   read through `load::read_text_limited`, with a limit); the collection's index only
//!   through `collection`, books only through `book` (`app::book`), the training history
//!   only through `training::history` (`app::train::writer`).
//! - How something looks: its widget in `tui::widgets`; shared drawing helpers in `tui::draw`;
//!   colours in `tui::theme` and the config.
//! - How a picture of a position (`kifview diagram`, the copy menu's `d`) looks: `diagram::svg`
//!   (the layout), `diagram::render` (the bundled font, PNG, outlines); its theme's config keys
//!   in `app::config::diagram`.
//! - Work that outlives a key press (an engine, a batch): a library module, run from the app
//!   on a thread of the feature's own that sends an `app::events::Event` when it has news
//!   (its variant there and its line in `App::handle_event`, `app/lifecycle.rs`); work that
//!   ends with one result is an `app::events::Task` (its thread, the progress it shares,
//!   its result taken on its event or waited for: the record's save and the books' save; a
//!   stop is the work's own, a book's `SaveWatch`): the run
//!   loop waits on that one channel with the terminal and the frame's timeout (`tui::wake`)
//!   and does not change. The engine is such a worker: its process's threads wake the loop
//!   through an `engine::Waker` (`Event::Engine`, once until the app polls again), and an
//!   engine that only searches is never polled. What only time moves (an engine's deadlines:
//!   a reply's timeout, a timed search's end, the debounce before the cursor's position is
//!   asked for; a progress on the status line) is looked at when `App::next_look` asks: the
//!   loop's wait ends at the nearest.
//! - Indexing collections, position queries, the catalog's schema: `collection` (the commands
//!   in `cli/collection.rs` only parse and print).
//! - The collection in the viewer (the explorer pane, its focus and filter, the games at a
//!   position, going back to the record left): `app::collection`, its pane in
//!   `tui::widgets::explorer`.
//! - Opening books in the viewer (the book pane, its focus and edits, the "leaves the book"
//!   mark): `app::book`, its pane in `tui::widgets::book` (which shares the explorer's places);
//!   books built from games (`kifview book build`): `book::build`.
//! - The library (the game list of `kifview DIR`, its columns, filter, sort, opening a game
//!   and stepping through the list): `app::library` (its state is the `library` of
//!   `app::collection::Collection`, which `App` holds: the index it reads, the explorer and
//!   the library, each with its own threads, the records left, and the open books), its screen in `tui::widgets::library` (the rows as drawn, kept from frame to
//!   frame, in `tui::view::LibraryLines`); a new sort column is a `SortBy` of
//!   `collection::catalog` and a `Column` of the widget.

pub mod analyze;
pub mod app;
pub mod book;
pub mod collection;
pub mod convert;
/// The domain core (`crates/kifview-core`): rules, record, notation, text, seeded.
/// Re-exported so that `crate::core::…` and `kifview::core::…` name it as before.
pub use kifview_core as core;
pub mod diagram;
pub mod engine;
pub mod game;
pub mod load;
pub mod pool;
pub mod store;
pub mod training;
#[cfg(feature = "terminal")]
pub mod tui;
