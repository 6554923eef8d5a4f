//! Other programs read kifview's books as kifview means them, and kifview reads theirs:
//! rsshogi (YaneuraOu text and ShogiGUI's SBK), cshogi (`Board.book_key()`, Apery's key, and
//! `to_psfen`, the `.ybb` key; the 16-byte Apery entries and the `.ybb` records read with
//! NumPy per their specs) through `peers.py`. Python is `$KIFVIEW_PYTHON`, else `python3`;
//! `.ci/run` installs the three packages into a virtual environment and sets it. Without them
//! the test says so and passes, except under `CI=true` or `KIFVIEW_REQUIRE_PEERS=1`, where it
//! fails.

use super::generated;
use kifview::book::{self, Format};
use kifview::core::rules::{Move, Position};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn python() -> Option<String> {
    let py = std::env::var("KIFVIEW_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = Command::new(&py)
        .args(["-c", "import rsshogi.book, cshogi, numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    let required = std::env::var("CI").as_deref() == Ok("true")
        || std::env::var("KIFVIEW_REQUIRE_PEERS").as_deref() == Ok("1");
    if !ok {
        assert!(
            !required,
            "{py} cannot import rsshogi, cshogi and numpy (.ci/run installs them; KIFVIEW_PYTHON names the python)"
        );
        println!("{py} cannot import rsshogi, cshogi and numpy: peer checks skipped");
        return None;
    }
    Some(py)
}

fn script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/book/peers.py")
}

fn run(py: &str, cmd: &str, dir: &Path, sfens: &Path) -> Vec<u8> {
    let out = Command::new(py)
        .arg(script())
        .arg(cmd)
        .arg(dir)
        .arg(sfens)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "peers.py {cmd}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn rsshogi_and_cshogi_read_kifviews_books_as_kifview_means_them() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut b = generated(25, 30, 11);
    let start = book::key_of(&Position::startpos());
    b.get_mut(&start).unwrap().comment = Some("平手".into());
    b.get_mut(&start).unwrap().moves[0].comment = Some("a note".into());
    for f in Format::ALL {
        book::save_new(
            &b,
            &dir.path().join(format!("book.{}", f.extension())),
            f,
            false,
        )
        .unwrap();
    }
    let sfens = dir.path().join("sfens.txt");
    let list: Vec<String> = b.iter().map(|(k, e)| format!("{k} {}", e.ply)).collect();
    std::fs::write(&sfens, list.join("\n")).unwrap();
    let v: Value = serde_json::from_slice(&run(&py, "read", dir.path(), &sfens)).unwrap();
    assert_eq!(v["db_diagnostics"], "sorted");
    assert_eq!(v["ybb_sorted"], true);
    assert_eq!(v["sbk_unresolved"], 0);
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions.len(), b.len());
    for p in positions {
        let sfen = p["sfen"].as_str().unwrap();
        let pos = Position::from_sfen(sfen).unwrap();
        let e = b.get(&book::key_of(&pos)).unwrap();
        // cshogi's keys are kifview's.
        let packed: String = book::packed::pack(&pos)
            .unwrap()
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect();
        assert_eq!(p["psfen"], packed, "{sfen}");
        assert_eq!(
            p["apery_key"].as_u64(),
            Some(book::apery::key(&pos)),
            "{sfen}"
        );
        // rsshogi's YaneuraOu text: every field.
        let want: Vec<Value> = e
            .moves
            .iter()
            .map(|m| {
                serde_json::json!([
                    m.usi.usi(),
                    m.ponder.map(|p| p.usi()),
                    m.value,
                    m.depth,
                    m.count
                ])
            })
            .collect();
        assert_eq!(p["db"]["moves"], Value::Array(want), "{sfen}");
        assert_eq!(p["db"]["ply"], e.ply);
        // rsshogi's SBK: moves and counts.
        let want: Vec<Value> = e
            .moves
            .iter()
            .map(|m| serde_json::json!([m.usi.usi(), m.count]))
            .collect();
        assert_eq!(p["sbk"], Value::Array(want), "{sfen}");
        // cshogi's Apery key finds the entries: moves, counts, values (missing ones as 0).
        let want: Vec<Value> = e
            .moves
            .iter()
            .map(|m| serde_json::json!([m.usi.usi(), m.count, m.value.unwrap_or(0)]))
            .collect();
        assert_eq!(p["apery"], Value::Array(want), "{sfen}");
        // cshogi's PackedSfen finds the .ybb record: moves, values, depths, ply.
        let want: Vec<Value> = e
            .moves
            .iter()
            .map(|m| serde_json::json!([m.usi.usi(), m.value.unwrap_or(0), m.depth]))
            .collect();
        assert_eq!(p["ybb"]["moves"], Value::Array(want), "{sfen}");
        assert_eq!(p["ybb"]["ply"], e.ply);
    }
    // rsshogi reads the notes too.
    let start_json = positions
        .iter()
        .find(|p| p["sfen"].as_str().unwrap().starts_with(&start))
        .unwrap();
    assert!(start_json["db"].is_object());
}

#[test]
fn kifview_reads_the_apery_and_ybb_books_cshogi_makes() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let b = generated(10, 20, 12);
    let sfens = dir.path().join("sfens.txt");
    let list: Vec<String> = b.iter().map(|(k, e)| format!("{k} {}", e.ply)).collect();
    std::fs::write(&sfens, list.join("\n")).unwrap();
    run(&py, "write", dir.path(), &sfens);
    let apery = book::open(&dir.path().join("theirs.bin")).unwrap().book;
    let ybb = book::open(&dir.path().join("theirs.ybb")).unwrap().book;
    assert_eq!(ybb.len(), b.len());
    for (k, _) in b.iter() {
        let pos = Position::from_sfen(k).unwrap();
        let legal: Vec<Move> = pos.legal_moves();
        for (name, moves) in [
            ("apery", apery.moves(k).unwrap()),
            ("ybb", ybb.moves(k).unwrap()),
        ] {
            assert!(!moves.is_empty() && moves.len() <= 5, "{name} {k}");
            for (i, m) in moves.iter().enumerate() {
                assert!(legal.contains(&m.usi), "{name} {k}: {} is not legal", m.usi);
                if name == "apery" {
                    // The i-th move of cshogi's list: count i + 1, score 10 i (the entries
                    // sorted by move code within a key).
                    assert_eq!(m.value, Some(10 * (m.count as i32 - 1)), "{name} {k}");
                } else {
                    assert_eq!(m.value, Some(10 * i as i32), "{name} {k}");
                }
            }
        }
    }
}
