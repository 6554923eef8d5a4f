//! Research mode in the app, driven by the scripted fake engine
//! (`tests/fixtures/engines/replay.sh`): the pane, following the cursor with a debounce,
//! inserting a line (one undo step), the comment, a crash; and `:engine`, `:set`.

use kifview::app::research::DEBOUNCE;
use kifview::app::testing::push_line;
use kifview::app::{App, Config, KeyCode, KeyEvent, Level, RecordSource};
use kifview::core::record::{NodeId, Record};
use kifview::core::rules::{Position, Square};
use kifview::engine::{AnalysisStatus, EngineSpec};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use ratatui::style::Modifier;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::common::{screen, screen_rows};

const HANDSHAKE: &str = "< usi\n> id name Fake\n> option name MultiPV type spin default 1 min 1 max 10\n> usiok\n< isready\n> readyok\n";

/// Lines for the start position: two PVs, sente's view.
const START_INFO: &str = "> info depth 3 seldepth 5 nodes 1234 nps 5000 hashfull 12 multipv 1 score cp 123 pv 7g7f 3c3d 2g2f\n> info depth 3 seldepth 4 nodes 1234 nps 5000 multipv 2 score cp -40 pv 2g2f 8c8d\n";

/// A fake engine with `script` (after the handshake), its log in a temporary directory.
pub(crate) struct Fake {
    dir: tempfile::TempDir,
    pub(crate) spec: EngineSpec,
}

impl Fake {
    pub(crate) fn new(script: &str) -> Fake {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("script");
        std::fs::write(&path, format!("{HANDSHAKE}{script}")).unwrap();
        let replay =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/engines/replay.sh");
        let mut spec = EngineSpec::new("/bin/sh");
        spec.name = "Fake".into();
        spec.args = vec![
            replay.display().to_string(),
            path.display().to_string(),
            dir.path().join("log").display().to_string(),
        ];
        Fake { dir, spec }
    }

    pub(crate) fn log(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("log"))
            .unwrap_or_default()
            .lines()
            .map(String::from)
            .collect()
    }

    pub(crate) fn app(&self, record: Record) -> App {
        let mut config = Config::defaults();
        config.engines = vec![self.spec.clone()];
        App::new(record, RecordSource::untitled("study.kif"), config)
    }
}

pub(crate) fn key(app: &mut App, c: char) {
    app.handle_key(KeyEvent::char(c));
}

/// Ticks the app in real time until `done` (or fails after 10 s).
pub(crate) fn until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        app.research_tick(Instant::now());
        if done(app) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "never {what}; message: {:?}",
            app.message()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn lines_arrived(n: usize) -> impl Fn(&App) -> bool {
    move |a: &App| {
        a.analysis_is_current() && a.research().analysis().is_some_and(|x| x.lines.len() >= n)
    }
}

