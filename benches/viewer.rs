//! The viewer: one key's update plus one frame's render, on a 68,000-node study drawn into a
//! 160x48 `TestBackend` (the work per key must not grow with the record).
//!
//! Each benchmark times only the key and the frame after it; putting the cursor back where
//! the key can act again (at the end of the line for `l`, say) is not timed.
//!
//! `l_analysing` is `l` with research mode on: a fake engine (a shell script answering every
//! `go` with three `info` lines at once) runs, and each key also runs what the run loop runs
//! after a key (`research_tick`: poll the engine, follow the cursor after the debounce); the
//! frame draws the analysis pane. (Checking and writing the engine's lines in Japanese is
//! measured in `benches/engine.rs`.)
//!
//! `l_explorer` is `l` with the explorer pane open (`x`) on a generated collection of 100,000
//! games (`KIFVIEW_BENCH_EXPLORER_GAMES` changes the number; made with `benches/support/collgen.rs`
//! and indexed before timing), in one of its games (group `viewer_explorer`): the key, the
//! app's `collection_tick` (asking the worker thread for the new position, taking an answer
//! that came) and the frame; the query itself runs on the worker, off the key path. Positions
//! seen before answer from the app's cache, as they do for a user stepping back and forth.
//!
//! `recovery_copy` is what the periodic recovery snapshot costs the UI thread when a write is
//! due: the copy of the record handed to the keeper's thread (which renders and writes it).
//! The copy shares the record's nodes (`core::record::Nodes`: one reference per chunk of 128
//! nodes, the last chunk cloned), so it must stay far under a key's 1 ms; `edit_after_a_snapshot`
//! is what that sharing costs the next edit (the written node's chunk cloned), next to `edit`
//! with nothing shared, and `node_access` (68,000 reads by id) what reading through the chunks
//! costs the key path.
//!
//! `search` and its kin are `/`, a query and Enter: a search reads the whole record by its
//! nature, so it grows with the record; it has to stay well under 50 ms here.
//!
//! `library_open`, `library_open_key`, `library_page_down` and `library_j` (group
//! `viewer_library`): the library on the same generated collection (see `library`). `KIFVIEW_BENCH_COLLECTION_INDEX=IDX`
//! uses an index made before for both instead of generating one.
//!
//! `l_book` (group `viewer_book`): `l` with the book pane open on a generated book of about a
//! million positions (see `book`).
//!
//! Run: `cargo bench --bench viewer`. The medians are in
//! `target/criterion/viewer_68k/<key>/new/estimates.json` (`median.point_estimate`, ns).

use criterion::{Criterion, criterion_group, criterion_main};
use kifview::app::config::MoveNotation;
use kifview::app::testing;
use kifview::app::{App, Config, KeyCode, KeyEvent, Mode, RecordSource};
use kifview::core::record::{Edit, NodeId};
use kifview::engine::EngineSpec;
use kifview::tui::Viewer;
use kifview::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::{Duration, Instant};

#[path = "support/collgen.rs"]
mod collgen;

#[path = "support/randgen.rs"]
#[allow(dead_code)]
mod randgen;
use randgen::{Rng, big_study};

struct Bench {
    v: Viewer,
    term: Terminal<TestBackend>,
    /// Research mode is on: tick the app after each key, as the run loop does.
    tick: bool,
    /// Edits made so far (`Bench::edit`).
    edits: u64,
    /// The explorer is open: tick the collection after each key, as the run loop does.
    explore: bool,
}

/// A fake USI engine that answers at once: three lines per `go`, `bestmove` on `stop`.
const FAKE_ENGINE: &str = r#"while IFS= read -r l; do
  case $l in
    usi) echo "id name BenchFake"; echo "option name MultiPV type spin default 1 min 1 max 10"; echo usiok ;;
    isready) echo readyok ;;
    go*) for i in 1 2 3; do echo "info depth 20 seldepth 31 nodes 123456789 nps 401234 hashfull 512 multipv $i score cp $((100 - i * 37)) pv 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d 2b8h+ 7i8h B*2b"; done ;;
    stop) echo "bestmove resign" ;;
    quit) exit 0 ;;
  esac
done"#;

