//! Random legal records for benchmarks and load tests (shared by `benches/engine.rs` and
//! `examples/gen_records.rs`).

use kifview::core::record::{MoveTime, NodeId, Record, Special, Step};
use kifview::core::rules::Position;

// A target that includes both generators (benches/viewer.rs) has this module twice: two
// `Rng` types of the same code, as each generator stands alone.
#[path = "rng.rs"]
#[allow(clippy::duplicate_mod)]
mod rng;
pub use rng::Rng;

fn play(r: &mut Record, parent: NodeId, pos: &mut Position, rng: &mut Rng) -> Option<NodeId> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    // Prefer captures now and then, as real games do.
    let mv = moves[rng.below(moves.len())];
    let md = pos.play_move(mv).ok()?;
    let id = r.push_child(parent, Step::Move(md));
    r.node_mut(id).time = Some(MoveTime {
        spent_ms: (rng.below(120) as u64) * 1000,
        total_ms: None,
    });
    Some(id)
}

pub fn random_game(rng: &mut Rng) -> Record {
    let mut r = Record::default();
    r.header.set("先手", "先手 太郎");
    r.header.set("後手", "後手 花子");
    r.header.set("棋戦", "ベンチマーク");
    let plies = 60 + rng.below(181);
    let mut pos = r.initial.position.clone();
    let mut cur = NodeId::ROOT;
    for _ in 0..plies {
        match play(&mut r, cur, &mut pos, rng) {
            Some(id) => cur = id,
            None => break,
        }
    }
    r.push_child(cur, Step::Special(Special::Resign));
    r
}

/// A study: a 200-ply main line with variations branching everywhere, 50,000+ nodes.
pub fn big_study(rng: &mut Rng, nodes: usize) -> Record {
    let mut r = Record::default();
    let mut frontier = vec![NodeId::ROOT];
    while r.len() < nodes {
        let start = frontier[rng.below(frontier.len())];
        if r.node(start).ply > 180 {
            continue;
        }
        let mut pos = r.position_at(start);
        let mut cur = start;
        for _ in 0..(20 + rng.below(40)) {
            match play(&mut r, cur, &mut pos, rng) {
                Some(id) => {
                    cur = id;
                    if rng.below(4) == 0 {
                        frontier.push(id);
                    }
                }
                None => break,
            }
        }
        if rng.below(3) == 0 {
            r.node_mut(cur).comment = "ここで形勢判断。\n*評価値 +120".into();
        }
    }
    r
}

/// A study whose variations nest `depth` deep: at every ply the main line ends (中断) and the
/// alternative beside it goes on (rooks shuttling), so each variation holds the next.
#[allow(dead_code)] // The benchmark's; `gen_records` shares this file and does not use it.
pub fn deep_study(depth: usize) -> Record {
    use kifview::core::rules::{Move, Square};
    let sq = |f, r| Square::new(f, r).expect("square");
    let shuttle = [
        (sq(2, 8), sq(3, 8)),
        (sq(8, 2), sq(7, 2)),
        (sq(3, 8), sq(2, 8)),
        (sq(7, 2), sq(8, 2)),
    ];
    let mut r = Record::default();
    let mut pos = Position::startpos();
    let mut cur = NodeId::ROOT;
    for i in 0..depth {
        let (from, to) = shuttle[i % 4];
        let mv = Move::Normal {
            from,
            to,
            promote: false,
        };
        let md = pos.play_move(mv).expect("a rook move");
        r.push_child(cur, Step::Special(Special::Interrupt));
        cur = r.push_child(cur, Step::Move(md));
    }
    r
}
