//! Writes a collection for trying the collection by hand: GAMES games as KIF files under DIR,
//! STAR of them played by one player whose name is written several ways (`藤井聡太`,
//! `藤井 聡太`, `藤井　聡太竜王`, `fujii_s`, `ｆｕｊｉｉ＿ｓ`): then
//! `kifview index DIR --index IDX` and `kifview games --index IDX --me 藤井聡太 --me fujii_s
//! --filter me` lists STAR games. Run:
//! `cargo run --example gen_collection -- DIR [GAMES (10000)] [STAR (500)]`.

#[path = "../benches/support/collgen.rs"]
mod collgen;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: gen_collection DIR [GAMES] [STAR]");
        std::process::exit(2);
    };
    let mut number = |default: usize| args.next().and_then(|a| a.parse().ok()).unwrap_or(default);
    let (games, star) = (number(10_000), number(500));
    let mut rng = collgen::Rng(0x2545_f491_4f6c_dd1d);
    let written =
        collgen::write_player_collection(std::path::Path::new(&dir), &mut rng, games, star);
    let sente = written.iter().filter(|w| w.1 == Some(true)).count();
    let gote = written.iter().filter(|w| w.1 == Some(false)).count();
    println!(
        "{dir}: {} games, the player in {} ({sente} as sente, {gote} as gote)",
        written.len(),
        sente + gote
    );
}