impl Bench {
    fn new() -> Bench {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let study = big_study(&mut rng, 68_000);
        eprintln!("viewer bench: a study of {} nodes, 160x48", study.len());
        let app = App::new(
            study,
            RecordSource::untitled("study.kifu"),
            Config::defaults(),
        );
        Bench::with_app(app)
    }
    fn with_app(app: App) -> Bench {
        let mut b = Bench {
            v: Viewer::new(app, Theme::plain()),
            term: Terminal::new(TestBackend::new(160, 48)).expect("test backend"),
            tick: false,
            edits: 0,
            explore: false,
        };
        b.frame();
        b
    }
    fn key(&mut self, c: char) {
        self.v.app.handle_key(KeyEvent::char(c));
        if self.tick {
            self.v.app.research_tick(Instant::now());
        }
        if self.explore {
            self.v.app.collection_tick();
        }
    }
    /// Starts research mode with the fake engine and waits for its first lines.
    fn start_analysis(&mut self) {
        let mut spec = EngineSpec::new("/bin/sh");
        spec.name = "BenchFake".into();
        spec.args = vec!["-c".into(), FAKE_ENGINE.into()];
        testing::config_mut(&mut self.v.app).engines = vec![spec];
        self.key('a');
        self.tick = true;
        let deadline = Instant::now() + Duration::from_secs(10);
        while self
            .v
            .app
            .research()
            .analysis()
            .is_none_or(|a| a.lines.len() != 3)
        {
            assert!(Instant::now() < deadline, "the fake engine never answered");
            std::thread::sleep(Duration::from_millis(5));
            self.v.app.research_tick(Instant::now());
        }
        self.frame();
    }
    /// An edit of the record (a comment of the start position, through the history as the
    /// comment editor makes it): every cache of the record is built again after it.
    fn edit(&mut self) {
        self.edits += 1;
        let text = format!("edit {}", self.edits % 2);
        testing::apply(
            &mut self.v.app,
            Edit::SetComment {
                node: NodeId::ROOT,
                text,
            },
        )
        .expect("the start position takes a comment");
    }
    /// A frame as the run loop makes it: drawn, then its sizes handed to the app when they
    /// changed (the library's rows shown).
    fn frame(&mut self) {
        self.term.draw(|f| self.v.draw(f)).expect("draw");
        self.v.hand_over_sizes();
    }
    /// Times `iters` presses of `c` (each with its frame); `reset` runs untimed before a
    /// press when `needs_reset` says the key can no longer act.
    fn time(
        &mut self,
        iters: u64,
        c: char,
        needs_reset: impl Fn(&App) -> bool,
        reset: impl Fn(&mut Bench),
    ) -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            if needs_reset(&self.v.app) {
                reset(self);
                self.frame();
            }
            let t = Instant::now();
            self.key(c);
            self.frame();
            total += t.elapsed();
        }
        total
    }
}

/// The node with the most alternatives (where `j`/`k` have the most to switch between).
fn widest_fork(app: &App) -> NodeId {
    let r = app.record();
    r.preorder()
        .into_iter()
        .max_by_key(|&id| r.node(id).children.len())
        .unwrap_or(NodeId::ROOT)
}

