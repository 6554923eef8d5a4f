//! Writes random legal records for load tests:
//! `cargo run --release --example gen_records -- DIR [GAMES] [STUDY_NODES]`
//! writes DIR/gNNNN.kif (Shift_JIS, CRLF) and DIR/gNNNN.csa, and DIR/study.kifu when
//! STUDY_NODES > 0.

#[path = "randgen.rs"]
mod randgen;

use kifview::core::notation::{self, Format, Newline, Target, TextEncoding, TextInfo};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(
        args.next()
            .expect("usage: gen_records DIR [GAMES] [STUDY_NODES]"),
    );
    let games: usize = args
        .next()
        .map_or(5000, |s| s.parse().expect("GAMES is a number"));
    let study: usize = args
        .next()
        .map_or(0, |s| s.parse().expect("STUDY_NODES is a number"));
    std::fs::create_dir_all(dir.join("kif")).expect("create dir");
    std::fs::create_dir_all(dir.join("csa")).expect("create dir");
    let mut rng = randgen::Rng(0x2545_f491_4f6c_dd1d);
    let sjis = TextInfo {
        encoding: TextEncoding::ShiftJis,
        bom: false,
        newline: Newline::CrLf,
        lossy: false,
    };
    let utf8 = TextInfo::new(TextEncoding::Utf8);
    let (mut moves, mut bytes) = (0, 0);
    for i in 0..games {
        let g = randgen::random_game(&mut rng);
        moves += g.len() - 2;
        let k = notation::to_bytes(&g, Target::new(Format::Kif), &sjis)
            .expect("encodable")
            .0;
        let c = notation::to_bytes(&g, Target::new(Format::Csa), &utf8)
            .expect("encodable")
            .0;
        bytes += k.len();
        std::fs::write(dir.join(format!("kif/g{i:05}.kif")), k).expect("write");
        std::fs::write(dir.join(format!("csa/g{i:05}.csa")), c).expect("write");
    }
    eprintln!(
        "{games} games, {moves} moves, {:.1} MB of Shift_JIS KIF",
        bytes as f64 / 1e6
    );
    if study > 0 {
        let s = randgen::big_study(&mut rng, study);
        let k = notation::to_bytes(&s, Target::new(Format::Kif), &utf8)
            .expect("encodable")
            .0;
        std::fs::write(dir.join("study.kifu"), k).expect("write");
        eprintln!("study.kifu: {} nodes", s.len());
    }
}
