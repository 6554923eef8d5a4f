//! Analysing one record: which positions to search, and the comment each search gives.
//!
//! [`Plan`] is driven by its owner: the batch runner ([`analyse_record`], blocking) or the
//! viewer (one search at a time from its event loop, writing each comment as it comes).

use super::comment::{self, Mark, MarkConfig, replace_analysis};
use crate::core::record::{NodeId, Record};
use crate::core::rules::{Color, Move, Position};
use crate::engine::{
    Analysis, Engine, EngineError, EngineEvent, Limit, Score, SearchEnd, SearchRequest,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What to analyse and how.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub limit: Limit,
    /// Lines per position (the engine's `MultiPV`); the first is the evaluation.
    pub multipv: u32,
    /// First ply whose comment is written (1 = the first move).
    pub from: u32,
    /// Last ply written; None: the end of the main line.
    pub to: Option<u32>,
    pub marks: MarkConfig,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            limit: DEFAULT_LIMIT,
            multipv: 1,
            from: 1,
            to: None,
            marks: MarkConfig::default(),
        }
    }
}

/// One second per position, as `go infinite` then `stop`: every engine takes it (gpsusi aborts
/// on `go nodes`, `go depth` and `go movetime`).
pub const DEFAULT_LIMIT: Limit = Limit::Time(Duration::from_secs(1));

/// The limit in words, as the `#kifview-analyze` line records it: `nodes:100000`,
/// `movetime:1000`, `depth:20`.
pub fn limit_text(limit: Limit) -> String {
    match limit {
        Limit::Nodes(n) => format!("nodes:{n}"),
        Limit::Depth(d) => format!("depth:{d}"),
        Limit::Time(t) | Limit::MoveTime(t) | Limit::Byoyomi(t) => {
            format!("movetime:{}", t.as_millis())
        }
        Limit::Infinite | Limit::Clock { .. } => "infinite".to_string(),
        Limit::Mate(_) => "mate".to_string(),
    }
}

/// The start position's line that says how the record was analysed:
/// `#kifview-analyze limit=nodes:100000 multipv=1 plies=1- engine=NAME`.
pub fn marker(opts: &Options, engine: &str) -> String {
    let to = opts.to.map(|t| t.to_string()).unwrap_or_default();
    format!(
        "{}limit={} multipv={} plies={}-{to} engine={}",
        comment::MARKER_PREFIX,
        limit_text(opts.limit),
        opts.multipv,
        opts.from,
        crate::engine::clean(engine).trim()
    )
}

/// The engine's name as analyses write it (`#エンジン=`, the marker): every file format and
/// encoding can hold it. What is unsafe for a terminal goes (`engine::clean`: U+202E would
/// turn the rest of a line around on screen), and a character Shift_JIS has no code for
/// (`É`) becomes `?`: a name never fails a file. The viewer's `:analyze` and `kifview
/// analyze` both write this.
pub fn written_name(name: &str) -> String {
    let clean = crate::engine::clean(name);
    let fits = |c: char| {
        let mut b = [0u8; 4];
        !encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut b)).2
    };
    clean
        .chars()
        .map(|c| if fits(c) { c } else { '?' })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The record's `#kifview-analyze` line, if it has one.
pub fn recorded_marker(record: &Record) -> Option<&str> {
    record
        .node(NodeId::ROOT)
        .comment
        .split('\n')
        .find(|l| l.starts_with(comment::MARKER_PREFIX))
        .map(str::trim_end)
}

/// Puts `marker` on the start position (replacing an older one).
pub fn set_marker(record: &mut Record, marker: &str) {
    let root = record.node_mut(NodeId::ROOT);
    root.comment = with_marker(&root.comment, marker);
}

/// `comment` with `marker` as its first line (replacing an older one).
pub fn with_marker(comment: &str, marker: &str) -> String {
    let kept: Vec<&str> = comment
        .split('\n')
        .filter(|l| !l.starts_with(comment::MARKER_PREFIX))
        .collect();
    let rest = kept.join("\n");
    if rest.is_empty() {
        marker.to_string()
    } else {
        format!("{marker}\n{rest}")
    }
}

/// What one search found, reduced to what comments and marks need.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    /// From sente's side.
    pub score: Option<Score>,
    /// The engine's first move (to tell whether the game move was its choice).
    pub first_move: Option<Move>,
    /// The comment lines (no mark).
    pub block: String,
}

impl Searched {
    /// From a finished search: the best line in ShogiHome's format, then `#候補N=` lines.
    pub fn from_analysis(a: &Analysis, engine: &str) -> Searched {
        Searched::from_analysis_upto(a, engine, u32::MAX)
    }