fn benches(c: &mut Criterion) {
    let mut b = Bench::new();
    let fork = widest_fork(&b.v.app);
    let mut g = c.benchmark_group("viewer_68k");
    g.sample_size(50).measurement_time(Duration::from_secs(3));

    let at_end = |a: &App| a.cur_index() + 1 == a.line().len();
    g.bench_function("l", |bn| {
        bn.iter_custom(|n| b.time(n, 'l', at_end, |b| b.key('g')))
    });
    g.bench_function("h", |bn| {
        bn.iter_custom(|n| b.time(n, 'h', |a| a.cur_index() == 0, |b| b.key('G')))
    });
    // What the periodic recovery snapshot costs the UI thread when a write is due
    // (`Keeper::tick` through `App::recovery_tick`): a copy of the whole record for the
    // keeper's thread, which renders and writes it. The write itself is not made here (it
    // would go to the user's data folder and queue a copy per iteration).
    g.bench_function("recovery_copy", |bn| {
        bn.iter(|| std::hint::black_box(Box::new(b.v.app.record().clone())))
    });
    // An edit (a comment of the start position, as the comment editor makes it) and its
    // frame; `edit_after_a_snapshot` is the same edit while a recovery copy taken just before
    // is still held (as the keeper's thread holds one until it is written): what writing into
    // a record that shares its nodes with a copy costs the key.
    g.bench_function("edit", |bn| {
        bn.iter_custom(|n| {
            let mut total = Duration::ZERO;
            for _ in 0..n {
                let t = Instant::now();
                b.edit();
                b.frame();
                total += t.elapsed();
            }
            total
        })
    });
    g.bench_function("edit_after_a_snapshot", |bn| {
        bn.iter_custom(|n| {
            let mut total = Duration::ZERO;
            for _ in 0..n {
                let held = Box::new(b.v.app.record().clone());
                let t = Instant::now();
                b.edit();
                b.frame();
                total += t.elapsed();
                drop(std::hint::black_box(held));
            }
            total
        })
    });
    // Every node of the record read by its id once (the way the key path reads nodes): the
    // median divided by the node count is what one node access costs.
    g.bench_function("node_access", |bn| {
        let r = b.v.app.record();
        let n = r.len() as u32;
        bn.iter(|| {
            let mut sum = 0u64;
            for i in 0..n {
                sum += u64::from(r.node(NodeId(i)).ply);
            }
            std::hint::black_box(sum)
        })
    });
    // j and k switch between the alternatives of the widest fork (the line below changes).
    let first_child = |b: &mut Bench| {
        let first = b.v.app.record().node(fork).children[0];
        b.v.app.jump_to(first);
    };
    let last_child = |b: &mut Bench| {
        let last = *b.v.app.record().node(fork).children.last().expect("a fork");
        b.v.app.jump_to(last);
    };
    let sibling = |a: &App| a.record().sibling_index(a.cur());
    let count = |a: &App| a.record().node(fork).children.len();
    first_child(&mut b);
    g.bench_function("j", |bn| {
        bn.iter_custom(|n| {
            b.time(
                n,
                'j',
                |a| a.record().node(a.cur()).parent != Some(fork) || sibling(a) + 1 == count(a),
                first_child,
            )
        })
    });
    g.bench_function("k", |bn| {
        bn.iter_custom(|n| {
            b.time(
                n,
                'k',
                |a| a.record().node(a.cur()).parent != Some(fork) || sibling(a) == 0,
                last_child,
            )
        })
    });
    // l and j with the move list in KI2 notation (`v`): each visible row's text needs the
    // position before it.
    testing::config_mut(&mut b.v.app).move_notation = MoveNotation::Ki2;
    g.bench_function("l_ki2", |bn| {
        bn.iter_custom(|n| b.time(n, 'l', at_end, |b| b.key('g')))
    });
    first_child(&mut b);
    g.bench_function("j_ki2", |bn| {
        bn.iter_custom(|n| {
            b.time(
                n,
                'j',
                |a| a.record().node(a.cur()).parent != Some(fork) || sibling(a) + 1 == count(a),
                first_child,
            )
        })
    });
    testing::config_mut(&mut b.v.app).move_notation = MoveNotation::Kif;
    g.bench_function("G", |bn| {
        bn.iter_custom(|n| b.time(n, 'G', |a| a.cur_index() != 0, |b| b.key('g')))
    });
    g.bench_function("g", |bn| {
        bn.iter_custom(|n| b.time(n, 'g', |a| a.cur_index() == 0, |b| b.key('G')))
    });
    // l with research mode on (the analysis pane drawn, the engine polled after each key).
    b.start_analysis();
    g.bench_function("l_analysing", |bn| {
        bn.iter_custom(|n| b.time(n, 'l', at_end, |b| b.key('g')))
    });
    b.key('a');
    b.tick = false;
    b.v.app.shutdown_engine();
    // t opens the tree (its outline is kept, and updated where the tree's shape changed).
    let tree_open = |a: &App| a.mode() == Mode::Tree;
    g.bench_function("t", |bn| {
        bn.iter_custom(|n| b.time(n, 't', tree_open, |b| b.key('t')))
    });
    // The first t after an edit of a comment: the outline is kept (the tree's shape is the
    // same).
    g.bench_function("t_after_an_edit", |bn| {
        bn.iter_custom(|n| {
            b.time(
                n,
                't',
                |_| true,
                |b| {
                    if b.v.app.mode() == Mode::Tree {
                        b.key('t');
                    }
                    b.edit();
                },
            )
        })
    });
    // The first t after an edit of the tree's shape (the root's last branch taken off, then
    // put back): the outline is updated (the branches of that branch walked, the rows after
    // it shifted), not built again from all 68,000 nodes; a comment (above) keeps it.
    let last =
        *b.v.app
            .record()
            .node(NodeId::ROOT)
            .children
            .last()
            .expect("a fork");
    let index = b.v.app.record().node(NodeId::ROOT).children.len() - 1;
    let detached = std::cell::Cell::new(false);
    g.bench_function("t_after_a_new_shape", |bn| {
        bn.iter_custom(|n| {
            b.time(
                n,
                't',
                |_| true,
                |b| {
                    if b.v.app.mode() == Mode::Tree {
                        b.key('t');
                    }
                    let edit = if detached.get() {
                        Edit::Reattach {
                            node: last,
                            parent: NodeId::ROOT,
                            index,
                        }
                    } else {
                        Edit::Detach { node: last }
                    };
                    testing::apply(&mut b.v.app, edit).expect("the root's last branch");
                    detached.set(!detached.get());
                },
            )
        })
    });
    if detached.get() {
        let put_back = Edit::Reattach {
            node: last,
            parent: NodeId::ROOT,
            index,
        };
        testing::apply(&mut b.v.app, put_back).expect("the root's last branch");
    }
    // Scrolling the open tree a row down (back to the top when at the bottom).
    if b.v.app.mode() != Mode::Tree {
        b.key('t');
    }
    let rows = b.v.app.outline().rows.len();
    g.bench_function("tree_scroll_j", |bn| {
        bn.iter_custom(|n| {
            b.time(
                n,
                'j',
                |a| a.overlays().tree_selected().is_none_or(|s| s + 1 >= rows),
                |b| {
                    if b.v.app.mode() != Mode::Tree {
                        b.key('t');
                    }
                    b.v.app.handle_key(KeyEvent::plain(KeyCode::Home));
                },
            )
        })
    });
    // `/`, the query and Enter (one frame, after Enter): the whole tree's moves, comments and
    // bookmarks searched, and the cursor taken to the first match. The moves' searchable
    // forms are built on the first search after each change of the record
    // (`search_after_an_edit`); KI2's relative forms (`58金右`) need the position before every
    // move and are built when a query first names 右 左 上 引 寄 直 (`search_ki2_after_an_edit`).
    if b.v.app.mode() == Mode::Tree {
        b.key('t');
    }
    b.key('g');
    let search = |b: &mut Bench, q: &str| {
        for c in std::iter::once('/').chain(q.chars()) {
            b.v.app.handle_key(KeyEvent::char(c));
        }
        b.v.app.handle_key(KeyEvent::plain(KeyCode::Enter));
        b.frame();
    };
    let time_search = |b: &mut Bench, n: u64, q: &str, edit: bool| {
        let mut total = Duration::ZERO;
        for _ in 0..n {
            if edit {
                b.edit();
            }
            let t = Instant::now();
            search(b, q);
            total += t.elapsed();
        }
        total
    };
    search(&mut b, "同歩");
    g.bench_function("search", |bn| {
        bn.iter_custom(|n| time_search(&mut b, n, "同歩", false))
    });
    g.bench_function("search_comment", |bn| {
        bn.iter_custom(|n| time_search(&mut b, n, "形勢", false))
    });
    g.bench_function("search_after_an_edit", |bn| {
        bn.iter_custom(|n| time_search(&mut b, n, "同歩", true))
    });
    g.bench_function("search_ki2_after_an_edit", |bn| {
        bn.iter_custom(|n| time_search(&mut b, n, "58金右", true))
    });
    // n: the next match of 同歩 (the line switched into a variation when it is in one).
    search(&mut b, "同歩");
    g.bench_function("n", |bn| {
        bn.iter_custom(|n| b.time(n, 'n', |_| false, |_| {}))
    });
    g.finish();
}

