//! `:analyze` and `:mate` in the viewer, with the scripted fake engine
//! (`tests/fixtures/engines/replay.sh`) and, when installed, gpsusi: progress in the status
//! line, comments as each position finishes, one undo step, cancelling, mate lines inserted.

use kifview::app::testing::push_line;
use kifview::app::{App, KeyCode, KeyEvent, Level, Modifiers};
use kifview::core::notation;
use kifview::core::record::{NodeId, Record};
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;

use crate::common::{screen, screen_rows};
use crate::engine::research::{Fake, key, until};

fn command(app: &mut App, line: &str) {
    key(app, ':');
    for c in line.chars() {
        key(app, c);
    }
    app.handle_key(KeyEvent::new(KeyCode::Enter, Modifiers::default()));
}

/// The screen at 200x60 (colours off; the analysis pane has room of its own), rows joined.
fn rows_of(app: &App) -> String {
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(200, 60)).unwrap();
    let mut vs = kifview::tui::ui::ViewState::default();
    t.draw(|f| {
        let area = f.area();
        kifview::tui::ui::render(area, f.buffer_mut(), app, &Theme::plain(), &mut vs)
    })
    .unwrap();
    screen_rows(&t).join("\n")
}

fn esc(app: &mut App) {
    app.handle_key(KeyEvent::new(KeyCode::Esc, Modifiers::default()));
}

fn game() -> Record {
    let mut r = Record::default();
    push_line(&mut r, NodeId::ROOT, "7g7f 3c3d 2g2f");
    r
}

fn comments(app: &App) -> Vec<String> {
    app.record()
        .main_line()
        .iter()
        .map(|&n| app.record().node(n).comment.clone())
        .collect()
}