    /// [`Searched::from_analysis`] with the lines the search asked for only (`multipv`): an
    /// engine that sends `multipv 999999` unasked gets no `#候補999999=` line.
    pub fn from_analysis_upto(a: &Analysis, engine: &str, multipv: u32) -> Searched {
        let Some(best) = a.best() else {
            return Searched {
                score: None,
                first_move: match a.outcome {
                    Some(SearchEnd::BestMove { mv, .. }) => Some(mv),
                    _ => None,
                },
                block: String::new(),
            };
        };
        let mut block = a.comment(best, Some(engine));
        for line in a.lines.iter().skip(1).filter(|l| l.multipv <= multipv) {
            let score = line.score.map(Score::text).unwrap_or_default();
            let pv = crate::core::notation::ki2::line_text(&a.position, &line.pv.moves, None);
            block.push_str(&format!("#候補{}={score} {pv}\n", line.multipv));
        }
        Searched {
            score: best.score,
            first_move: best.first_move(),
            block,
        }
    }

    /// A position with no legal move: the side to move is mated (no engine needed).
    pub fn mated(to_move: Color) -> Searched {
        let score = Score::Mate {
            plies: Some(0),
            sente_wins: to_move == Color::White,
        };
        Searched {
            score: Some(score),
            first_move: None,
            block: comment::score_lines(score),
        }
    }
}

/// One position to search.
#[derive(Clone, Debug)]
struct Step {
    node: NodeId,
    ply: u32,
    /// The main-line moves from the start to this position.
    moves: Vec<Move>,
    /// Its comment is written (false for the position before `from`, searched for the mark).
    write: bool,
}

/// The searches of one record's analysis, in main-line order.
#[derive(Clone, Debug)]
pub struct Plan {
    root: Position,
    steps: Vec<Step>,
    results: Vec<Option<Searched>>,
    opts: Options,
}

impl Plan {
    /// How many lines each search asks for.
    pub fn multipv(&self) -> u32 {
        self.opts.multipv
    }

    /// Every main-line move from `opts.from` to `opts.to` (special endings are not moves), and
    /// the position before the first of them (its evaluation decides the first mark).
    pub fn new(record: &Record, opts: &Options) -> Plan {
        let mut steps = Vec::new();
        let mut moves = Vec::new();
        let from = opts.from.max(1);
        let to = opts.to.unwrap_or(u32::MAX);
        let mut consider = |node: NodeId, ply: u32, moves: &Vec<Move>| {
            if ply + 1 >= from && ply <= to {
                steps.push(Step {
                    node,
                    ply,
                    moves: moves.clone(),
                    write: ply >= from,
                });
            }
        };
        consider(NodeId::ROOT, 0, &moves);
        for id in record.main_line().into_iter().skip(1) {
            let node = record.node(id);
            let Some(md) = node.move_data() else { break };
            moves.push(md.mv);
            consider(id, node.ply, &moves);
        }
        let n = steps.len();
        Plan {
            root: record.initial.position.clone(),
            steps,
            results: vec![None; n],
            opts: opts.clone(),
        }
    }

    /// How many searches.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// How many comments it writes.
    pub fn writes(&self) -> usize {
        self.steps.iter().filter(|s| s.write).count()
    }

    /// The node of step `i`.
    pub fn node(&self, i: usize) -> NodeId {
        self.steps[i].node
    }

    /// The ply of step `i`.
    pub fn ply(&self, i: usize) -> u32 {
        self.steps[i].ply
    }

    /// The search of step `i`.
    pub fn request(&self, i: usize) -> SearchRequest {
        SearchRequest {
            root: self.root.clone(),
            moves: self.steps[i].moves.clone(),
            limit: self.opts.limit,
        }
    }

    /// The position of step `i`, when the side to move has no legal move (no search then).
    pub fn mated_here(&self, i: usize) -> Option<Searched> {
        let mut p = self.root.clone();
        for &mv in &self.steps[i].moves {
            p.play_unchecked(mv)?;
        }
        p.legal_moves()
            .is_empty()
            .then(|| Searched::mated(p.side_to_move()))
    }