/// Ticks the app until the fake engine's log has a line starting with `prefix`.
fn logged(app: &mut App, fake: &Fake, prefix: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        app.research_tick(Instant::now());
        let log = fake.log();
        if log.iter().any(|l| l.starts_with(prefix)) {
            return log;
        }
        assert!(Instant::now() < deadline, "never sent {prefix:?}: {log:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The study: 7g7f 3c3d 8h2b+ on the main line, 2g2f as a variation at ply 1.
fn study() -> Record {
    let mut r = Record::default();
    r.header.set("先手", "先手さん");
    r.header.set("後手", "後手さん");
    push_line(&mut r, NodeId::ROOT, "7g7f 3c3d 8h2b+");
    push_line(&mut r, NodeId::ROOT, "2g2f");
    r
}

fn started(fake: &Fake) -> App {
    let mut app = fake.app(study());
    key(&mut app, 'a');
    assert!(app.research().on, "{:?}", app.message());
    until(&mut app, "got the lines", lines_arrived(2));
    app
}

#[test]
fn pane_snapshots_at_80x24_and_160x48() {
    let fake = Fake::new(&format!("< go\n{START_INFO}"));
    let mut v = Viewer::new(started(&fake), Theme::plain());
    let t = screen(&mut v, 80, 24);
    let rows = screen_rows(&t).join("\n");
    assert!(rows.contains("検討 解析中 (a: stop) · Fake"), "{rows}");
    assert!(
        rows.contains("+123  55%   3/5 ▲７六歩△３四歩▲２六歩"),
        "{rows}"
    );
    assert!(rows.contains("-40  48%   3/4 ▲２六歩△８四歩"), "{rows}");
    assert!(
        rows.contains("互角  深さ 3/4  1234局面  5000/秒  hash 1%"),
        "{rows}"
    );
    assert!(
        !rows.contains("コメント"),
        "the pane takes the comment's place: {rows}"
    );
    insta::assert_snapshot!("research_80x24", t.backend());
    kifview::app::testing::run_until(&mut v.app, kifview::app::Command::FocusNext, 4, |a| {
        a.focus() == kifview::app::Focus::Comment
    });
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(
        rows.contains("コメント") && !rows.contains("検討"),
        "focused: {rows}"
    );
    kifview::app::testing::run_until(&mut v.app, kifview::app::Command::FocusNext, 4, |a| {
        a.focus() == kifview::app::Focus::Moves
    });
    let t = screen(&mut v, 160, 48);
    let rows = screen_rows(&t).join("\n");
    assert!(
        rows.contains("コメント"),
        "wide screens keep the comment: {rows}"
    );
    insta::assert_snapshot!("research_160x48", t.backend());

    // Stopping keeps the lines, marked stopped.
    key(&mut v.app, 'a');
    assert!(!v.app.research().on);
    until(&mut v.app, "stopped", |a| {
        a.research()
            .analysis()
            .is_some_and(|x| x.status == AnalysisStatus::Stopped)
    });
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("検討 停止 (a: resume) · Fake"), "{rows}");
    assert!(rows.contains("[停止]"), "{rows}");
    assert!(rows.contains("▲７六歩△３四歩▲２六歩"), "{rows}");
    // Elsewhere, at 80x24, the comment comes back.
    key(&mut v.app, 'l');
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("コメント"), "{rows}");
}

#[test]
fn the_pv_is_cut_at_the_pane_width_and_never_wraps() {
    let long = "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d 2b8h+ 7i8h B*2b";
    let fake = Fake::new(&format!(
        "< go\n> info depth 9 multipv 1 score cp 5 pv {long}\n> info depth 9 multipv 2 score cp 1 pv 2g2f\n"
    ));
    let mut v = Viewer::new(started(&fake), Theme::plain());
    let rows = screen_rows(&screen(&mut v, 80, 24));
    let row = rows
        .iter()
        .find(|r| r.contains("▲７六歩△３四歩"))
        .expect("the line");
    assert_eq!(unicode_width::UnicodeWidthStr::width(row.as_str()), 80);
    assert!(row.ends_with('│'), "the border stays: {row}");
    assert!(
        !rows.iter().any(|r| r.contains("８八角成")),
        "the rest of the line is not wrapped onto another row: {rows:?}"
    );
}