fn message(app: &App) -> String {
    app.message()
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

/// One search: `info` with this score (side to move's view) and line, then `bestmove` when
/// stopped (the limit is a time: `go infinite`, then `stop`).
fn search(cp: i32, pv: &str) -> String {
    let best = pv.split(' ').next().unwrap();
    format!("< go\n> info depth 5 nodes 100 score cp {cp} pv {pv}\n< stop\n> bestmove {best}\n")
}

#[test]
fn analyze_writes_every_comment_as_one_undo_step() {
    // Start: +100, the engine wants 2g2f. After ▲７六歩 (not its choice) gote +400 = sente
    // −400: sente lost 20.3 % → 悪手. △３四歩 was the engine's first move: no mark.
    let script = [
        search(100, "2g2f 8c8d"),
        search(400, "3c3d 2g2f"),
        search(-400, "2g2f"),
        search(0, "8c8d"),
    ]
    .concat();
    let fake = Fake::new(&script);
    // The record as read has a comment of the user's on its third move.
    let mut record = game();
    let third = record.main_line()[2];
    record.node_mut(third).comment = "my note".into();
    let mut app = fake.app(record);
    kifview::app::testing::config_mut(&mut app)
        .analysis
        .analyze_time_ms = 20;
    command(&mut app, "analyze");
    assert!(app.job_running(), "{}", message(&app));
    assert!(
        message(&app).starts_with("analysing 3 moves with"),
        "{}",
        message(&app)
    );
    // Progress while it runs.
    until(&mut app, "wrote the first comment", |a| {
        a.record()
            .node(a.record().main_line()[1])
            .comment
            .contains("#評価値")
    });
    let progress = message(&app);
    assert!(
        progress.starts_with("analysing 1/3")
            || progress.starts_with("analysing 2/3")
            || !app.job_running(),
        "{progress}"
    );
    until(&mut app, "finished", |a| !a.job_running());
    assert!(
        message(&app).starts_with("analysed 3 moves, 1 marked"),
        "{}",
        message(&app)
    );
    let c = comments(&app);
    assert!(
        c[0].starts_with("#kifview-analyze limit=movetime:20 multipv=1 plies=1- engine=Fake"),
        "{:?}",
        c[0]
    );
    assert!(
        c[1].starts_with("【悪手】\n") && c[1].contains("#評価値=-400"),
        "{:?}",
        c[1]
    );
    assert!(
        c[2].contains("#評価値=-400") && !c[2].contains('【'),
        "{:?}",
        c[2]
    );
    assert!(
        c[2].ends_with("my note"),
        "the user's line stays: {:?}",
        c[2]
    );
    assert!(c[3].contains("#評価値=0"), "{:?}", c[3]);
    assert!(app.is_modified());
    // One line per position while analysing; research mode's three again after.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let options = |log: Vec<String>| -> Vec<String> {
        log.into_iter()
            .filter(|l| l.starts_with("setoption name MultiPV") || l.starts_with("go"))
            .collect()
    };
    while !options(fake.log())
        .last()
        .is_some_and(|l| l.ends_with("value 3"))
    {
        assert!(std::time::Instant::now() < deadline, "{:?}", fake.log());
        app.research_tick(std::time::Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let o = options(fake.log());
    // (A fresh engine names its options only after the first search is on its way: that
    // one is the start position's, which no comment shows.)
    let one = o.iter().position(|l| l == "setoption name MultiPV value 1");
    let gos: Vec<usize> = (0..o.len()).filter(|&i| o[i].starts_with("go")).collect();
    assert_eq!(gos.len(), 4, "{o:?}");
    assert!(one.is_some_and(|i| i < gos[1]), "{o:?}");
    assert_eq!(o.last().unwrap(), "setoption name MultiPV value 3", "{o:?}");
    // The graph reads them back.
    let mut v = Viewer::new(app, Theme::plain());
    key(&mut v.app, 'E');
    let rows = screen_rows(&screen(&mut v, 80, 24)).join("\n");
    assert!(rows.contains("▲大0悪1疑0緩0"), "{rows}");
    key(&mut v.app, ']');
    assert_eq!(v.app.cur_index(), 1);
    // One undo takes the whole analysis back.
    key(&mut v.app, 'u');
    let c = comments(&v.app);
    assert_eq!(c, vec!["", "", "my note", ""]);
    assert!(!v.app.is_modified());
    v.app.handle_key(KeyEvent::new(
        KeyCode::Char('r'),
        Modifiers {
            ctrl: true,
            ..Modifiers::default()
        },
    ));
    assert!(comments(&v.app)[1].starts_with("【悪手】"));
}

#[test]
fn analyze_is_cancelled_by_esc_and_by_analyze_again() {
    // The first search answers; the second waits for its stop.
    let script = format!(
        "{}< go\n> info depth 5 score cp 10 pv 3c3d\n< stop\n> bestmove 3c3d\n{}",
        search(100, "7g7f"),
        "< go\n> info depth 5 score cp 10 pv 3c3d\n< stop\n> bestmove 3c3d\n"
    );
    let fake = Fake::new(&script);
    let mut app = fake.app(game());
    kifview::app::testing::config_mut(&mut app)
        .analysis
        .analyze_time_ms = 20;
    command(&mut app, "analyze");
    until(&mut app, "second search", |a| {
        a.record()
            .node(a.record().main_line()[1])
            .comment
            .contains("#評価値")
    });
    kifview::app::testing::config_mut(&mut app)
        .analysis
        .analyze_time_ms = 60_000;
    // The pane's title says what runs (issue 21: not `棋譜解析・詰み探索中`).
    let rows = rows_of(&app);
    assert!(rows.contains("検討 棋譜解析中 (Esc: stop)"), "{rows}");
    assert!(!rows.contains("詰み探索"), "{rows}");
    esc(&mut app);
    assert!(!app.job_running());
    let m = message(&app);
    assert!(
        m.starts_with("analysis stopped: ") && m.ends_with("(u undoes them)"),
        "{m}"
    );
    // Research mode refuses to take the engine while a job runs; :analyze again stops it.
    command(&mut app, "analyze");
    assert!(app.job_running(), "{}", message(&app));
    key(&mut app, 'a');
    assert!(!app.research().on);
    assert_eq!(app.message().as_ref().unwrap().level, Level::Error);
    command(&mut app, "analyze");
    assert!(!app.job_running());
    assert!(
        message(&app).starts_with("analysis stopped"),
        "{}",
        message(&app)
    );
}

fn tsume() -> Record {
    let text = "position sfen 7nk/8l/7P1/9/9/9/9/9/9 b G2r2b3g4s3n3l17p 1";
    notation::load(text.as_bytes(), None)
        .records
        .remove(0)
        .record
}

#[test]
fn a_mate_search_that_never_answers_is_reported_at_the_limit_asked_for() {
    // The engine reads go mate and stop and answers neither.
    let fake = Fake::new("< go mate\n");
    let mut app = fake.app(tsume());
    command(&mut app, "mate 2");
    until(&mut app, "the search given up", |a| !a.job_running());
    let m = message(&app);
    assert!(m.contains("did not answer checkmate within 2 s"), "{m}");
    let log = fake.log();
    let go = log.iter().position(|l| l == "go mate 750");
    assert!(go.is_some(), "{log:?}");
    assert!(log[go.unwrap()..].iter().any(|l| l == "stop"), "{log:?}");
}

#[test]
fn mate_found_is_inserted_by_i() {
    let fake = Fake::new(
        "< go mate\n> checkmate G*2b\n< go mate\n> checkmate nomate\n< go mate\n> checkmate timeout\n< go mate\n> checkmate notimplemented\n",
    );
    let mut app = fake.app(tsume());
    command(&mut app, "mate 5");
    assert!(app.job_running(), "{}", message(&app));
    let rows = rows_of(&app);
    assert!(rows.contains("検討 詰み探索中 (Esc: stop)"), "{rows}");
    until(&mut app, "mate found", |a| !a.job_running());
    assert_eq!(message(&app), "詰み 1手: ▲２二金 (I inserts it)");
    assert!(
        // 5 s in all: the engine is told 5 s less the grace and the wait for its answer.
        fake.log().iter().any(|l| l == "go mate 2375"),
        "{:?}",
        fake.log()
    );
    key(&mut app, 'I');
    assert_eq!(app.record().main_line().len(), 2, "{}", message(&app));
    assert!(
        message(&app).starts_with("added: ▲２二金"),
        "{}",
        message(&app)
    );
    key(&mut app, 'u');
    assert_eq!(app.record().main_line().len(), 1);
    for want in [
        "不詰",
        "時間切れ",
        "not supported by this engine (Fake answered checkmate notimplemented)",
    ] {
        command(&mut app, "mate");
        until(&mut app, want, |a| !a.job_running());
        assert_eq!(message(&app), want);
    }
    command(&mut app, "mate x");
    assert!(message(&app).starts_with("give the time in seconds"));
}

#[test]
fn mate_with_gpsusi() {
    let Some(spec) = crate::common::engine_or_skip("gpsusi") else {
        return;
    };
    let mut config = kifview::app::Config::defaults();
    config.engines = vec![spec];
    let mut app = App::new(
        tsume(),
        kifview::app::RecordSource::untitled("t.kif"),
        config,
    );
    // A loaded two-core machine: gpsusi starts slowly (up to the 30 s handshake) and then has
    // its 60 s (a one-move mate comes back at once; with 5 s it timed out under a heavy load);
    // only a failing test waits the whole three minutes.
    command(&mut app, "mate 60");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
    while app.job_running() && std::time::Instant::now() < deadline {
        app.research_tick(std::time::Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        message(&app).starts_with("詰み 1手: ▲２二金"),
        "{}",
        message(&app)
    );
    app.shutdown_engine();
}