    /// Takes step `i`'s result; returns the node and its new comment when step `i` is
    /// written (its mark judged against step `i - 1`).
    pub fn finish(
        &mut self,
        record: &Record,
        i: usize,
        result: Searched,
    ) -> Option<(NodeId, String, Option<Mark>)> {
        self.results[i] = Some(result);
        let step = &self.steps[i];
        if !step.write {
            return None;
        }
        let now = self.results[i].as_ref()?;
        let mark = i
            .checked_sub(1)
            .and_then(|p| self.results[p].as_ref())
            .and_then(|prev| {
                let played = *step.moves.last()?;
                let mover = record.side_to_move_at(step.node).flip();
                self.opts.marks.judge(
                    prev.score?,
                    now.score?,
                    mover,
                    prev.first_move == Some(played),
                )
            });
        let mut block = String::new();
        if let Some(m) = mark {
            block.push_str(&m.line());
            block.push('\n');
        }
        block.push_str(&now.block);
        let comment = replace_analysis(&record.node(step.node).comment, &block);
        Some((step.node, comment, mark))
    }
}

/// Why analysing a record stopped.
#[derive(Debug)]
pub enum Stopped {
    /// The cancel flag was set; nothing was written.
    Cancelled,
    /// The engine failed at this ply (it is dead now; restart it).
    Engine { ply: u32, error: EngineError },
    /// The engine refused the position (e.g. too many pieces).
    Refused { ply: u32, error: EngineError },
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::Cancelled => f.write_str("interrupted"),
            Stopped::Engine { ply, error } => write!(f, "engine failed at ply {ply}: {error}"),
            Stopped::Refused { ply, error } => write!(f, "position at ply {ply}: {error}"),
        }
    }
}

/// How long a search may go without a word from the engine before it is stopped.
const SILENCE: Duration = Duration::from_secs(120);

/// Runs one search to its end (blocking); `cancel` is looked at every 50 ms.
pub fn search_blocking(
    eng: &mut Engine,
    req: SearchRequest,
    cancel: &AtomicBool,
) -> Result<Analysis, SearchFailure> {
    let id = eng.search(req).map_err(|e| match e {
        EngineError::NotRunning => SearchFailure::Engine(e),
        e => SearchFailure::Refused(e),
    })?;
    let mut heard = (eng.analysis().infos, Instant::now());
    loop {
        for ev in eng.wait(Duration::from_millis(50)) {
            match ev {
                EngineEvent::SearchDone { search, .. } if search == id => {
                    return Ok(eng.analysis().clone());
                }
                EngineEvent::Error(e) => return Err(SearchFailure::Engine(e)),
                _ => {}
            }
        }
        if cancel.load(Ordering::Relaxed) {
            eng.stop();
            return Err(SearchFailure::Cancelled);
        }
        let infos = eng.analysis().infos;
        if infos != heard.0 {
            heard = (infos, Instant::now());
        } else if heard.1.elapsed() > SILENCE {
            eng.stop(); // the driver kills it if bestmove does not follow
            heard.1 = Instant::now();
        }
    }
}

/// Why a search gave no result.
#[derive(Debug)]
pub enum SearchFailure {
    Cancelled,
    Refused(EngineError),
    Engine(EngineError),
}

/// What analysing a record found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Comments written.
    pub written: usize,
    /// (ply, mark) of every marked move.
    pub marks: Vec<(u32, Mark)>,
    /// The plies of positions to comment whose search ended without a score (the engine gave
    /// none within the limit): left without an analysis comment.
    pub unscored: Vec<u32>,
}

