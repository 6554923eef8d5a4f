//! The latest state of one search, cheap to keep current: an `info` only overwrites fields;
//! engine lines are checked with the rules and written in Japanese once per
//! [`Analysis::refresh`] (once per `Engine::poll`), not once per `info`.

use super::pv::{self, CheckedPv};
use super::score::{self, Score};
use super::search::{SearchEnd, SearchId};
use super::usi::{Bound, Info};
use crate::core::notation::ki2;
use crate::core::rules::{Move, Position, Square};

/// Where a search stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisStatus {
    /// Asked for; the engine is still finishing the previous search or starting up.
    Waiting,
    Running,
    /// Stopped by the user (`Engine::stop`): the lines are the last ones the engine sent.
    Stopped,
    /// The engine ended the search itself (a limit was reached) or the driver's time ran out.
    Finished,
    /// The engine failed (crash, timeout); the lines are what it sent before.
    Failed,
}

/// One principal variation: the latest `info … pv` for its MultiPV index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1 for the best line.
    pub multipv: u32,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    /// From sente's side.
    pub score: Option<Score>,
    /// As the engine said it (from the side to move); see [`Analysis::score_text`].
    pub bound: Bound,
    /// The line as checked with the rules (filled by `refresh`).
    pub pv: CheckedPv,
    /// `pv.moves` in Japanese with ▲/△ from the side to move: `▲７六歩△３四歩…`.
    pub japanese: String,
    raw_pv: String,
    checked: bool,
}

impl Line {
    fn new(multipv: u32) -> Line {
        Line {
            multipv,
            depth: None,
            seldepth: None,
            nodes: None,
            nps: None,
            time_ms: None,
            score: None,
            bound: Bound::Exact,
            pv: CheckedPv::default(),
            japanese: String::new(),
            raw_pv: String::new(),
            checked: true,
        }
    }

    /// The line's first move, if legal.
    pub fn first_move(&self) -> Option<Move> {
        self.pv.moves.first().copied()
    }

    /// Why the engine's line was cut short, if it was.
    pub fn note(&self) -> Option<String> {
        self.pv.cut.as_ref().map(|c| c.note())
    }

    /// `depth/seldepth` (`12/18`), or `12`, or empty.
    pub fn depth_text(&self) -> String {
        match (self.depth, self.seldepth) {
            (Some(d), Some(s)) => format!("{d}/{s}"),
            (Some(d), None) => d.to_string(),
            _ => String::new(),
        }
    }
}

/// The state of one search, as a UI shows it.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub search: SearchId,
    /// The position searched (after the request's moves).
    pub position: Position,
    /// The destination of the move that led to `position` (for `同`).
    pub prev_to: Option<Square>,
    pub status: AnalysisStatus,
    /// One per MultiPV index, best first.
    pub lines: Vec<Line>,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    /// Per mille of the hash table in use.
    pub hashfull: Option<u32>,
    pub currmove: Option<String>,
    /// The latest `info string`.
    pub string: Option<String>,
    /// How the search ended (bestmove, checkmate answer), once it has.
    pub outcome: Option<SearchEnd>,
    /// `info` lines applied to this analysis.
    pub infos: u64,
    /// `info` lines of an earlier search that arrived after this one was asked for, dropped.
    pub stale_dropped: u64,
    dirty: bool,
}

/// How many moves of a line `refresh` writes in Japanese (more never fit on a screen line).
const JAPANESE_MOVES: usize = 40;

impl Analysis {
    pub fn new(search: SearchId, position: Position, prev_to: Option<Square>) -> Analysis {
        Analysis {
            search,
            position,
            prev_to,
            status: AnalysisStatus::Waiting,
            lines: Vec::new(),
            depth: None,
            seldepth: None,
            nodes: None,
            nps: None,
            time_ms: None,
            hashfull: None,
            currmove: None,
            string: None,
            outcome: None,
            infos: 0,
            stale_dropped: 0,
            dirty: false,
        }
    }

