//! Game analysis: an engine judges every move of a record; the results go into the comments
//! in ShogiHome's format, so that ShogiHome draws its graph from kifview's files and kifview
//! from ShogiHome's.
//!
//! Layered above `core` and `engine`, below `app`. Parts:
//!
//! - [`comment`]: the comment lines, move-quality marks (`【悪手】` …), replacing an earlier
//!   analysis while keeping the user's lines.
//! - [`evals`]: the evaluations a record's comments already hold (kifview, ShogiHome,
//!   ShogiGUI, Floodgate, KShogi), per main-line ply, for the graph; a per-side summary.
//! - [`game`]: one record: the searches to run ([`Plan`]) and the blocking runner.
//! - [`batch`]: `kifview analyze` over files and folders: shards, parallel engines, skipping,
//!   a summary.
//! - [`output`]: formats, encodings and the one function that writes a file.
//! - [`mate`]: USI `go mate`.
//! - [`progress`]: a batch at a terminal: the progress bar, standard output and Ctrl-C.
//!
//! The viewer's `:analyze` drives a [`Plan`] itself, one search per step from its event loop:
//!
//! ```no_run
//! use kifview::analyze::{Options, Plan, Searched};
//! # fn f(record: &mut kifview::core::record::Record, eng: &mut kifview::engine::Engine) {
//! let mut plan = Plan::new(record, &Options::default());
//! for i in 0..plan.len() {
//!     let result = match plan.mated_here(i) {
//!         Some(r) => r,
//!         None => {
//!             eng.search(plan.request(i)).unwrap();
//!             // … poll until EngineEvent::SearchDone, then:
//!             Searched::from_analysis(eng.analysis(), &eng.info().name)
//!         }
//!     };
//!     if let Some((node, comment, _mark)) = plan.finish(record, i, result) {
//!         record.node_mut(node).comment = comment; // one undo step: collect these instead
//!     }
//! }
//! # }
//! ```

pub mod batch;
pub mod comment;
pub mod evals;
pub mod game;
pub mod mate;
pub mod output;
pub mod progress;

pub use batch::{Batch, FileResult, Shard, Summary};
pub use comment::{Mark, MarkConfig};
pub use evals::{Eval, Evaluator, PlyEval, SideSummary, main_line_evals, parse_comment, summary};
pub use game::{DEFAULT_LIMIT, Options, Plan, Searched, analyse_record};
pub use mate::{MateResult, mate_search};
pub use output::Output;