/// Analyses `record` with a ready engine, writing each comment into `record` as its search
/// ends. `progress(done, total)` after each search. On `Err`, `record` may hold some of the
/// new comments: the caller discards it.
pub fn analyse_record(
    eng: &mut Engine,
    record: &mut Record,
    opts: &Options,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Report, Stopped> {
    let mut plan = Plan::new(record, opts);
    let engine = written_name(&eng.info().name);
    let mut report = Report::default();
    eng.new_game();
    for i in 0..plan.len() {
        if cancel.load(Ordering::Relaxed) {
            return Err(Stopped::Cancelled);
        }
        let ply = plan.ply(i);
        let result = match plan.mated_here(i) {
            Some(r) => r,
            None => match search_blocking(eng, plan.request(i), cancel) {
                Ok(a) => Searched::from_analysis_upto(&a, &engine, opts.multipv),
                Err(SearchFailure::Cancelled) => return Err(Stopped::Cancelled),
                Err(SearchFailure::Engine(error)) => return Err(Stopped::Engine { ply, error }),
                Err(SearchFailure::Refused(error)) => {
                    return Err(Stopped::Refused { ply, error });
                }
            },
        };
        let scored = result.score.is_some();
        if let Some((node, text, mark)) = plan.finish(record, i, result) {
            record.node_mut(node).comment = text;
            report.written += 1;
            if !scored {
                report.unscored.push(ply);
            }
            if let Some(m) = mark {
                report.marks.push((ply, m));
            }
        }
        progress(i + 1, plan.len());
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::{Format, read_text};
    use crate::engine::SearchId;
    use crate::engine::usi::{UsiMessage, parse_line};

    fn record(kif: &str) -> Record {
        read_text(kif, Format::Kif).remove(0).record
    }

    const GAME: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*user note\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\n";

    fn analysis(plan: &Plan, i: usize, line: &str) -> Analysis {
        let req = plan.request(i);
        let mut p = req.root.clone();
        for &m in &req.moves {
            p.play(m).unwrap();
        }
        let mut a = Analysis::new(SearchId(1), p, req.moves.last().map(|m| m.to()));
        match parse_line(line) {
            Some(UsiMessage::Info(info)) => a.apply(*info),
            other => panic!("{other:?}"),
        }
        a.refresh();
        a
    }

    #[test]
    fn plan_covers_the_range_and_the_position_before_it() {
        let r = record(GAME);
        let all = Plan::new(&r, &Options::default());
        assert_eq!(
            (all.len(), all.writes()),
            (5, 4),
            "start + 4 moves; 投了 is no move"
        );
        let part = Plan::new(
            &r,
            &Options {
                from: 2,
                to: Some(3),
                ..Options::default()
            },
        );
        assert_eq!((part.len(), part.writes()), (3, 2));
        assert_eq!(part.ply(0), 1);
        assert_eq!(part.request(2).moves.len(), 3);
    }

    #[test]
    fn comments_marks_and_the_engine_best_exception() {
        let mut r = record(GAME);
        let mut plan = Plan::new(&r, &Options::default());
        // Start: +150, engine wants 2g2f. After ▲７六歩 (not its choice): −400 → sente lost
        // 56.2 − 33.9 = 22.3 % → 悪手.
        let a0 = analysis(&plan, 0, "info depth 5 score cp 150 pv 2g2f");
        assert_eq!(plan.finish(&r, 0, Searched::from_analysis(&a0, "E")), None);
        let a1 = analysis(
            &plan,
            1,
            "info depth 9 nodes 1000 score cp 400 pv 3c3d 8h2b+",
        );
        let (node, text, mark) = plan
            .finish(&r, 1, Searched::from_analysis(&a1, "E"))
            .unwrap();
        assert_eq!(mark, Some(Mark::Mistake));
        assert_eq!(
            text,
            "【悪手】\n後手有利\n#評価値=-400\n#読み筋=△３四歩▲２二角成\n#深さ=9\n#ノード数=1000\n#エンジン=E\nuser note"
        );
        r.node_mut(node).comment = text;
        // ▲… △３四歩 was the engine's first move: no mark though the evaluation fell.
        let a2 = analysis(&plan, 2, "info depth 9 score cp 2000 pv 8h2b+");
        let (_, text, mark) = plan
            .finish(&r, 2, Searched::from_analysis(&a2, "E"))
            .unwrap();
        assert_eq!(mark, None);
        assert!(text.starts_with("先手勝勢\n#評価値=2000\n"), "{text}");
    }

    #[test]
    fn mated_positions_need_no_engine() {
        let r = read_text(
            "position sfen 7nk/8l/7P1/9/9/9/9/9/9 b G2r2b3g4s3n3l17p 1 moves G*2b",
            Format::Usi,
        )
        .remove(0)
        .record;
        let plan = Plan::new(&r, &Options::default());
        assert_eq!(plan.len(), 2);
        assert_eq!(plan.mated_here(0), None);
        let m = plan.mated_here(1).expect("gote is mated after ▲２二金");
        assert_eq!(m.block, "#詰み=先手勝ち");
    }

    #[test]
    fn marker_round_trip() {
        let mut r = record(GAME);
        r.node_mut(NodeId::ROOT).comment = "opening note".into();
        let opts = Options {
            limit: Limit::Nodes(100_000),
            ..Options::default()
        };
        let m = marker(&opts, "Fairy\u{1b}[31m-Stockfish 11");
        assert_eq!(
            m,
            "#kifview-analyze limit=nodes:100000 multipv=1 plies=1- engine=Fairy[31m-Stockfish 11"
        );
        set_marker(&mut r, &m);
        set_marker(&mut r, &m);
        assert_eq!(r.node(NodeId::ROOT).comment, format!("{m}\nopening note"));
        assert_eq!(recorded_marker(&r), Some(m.as_str()));
    }
}