    /// The best line (MultiPV 1), if any arrived.
    pub fn best(&self) -> Option<&Line> {
        self.lines.first()
    }

    /// `+123`, `詰 5`, with ShogiHome's bound marks (`++` at least, `--` at most, from sente).
    pub fn score_text(&self, line: &Line) -> String {
        let Some(s) = line.score else {
            return String::new();
        };
        let mark = score::bound_mark(line.bound, self.position.side_to_move());
        format!("{}{mark}", s.text())
    }

    /// `line` as a comment in ShogiHome's research format, which ShogiHome reads back
    /// (its graph and PV preview):
    ///
    /// ```text
    /// 先手有利            (or #詰み=先手勝ち:5手 for a mate)
    /// #評価値=450
    /// #読み筋=▲７六歩△３四歩…   (no 同 on the first move, as ShogiHome writes it)
    /// #深さ=12
    /// #ノード数=104602
    /// #エンジン=Fairy-Stockfish 11.1 LB 64
    /// ```
    pub fn comment(&self, line: &Line, engine: Option<&str>) -> String {
        let mut out = String::new();
        match line.score {
            Some(Score::Mate { plies, sente_wins }) => {
                let who = if sente_wins {
                    "先手勝ち"
                } else {
                    "後手勝ち"
                };
                out.push_str(&format!("#詰み={who}"));
                if let Some(n) = plies {
                    out.push_str(&format!(":{n}手"));
                }
                out.push('\n');
            }
            Some(s @ Score::Cp(cp)) => {
                out.push_str(&format!("{}\n#評価値={cp}\n", s.situation()));
            }
            None => {}
        }
        if !line.pv.moves.is_empty() {
            let pv = ki2::line_text(&self.position, &line.pv.moves, None);
            out.push_str(&format!("#読み筋={pv}\n"));
        }
        if let Some(d) = line.depth.filter(|&d| d > 0) {
            out.push_str(&format!("#深さ={d}\n"));
        }
        if let Some(n) = line.nodes.filter(|&n| n > 0) {
            out.push_str(&format!("#ノード数={n}\n"));
        }
        if let Some(name) = engine.filter(|_| !out.is_empty()) {
            out.push_str(&format!("#エンジン={}\n", super::clean(name)));
        }
        out
    }

    /// Takes one `info` line: overwrites the fields it carries. Cheap; no rules work.
    /// `Engine::poll` calls it; a tool replaying recorded lines may too.
    pub fn apply(&mut self, info: Info) {
        self.infos += 1;
        if self.status == AnalysisStatus::Waiting {
            self.status = AnalysisStatus::Running;
        }
        let Info {
            depth,
            seldepth,
            time_ms,
            nodes,
            nps,
            hashfull,
            tbhits: _,
            multipv,
            score,
            bound,
            currmove,
            pv,
            string,
        } = info;
        macro_rules! keep {
            ($($f:ident),*) => { $( if $f.is_some() { self.$f = $f; } )* };
        }
        keep!(depth, seldepth, time_ms, nodes, nps, hashfull, currmove);
        if string.is_some() {
            self.string = string;
        }
        if pv.is_none() && score.is_none() {
            return;
        }
        let index = multipv.unwrap_or(1).max(1);
        let at = match self.lines.binary_search_by_key(&index, |l| l.multipv) {
            Ok(i) => i,
            Err(i) => {
                self.lines.insert(i, Line::new(index));
                i
            }
        };
        let to_move = self.position.side_to_move();
        let line = &mut self.lines[at];
        line.depth = depth.or(line.depth);
        line.seldepth = seldepth.or(line.seldepth);
        line.nodes = nodes.or(line.nodes);
        line.nps = nps.or(line.nps);
        line.time_ms = time_ms.or(line.time_ms);
        if let Some(s) = score {
            line.score = Some(Score::from_engine(s, to_move));
            line.bound = bound;
        }
        if let Some(pv) = pv {
            line.raw_pv = pv;
            line.checked = false;
        }
        self.dirty = true;
    }