/// The seed of game `i` (as `benches/collection.rs` makes them).
fn rng_for(i: usize) -> collgen::Rng {
    let mut z = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    collgen::Rng((z ^ (z >> 27)) | 1)
}

/// The generated collection of the explorer and library benches (made and indexed once):
/// its temp folder and its index.
fn collection() -> &'static (tempfile::TempDir, std::path::PathBuf) {
    static MADE: std::sync::OnceLock<(tempfile::TempDir, std::path::PathBuf)> =
        std::sync::OnceLock::new();
    MADE.get_or_init(make_collection)
}

fn make_collection() -> (tempfile::TempDir, std::path::PathBuf) {
    // An index made before (`kifview index /tmp/c100k --index IDX`): generating and indexing
    // 100,000 games takes minutes idle and half an hour under load.
    if let Some(idx) = std::env::var_os("KIFVIEW_BENCH_COLLECTION_INDEX") {
        return (tempfile::tempdir().expect("temp dir"), idx.into());
    }
    let games: usize = std::env::var("KIFVIEW_BENCH_EXPLORER_GAMES")
        .map_or(100_000, |s| s.parse().expect("a number"));
    let dir = tempfile::tempdir().expect("temp dir");
    let coll = dir.path().join("coll");
    std::fs::create_dir_all(&coll).expect("create dir");
    let t = Instant::now();
    // On every core (the games replay their moves: 25 minutes on one loaded core for
    // 100,000), each file the same as one at a time.
    let files: Vec<usize> = (0..games.div_ceil(1000)).collect();
    kifview::pool::map_in_order(&files, |&f| {
        let recs: Vec<_> = (f * 1000..((f + 1) * 1000).min(games))
            .map(|i| collgen::game(&mut rng_for(i), 40))
            .collect();
        std::fs::write(coll.join(format!("m{f:04}.csa")), collgen::multi_csa(&recs))
            .expect("write");
    });
    let idx = dir.path().join("idx");
    kifview::collection::update(&idx, &[coll], Default::default(), &|_, _| {}).expect("index");
    eprintln!(
        "explorer bench: {games} games generated and indexed in {:.1?}",
        t.elapsed()
    );
    (dir, idx)
}