#[test]
fn follows_the_cursor_after_a_debounce_and_drops_what_it_passed() {
    let fake = Fake::new(&format!(
        "< go\n{START_INFO}< stop\n> bestmove 7g7f\n< go\n> info depth 2 multipv 1 score cp 50 pv 3a2b\n"
    ));
    let mut app = started(&fake);
    let log = logged(&mut app, &fake, "go infinite");
    assert!(log.contains(&"position startpos".to_string()), "{log:?}");
    assert!(
        log.contains(&"setoption name MultiPV value 3".to_string()),
        "{log:?}"
    );

    // Three moves in quick succession: nothing is searched until the cursor rests.
    let t0 = Instant::now();
    for (i, c) in "lll".chars().enumerate() {
        key(&mut app, c);
        app.research_tick(t0 + Duration::from_millis(20 * i as u64));
    }
    app.research_tick(t0 + Duration::from_millis(40) + DEBOUNCE / 2);
    assert_eq!(
        app.research().analysis().unwrap().position,
        Position::startpos(),
        "still the old search"
    );
    assert!(!app.analysis_is_current());
    app.research_tick(t0 + Duration::from_millis(41) + DEBOUNCE);
    assert_eq!(app.research().analysis().unwrap().position, *app.position());
    until(&mut app, "the new lines", lines_arrived(1));
    let best = app
        .research()
        .analysis()
        .unwrap()
        .best()
        .unwrap()
        .japanese
        .clone();
    assert_eq!(best, "△同　銀");
    let log = logged(&mut app, &fake, "position startpos moves");
    let positions: Vec<&String> = log.iter().filter(|l| l.starts_with("position")).collect();
    assert_eq!(
        positions,
        [
            "position startpos",
            "position startpos moves 7g7f 3c3d 8h2b+"
        ],
        "one stop, one search for where the cursor rested"
    );
    assert_eq!(log.iter().filter(|l| *l == "stop").count(), 1, "{log:?}");
}

#[test]
fn insert_pv_follows_existing_moves_and_is_one_undo_step() {
    let fake = Fake::new(&format!("< go\n{START_INFO}"));
    let mut app = started(&fake);
    let nodes = app.record().len();
    key(&mut app, 'I');
    let msg = app.message().cloned().unwrap();
    assert_eq!(msg.level, Level::Info, "{msg:?}");
    assert_eq!(
        msg.text,
        "variation 2/2: ▲２六歩… 1 move (u undoes; after 2 moves already there)"
    );
    assert_eq!(app.cur(), NodeId::ROOT, "the cursor stays");
    assert_eq!(
        app.record().len(),
        nodes + 1,
        "7g7f 3c3d were there; 2g2f added"
    );
    let shown: Vec<String> = app
        .line()
        .iter()
        .filter_map(|&n| app.record().node(n).move_data().map(|m| m.mv.usi()))
        .collect();
    assert_eq!(
        shown,
        ["7g7f", "3c3d", "2g2f"],
        "the line shown goes through it"
    );
    assert!(app.is_modified());
    key(&mut app, 'u');
    assert!(!app.is_modified(), "one undo step");
    assert_eq!(
        crate::common::usi_line(app.record(), NodeId::ROOT),
        ["7g7f", "3c3d", "8h2b+"]
    );
    key(&mut app, 'I');
    key(&mut app, 'I');
    assert!(
        app.message()
            .as_ref()
            .unwrap()
            .text
            .contains("already in the record"),
        "{:?}",
        app.message()
    );
    // The second line through the picker: 2g2f 8c8d after the existing 2g2f.
    key(&mut app, 'V');
    app.handle_key(KeyEvent::plain(KeyCode::Down));
    app.handle_key(KeyEvent::plain(KeyCode::Enter));
    let fork = app.record().node(NodeId::ROOT).children[1];
    assert_eq!(
        app.record().node(fork).children.len(),
        1,
        "{:?}",
        app.message()
    );
}

#[test]
fn best_line_into_the_comment_in_shogihome_format() {
    let fake = Fake::new(&format!("< go\n{START_INFO}"));
    let mut app = started(&fake);
    kifview::app::testing::apply(
        &mut app,
        kifview::core::record::Edit::SetComment {
            node: NodeId::ROOT,
            text: "序盤".into(),
        },
    )
    .unwrap();
    key(&mut app, 'C');
    assert_eq!(
        app.record().node(NodeId::ROOT).comment,
        "序盤\n互角\n#評価値=123\n#読み筋=▲７六歩△３四歩▲２六歩\n#深さ=3\n#ノード数=1234\n#エンジン=Fake"
    );
    key(&mut app, 'u');
    assert_eq!(app.record().node(NodeId::ROOT).comment, "序盤");
}

