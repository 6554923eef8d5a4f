//! The library from a player's side (issue 35), driven by keys through the whole app: a
//! folder forgotten from the index (`D`, asked first, the list following, the files left on
//! disk).

use kifview::app::overlay::Overlay;
use kifview::app::{LaunchOptions, Mode};
use kifview::tui::Viewer;
use std::path::Path;

use super::library::{collection, library, text};
use crate::common::{press, viewer_with};

/// Two games in `root/more`, indexed into `root/idx` beside `collection`'s five.
fn more(root: &Path) {
    let more = root.join("more");
    std::fs::create_dir_all(&more).unwrap();
    for (i, (b, w)) in [("大山康晴", "升田幸三"), ("升田幸三", "大山康晴")]
        .iter()
        .enumerate()
    {
        let text = format!(
            "V2.2\nN+{b}\nN-{w}\n$START_TIME:1960/0{}/01 10:00:00\nPI\n+\n+7776FU\n%TORYO\n",
            i + 1
        );
        std::fs::write(more.join(format!("m{i}.csa")), text).unwrap();
    }
    kifview::collection::update(&root.join("idx"), &[more], Default::default(), &|_, _| {})
        .unwrap();
}

/// `kifview --index IDX`: the whole index's games.
fn index_library(root: &Path) -> Viewer {
    let mut v = viewer_with(&LaunchOptions {
        index: Some(root.join("idx")),
        ..Default::default()
    });
    assert_eq!(v.app.mode(), Mode::Library);
    v.app.library_settle();
    v
}

fn question(v: &Viewer) -> String {
    match v.app.overlays().top() {
        Some(Overlay::Confirm(q)) => format!("{} {}", q.question, q.details.join(" ")),
        other => panic!("no question: {other:?}"),
    }
}

#[test]
fn d_forgets_the_folder_of_the_game_selected_from_the_index_after_asking() {
    let dir = tempfile::tempdir().unwrap();
    let coll = collection(dir.path());
    kifview::collection::update(
        &dir.path().join("idx"),
        &[coll],
        Default::default(),
        &|_, _| {},
    )
    .unwrap();
    more(dir.path());
    let mut v = index_library(dir.path());
    assert_eq!(v.app.library().unwrap().ids().len(), 7);
    // The oldest games are 大山's and 升田's (1960), in `more`: the last rows.
    press(&mut v, "G");
    press(&mut v, "D");
    assert_eq!(v.app.mode(), Mode::Confirm);
    let more = std::fs::canonicalize(dir.path().join("more")).unwrap();
    let asked = question(&v);
    assert!(
        asked.contains(&format!("Forget {} from the index?", more.display())),
        "{asked}"
    );
    assert!(asked.contains("the files stay on disk"), "{asked}");
    // No: nothing forgotten.
    press(&mut v, "n");
    assert_eq!(v.app.mode(), Mode::Library);
    v.app.library_settle();
    assert_eq!(v.app.library().unwrap().ids().len(), 7);
    // Yes: the list follows, the folder's files stay.
    press(&mut v, "Dy");
    assert_eq!(v.app.mode(), Mode::Library);
    v.app.library_settle();
    let l = v.app.library().unwrap();
    assert_eq!(l.ids().len(), 5, "more's two games left the list");
    let note = l.note().unwrap().to_string();
    assert!(note.contains("its 2 games left the index"), "{note}");
    assert!(more.join("m0.csa").is_file() && more.join("m1.csa").is_file());
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("5 games"), "{shown}");
    // The index no longer names the folder: an update of the index does not bring it back.
    let r =
        kifview::collection::update(&dir.path().join("idx"), &[], Default::default(), &|_, _| {})
            .unwrap();
    assert_eq!(r.games, 5);
}

#[test]
fn d_in_a_folders_library_forgets_that_folder_and_the_list_empties() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = library(dir.path());
    assert_eq!(v.app.library().unwrap().ids().len(), 5);
    press(&mut v, "D");
    let coll = std::fs::canonicalize(dir.path().join("coll")).unwrap();
    let asked = question(&v);
    assert!(
        asked.contains(&format!("Forget {}", coll.display())),
        "{asked}"
    );
    assert!(asked.contains("Its 5 games leave the index"), "{asked}");
    // Over the list, whole at 80 columns (no snapshot: the temporary folder's name, whose
    // length varies, wraps it).
    let shown = text(&mut v, 80, 24);
    assert!(
        shown.contains("y: forget") && shown.contains("n: keep"),
        "{shown}"
    );
    assert!(shown.contains("the files stay on"), "{shown}");
    press(&mut v, "y");
    v.app.library_settle();
    assert!(v.app.library().unwrap().ids().is_empty());
    assert!(coll.join("g0.csa").is_file(), "the files stay");
    let shown = text(&mut v, 80, 24);
    assert!(shown.contains("its 5 games left the index"), "{shown}");
}