/// `l` with the explorer open on a generated collection (see the module docs).
fn explorer(c: &mut Criterion) {
    let (dir, idx) = collection();
    let study = dir.path().join("study.csa");
    let game = collgen::game(&mut rng_for(0), 40);
    std::fs::write(
        &study,
        collgen::bytes(&game, kifview::core::notation::Format::Csa, false),
    )
    .expect("write");
    let opts = kifview::app::LaunchOptions {
        file: Some(study),
        index: Some(idx.clone()),
        ..Default::default()
    };
    let app = App::open(&opts, Config::defaults()).expect("open");
    let mut b = Bench::with_app(app);
    b.key('x');
    b.explore = true;
    b.v.app.collection_settle();
    b.frame();
    let mut g = c.benchmark_group("viewer_explorer");
    g.sample_size(50).measurement_time(Duration::from_secs(3));
    let at_end = |a: &App| a.cur_index() + 1 == a.line().len();
    g.bench_function("l_explorer", |bn| {
        bn.iter_custom(|n| b.time(n, 'l', at_end, |b| b.key('g')))
    });
    g.finish();
}

/// The library (`kifview --index IDX`) on the generated collection (group `viewer_library`):
/// `library_open` is the launch until the list is shown (the ordered ids computed on the
/// lister thread, the first page's rows, the frame); `library_open_key` is `O` pressed in a
/// game shown in the viewer with the index not open yet, until the first frame with rows
/// (the lister's ordered ids and the first page's rows, waited for on their channel rather
/// than polled as the run loop does); `library_page_down` and `library_j` a key in the list
/// with what the run loop runs after it (`collection_tick`: the rows fetched ahead taken,
/// the rows shown fetched by id when missing) and the frame, from the top to the bottom of
/// 100,000 rows.
fn library(c: &mut Criterion) {
    let (dir, idx) = collection();
    let opts = kifview::app::LaunchOptions {
        index: Some(idx.clone()),
        ..Default::default()
    };
    let open = || {
        let mut b = Bench::with_app(App::open(&opts, Config::defaults()).expect("open"));
        until_rows(&mut b);
        b
    };
    let mut g = c.benchmark_group("viewer_library");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("library_open", |bn| bn.iter(open));
    let game = dir.path().join("library-game.csa");
    let record = collgen::game(&mut rng_for(0), 40);
    let bytes = collgen::bytes(&record, kifview::core::notation::Format::Csa, false);
    std::fs::write(&game, bytes).expect("write");
    let in_game = kifview::app::LaunchOptions {
        file: Some(game),
        ..opts.clone()
    };
    g.bench_function("library_open_key", |bn| {
        bn.iter_batched(
            || Bench::with_app(App::open(&in_game, Config::defaults()).expect("open")),
            |mut b| {
                b.v.app.handle_key(KeyEvent::char('O'));
                until_rows(&mut b);
                b
            },
            criterion::BatchSize::PerIteration,
        )
    });
    let mut b = open();
    b.v.app.library_settle();
    g.sample_size(50).measurement_time(Duration::from_secs(3));
    let at_end = |a: &App| {
        a.library()
            .is_some_and(|l| l.selected() + 1 == l.ids().len())
    };
    for (name, key) in [
        ("library_page_down", KeyEvent::plain(KeyCode::PageDown)),
        ("library_j", KeyEvent::char('j')),
    ] {
        g.bench_function(name, |bn| {
            bn.iter_custom(|n| {
                let mut total = Duration::ZERO;
                for _ in 0..n {
                    if at_end(&b.v.app) {
                        b.v.app.handle_key(KeyEvent::char('g'));
                        b.v.app.collection_tick();
                        b.frame();
                    }
                    let t = Instant::now();
                    b.v.app.handle_key(key);
                    b.v.app.collection_tick();
                    b.frame();
                    total += t.elapsed();
                }
                total
            })
        });
    }
    g.finish();
}