#[test]
fn the_board_shows_the_best_move_and_b_hides_it() {
    let fake = Fake::new(&format!("< go\n{START_INFO}"));
    let mut v = Viewer::new(started(&fake), Theme::plain());
    let marked = |v: &mut Viewer| {
        let t = screen(v, 80, 24);
        let buf = t.backend().buffer().clone();
        let sq = v.view.board_squares;
        // 7七 and 7六: file 7 is the third column (3 cells each), ranks 7 and 6.
        let cell = |file: u8, rank: u8| {
            let s = Square::new(file, rank).unwrap();
            let x = sq.x + 3 * (9 - s.file() as u16) + 1;
            let y = sq.y + s.rank() as u16 - 1;
            buf[(x, y)].modifier.contains(Modifier::ITALIC)
        };
        (cell(7, 7), cell(7, 6), cell(2, 7))
    };
    assert_eq!(marked(&mut v), (true, true, false));
    key(&mut v.app, 'B');
    assert_eq!(marked(&mut v), (false, false, false));
}

#[test]
fn a_crash_says_so_and_a_restarts_the_engine() {
    let fake = Fake::new(&format!("< go\n{START_INFO}sleep 0.2\nexit 3\n"));
    let mut app = fake.app(study());
    key(&mut app, 'a');
    until(&mut app, "saw the crash", |a| {
        a.research().failure.is_some()
    });
    let msg = app.message().cloned().unwrap();
    assert_eq!(msg.level, Level::Error);
    assert!(msg.text.contains("engine Fake exited"), "{msg:?}");
    assert!(msg.text.contains("a starts it again"), "{msg:?}");
    assert!(!app.research().on);
    let mut v = Viewer::new(app, Theme::plain());
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("検討 エラー (a: restart)"), "{rows}");
    assert!(
        rows.contains("▲７六歩△３四歩▲２六歩"),
        "the last lines stay: {rows}"
    );
    // The script runs again from the start: the engine answers again.
    key(&mut v.app, 'a');
    assert!(v.app.research().on && v.app.research().failure.is_none());
    assert_eq!(
        v.app.message().as_ref().unwrap().text,
        "started Fake again; a stops"
    );
    until(&mut v.app, "lines after the restart", lines_arrived(2));
}

#[test]
fn missing_engines_say_how_to_get_one() {
    let mut app = App::new(study(), RecordSource::untitled("x.kif"), Config::defaults());
    kifview::app::testing::use_engine(&mut app, Some("/nonexistent/engine".into()));
    key(&mut app, 'a');
    let msg = app.message().cloned().unwrap();
    assert_eq!(msg.level, Level::Error);
    assert!(msg.text.contains("/nonexistent/engine"), "{msg:?}");
    assert!(!app.research().on);
    kifview::app::testing::use_engine(&mut app, Some("no-such-engine-x".into()));
    key(&mut app, 'a');
    let msg = app.message().cloned().unwrap();
    assert!(msg.text.contains("no-such-engine-x"), "{msg:?}");
    assert!(
        msg.text.contains("available: ") || msg.text.contains("apt install fairy-stockfish"),
        "{msg:?}"
    );
}