    /// Checks and writes in Japanese the lines changed since the last call. Returns whether
    /// anything changed since the last call (then the UI should redraw).
    pub fn refresh(&mut self) -> bool {
        if !std::mem::take(&mut self.dirty) {
            return false;
        }
        for line in self.lines.iter_mut().filter(|l| !l.checked) {
            line.pv = pv::check_pv(&self.position, &line.raw_pv);
            let shown = &line.pv.moves[..line.pv.moves.len().min(JAPANESE_MOVES)];
            line.japanese = ki2::line_text(&self.position, shown, self.prev_to);
            line.checked = true;
        }
        true
    }

    pub(crate) fn touch(&mut self) {
        self.dirty = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_support::info;

    #[test]
    fn keeps_the_latest_line_per_multipv_sorted_and_checked_once() {
        let mut a = Analysis::new(SearchId(1), Position::startpos(), None);
        a.apply(info("info depth 1 multipv 2 score cp 10 pv 2g2f"));
        a.apply(info("info depth 1 multipv 1 score cp 30 pv 7g7f 3c3d"));
        a.apply(info(
            "info depth 2 multipv 1 score cp -20 upperbound nodes 5000000000 pv 5g5f",
        ));
        a.apply(info("info nodes 6000000000 nps 400000 hashfull 12"));
        assert!(a.refresh());
        assert!(!a.refresh(), "nothing new");
        assert_eq!(a.lines.len(), 2);
        let best = a.best().unwrap();
        assert_eq!(best.japanese, "▲５六歩");
        assert_eq!(a.score_text(best), "-20--");
        assert_eq!(best.nodes, Some(5_000_000_000));
        assert_eq!(best.depth_text(), "2");
        assert_eq!(a.lines[1].japanese, "▲２六歩");
        assert_eq!((a.nodes, a.hashfull), (Some(6_000_000_000), Some(12)));
        assert_eq!(a.infos, 4);
        assert_eq!(a.status, AnalysisStatus::Running);
    }

    #[test]
    fn comment_in_shogihome_format() {
        let mut p = Position::startpos();
        p.play(Move::from_usi("7g7f").unwrap()).unwrap();
        p.play(Move::from_usi("3c3d").unwrap()).unwrap();
        p.play(Move::from_usi("8h2b+").unwrap()).unwrap();
        let mut a = Analysis::new(SearchId(3), p, Square::new(2, 2));
        a.apply(info(
            "info depth 12 nodes 104602 score cp -450 pv 3a2b B*4e",
        ));
        a.refresh();
        let l = a.best().unwrap();
        assert_eq!(l.japanese, "△同　銀▲４五角");
        assert_eq!(
            a.comment(l, Some("Fake\u{1b}[2J")),
            "先手有利\n#評価値=450\n#読み筋=△２二銀▲４五角\n#深さ=12\n#ノード数=104602\n#エンジン=Fake[2J\n"
        );
        let mut m = Analysis::new(SearchId(4), Position::startpos(), None);
        m.apply(info("info score mate -3 pv 7g7f"));
        m.refresh();
        assert_eq!(
            m.comment(m.best().unwrap(), None),
            "#詰み=後手勝ち:3手\n#読み筋=▲７六歩\n"
        );
    }

    #[test]
    fn gote_to_move_scores_are_from_sente_and_lines_start_with_gote() {
        let mut p = Position::startpos();
        p.play(Move::from_usi("7g7f").unwrap()).unwrap();
        let mut a = Analysis::new(SearchId(2), p, Square::new(7, 6));
        a.apply(info(
            "info depth 8 seldepth 11 score cp 159 lowerbound pv 3c3d 8h2b+ 9z9z",
        ));
        a.refresh();
        let l = a.best().unwrap();
        assert_eq!(a.score_text(l), "-159--");
        assert_eq!(l.japanese, "△３四歩▲２二角成");
        assert_eq!(l.depth_text(), "8/11");
        assert!(l.note().unwrap().contains("move 3 (9z9z)"));
        assert_eq!(l.first_move(), Move::from_usi("3c3d"));
    }
}
