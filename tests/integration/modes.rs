//! Issue 12, modes and lifecycle: where a file opens (`--watch` and USI lines at their newest
//! move, `+N` as asked), multi-record CSA files (`record 2/5`, `}`/`{`, `:record N`, saving
//! every record back), and Ctrl-z (the terminal given back and redrawn).

use kifview::app::{App, Config, LaunchOptions};
use std::path::{Path, PathBuf};

fn open_with(path: &Path, f: impl FnOnce(&mut LaunchOptions)) -> App {
    let mut opts = LaunchOptions {
        file: Some(path.to_path_buf()),
        ..LaunchOptions::default()
    };
    f(&mut opts);
    App::open(&opts, Config::defaults()).unwrap()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const KIF3: &str =
    "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n";

#[test]
fn watch_and_usi_lines_open_at_the_newest_move_and_plus_n_still_wins() {
    let dir = tempfile::tempdir().unwrap();
    let kif = write(&dir, "live.kifu", KIF3);
    assert_eq!(
        open_with(&kif, |_| {}).cur_index(),
        0,
        "a record opens at the start"
    );
    assert_eq!(open_with(&kif, |o| o.watch = true).cur_index(), 3);
    let at2 = open_with(&kif, |o| {
        o.watch = true;
        o.ply = Some(2);
    });
    assert_eq!(at2.cur_index(), 2, "+2 with --watch opens at ply 2");
    let usi = write(
        &dir,
        "line.usi",
        "position startpos moves 7g7f 3c3d 2g2f 8c8d\n",
    );
    assert_eq!(open_with(&usi, |_| {}).cur_index(), 4);
    assert_eq!(open_with(&usi, |o| o.ply = Some(1)).cur_index(), 1);
}