#[test]
fn engine_and_set_commands() {
    let fake = Fake::new(&format!(
        "< go\n{START_INFO}< stop\n> bestmove 7g7f\n< go\n{START_INFO}"
    ));
    let mut app = started(&fake);
    kifview::app::dispatch::typable::run(&mut app, "set MultiPV 2");
    assert!(
        app.message().as_ref().unwrap().text.contains("MultiPV = 2"),
        "{:?}",
        app.message()
    );
    logged(&mut app, &fake, "setoption name MultiPV value 2");
    let gos = |f: &Fake| f.log().iter().filter(|l| l.starts_with("go")).count();
    until(&mut app, "searched again", |_| gos(&fake) == 2);
    kifview::app::dispatch::typable::run(&mut app, "set");
    let list = app.overlays().list().expect("the option list").clone();
    assert!(
        list.items.iter().any(|i| i.starts_with("MultiPV  2")),
        "{:?}",
        list.items
    );
    app.handle_key(KeyEvent::plain(KeyCode::Enter));
    assert_eq!(
        app.overlays().command_line().map(|l| l.text.clone()),
        Some("set MultiPV ".to_string())
    );
    app.handle_key(KeyEvent::plain(KeyCode::Esc));
    kifview::app::dispatch::typable::run(&mut app, "engine");
    let list = app.overlays().list().expect("the engine list").clone();
    assert!(list.items[0].starts_with("* Fake"), "{:?}", list.items);
    app.handle_key(KeyEvent::plain(KeyCode::Esc));
    kifview::app::dispatch::typable::run(&mut app, "engine /nonexistent/x");
    let msg = app.message().cloned().unwrap();
    assert_eq!(msg.level, Level::Error);
    assert!(
        msg.text.contains("/nonexistent/x does not exist"),
        "{msg:?}"
    );
    assert!(app.research().on, "the engine in use stays");
    // Switching to a configured engine by name restarts the analysis with it.
    kifview::app::dispatch::typable::run(&mut app, "engine fake");
    assert!(app.research().on, "{:?}", app.message());
    until(&mut app, "lines from the new engine", lines_arrived(2));
}

#[test]
fn entering_a_move_is_followed_too() {
    let fake = Fake::new(&format!(
        "< go\n{START_INFO}< stop\n> bestmove 7g7f\n< go\n> info depth 1 multipv 1 score cp 10 pv 3c3d\n"
    ));
    let mut app = started(&fake);
    key(&mut app, 'm');
    for c in "5g5f".chars() {
        key(&mut app, c);
    }
    app.handle_key(KeyEvent::plain(KeyCode::Enter));
    assert_eq!(app.record().node(app.cur()).ply, 1, "{:?}", app.message());
    until(&mut app, "the lines after the new move", lines_arrived(1));
    assert_eq!(
        app.research().analysis().unwrap().best().unwrap().japanese,
        "△３四歩"
    );
    let log = logged(&mut app, &fake, "position startpos moves 5g5f");
    assert_eq!(
        log.iter().filter(|l| l.starts_with("go")).count(),
        2,
        "{log:?}"
    );
}

/// The engine sends events (issue 36): started with the run loop's channel connected, its
/// handshake and lines wake the one wait (`Event::Engine`) and handing the events to the app
/// brings the analysis in, the wait otherwise ending only at the deadlines the app asks for
/// (`App::next_look`); once the engine only searches (its lines in, nothing to ask, no
/// reply awaited), nothing asks for a look soon: the loop sleeps until the engine sends
/// again (before, `next_look` asked for a look every 30 ms while the engine ran).
#[test]
fn the_engines_lines_wake_the_loop_and_an_engine_that_only_searches_is_not_polled() {
    use kifview::app::events::Event;
    use kifview::tui::wake::{Wake, Woken};
    let fake = Fake::new(&format!("< go\n{START_INFO}"));
    let mut app = fake.app(study());
    let wake = Wake::new().unwrap();
    app.connect_events(wake.events());
    key(&mut app, 'a');
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut engine_events = 0;
    while !lines_arrived(2)(&app) {
        assert!(
            Instant::now() < deadline,
            "no analysis: {:?}",
            app.message()
        );
        let wait = app.next_look().unwrap_or(Duration::from_secs(30));
        match wake.wait(wait, false) {
            Woken::Event => {
                for ev in wake.take() {
                    engine_events += usize::from(ev == Event::Engine);
                    app.handle_event(ev);
                }
            }
            _ => {
                app.look();
            }
        }
    }
    assert!(engine_events > 0, "the engine sent no event");
    // (A command still being written when asked has its timeout, the handshake's 30 s:
    // not a poll.)
    let look = app.next_look();
    assert!(
        look.is_none_or(|d| d > Duration::from_secs(1)),
        "an engine that only searches is polled: {look:?}"
    );
}