/// Ticks the library (as the run loop does while it is busy, but every 0.1 ms) until its
/// first rows are there, then draws the frame that shows them.
fn until_rows(b: &mut Bench) {
    let shown = |a: &App| {
        a.library()
            .is_some_and(|l| (l.ids().get(l.selected())).is_some_and(|&id| l.row(id).is_some()))
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while !shown(&b.v.app) {
        assert!(Instant::now() < deadline, "the list never came");
        std::thread::sleep(Duration::from_micros(100));
        b.v.app.collection_tick();
    }
    b.frame();
    assert!(b.v.app.library().is_some_and(|l| l.ids().len() > 1000));
}

/// `l_book` (group `viewer_book`): `l` with the book pane shown (`--book`) on a book
/// generated from 25,000 games (their main lines' positions, plies 1–40: about a million
/// positions, `KIFVIEW_BENCH_BOOK_GAMES` changes the number), in one of those games, whose every
/// position is in the book: each key looks its position up (the rows of the last position
/// only are kept) and draws the pane. `KIFVIEW_BENCH_BOOK=FILE` uses a book made before.
fn book(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let book_path = match std::env::var_os("KIFVIEW_BENCH_BOOK") {
        Some(p) => std::path::PathBuf::from(p),
        None => {
            let games: usize = std::env::var("KIFVIEW_BENCH_BOOK_GAMES")
                .map_or(25_000, |s| s.parse().expect("a number"));
            let t = Instant::now();
            let mut b = kifview::book::build::Builder::new(kifview::book::build::Options {
                plies: (1, 40),
                ..Default::default()
            });
            for i in 0..games {
                let g = collgen::game(&mut rng_for(i), 40);
                let moves: Vec<_> = g
                    .main_line()
                    .into_iter()
                    .filter_map(|id| g.node(id).move_data().map(|m| m.mv))
                    .collect();
                let _ = b.add_game(&g.initial.position, &moves, &[]);
            }
            let built = b.finish();
            let n = built.positions.len();
            let path = dir.path().join("bench.db");
            built
                .save_new(&path, kifview::book::Format::YaneuraOu, false)
                .expect("book written");
            eprintln!(
                "book bench: {n} positions from {games} games in {:.1?}",
                t.elapsed()
            );
            path
        }
    };
    let study = dir.path().join("study.csa");
    let game = collgen::game(&mut rng_for(0), 40);
    std::fs::write(
        &study,
        collgen::bytes(&game, kifview::core::notation::Format::Csa, false),
    )
    .expect("write");
    let t = Instant::now();
    let opts = kifview::app::LaunchOptions {
        file: Some(study),
        books: vec![book_path],
        ..Default::default()
    };
    let app = App::open(&opts, Config::defaults()).expect("open");
    eprintln!(
        "book bench: the viewer opened with the book in {:.1?}",
        t.elapsed()
    );
    let mut b = Bench::with_app(app);
    assert!(b.v.app.books().shown());
    let mut g = c.benchmark_group("viewer_book");
    g.sample_size(50).measurement_time(Duration::from_secs(3));
    let at_40 = |a: &App| a.cur_index() >= 40 || a.cur_index() + 1 == a.line().len();
    g.bench_function("l_book", |bn| {
        bn.iter_custom(|n| b.time(n, 'l', at_40, |b| b.key('g')))
    });
    g.finish();
}

criterion_group!(viewer, benches, explorer, library, book);
criterion_main!(viewer);
