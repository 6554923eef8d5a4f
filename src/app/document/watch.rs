//! Following a file another program keeps writing (`--watch`, `F`): `tick` runs on the
//! watch timer's event (`app::events::Event::Watch`, twice a second); a changed size or modification time reloads the record, keeping the
//! user's place.

use crate::app::dispatch::command::Command;
use crate::app::document::checks::DiskStamp;
use crate::app::document::{self, Watch};
use crate::app::overlay::Mode;
use crate::app::state::{App, Level};
use crate::core::record::{NodeId, Record, Step};

/// How many ticks a file that reads worse than before (no more moves but more warnings:
/// probably half written) is given to get better before it is shown anyway.
const PATIENCE: u32 = 6;

/// Starts following the current file (its present state is the one shown).
pub fn start(app: &mut App) {
    let Some(path) = app.doc.source().path.clone() else {
        app.doc.watch = None;
        app.info_level(
            format!("{} is not a file: nothing to follow", app.doc.source().name),
            Level::Error,
        );
        return;
    };
    app.doc.watch = Some(Watch {
        stamp: DiskStamp::of(&path),
        path,
        pending: None,
    });
    app.info(format!(
        "following {}: reloads when it changes ({} stops)",
        app.doc.source().name,
        app.key(Command::ToggleWatch)
    ));
}

/// `F`: follow the file, or stop.
pub fn toggle(app: &mut App) {
    if app.doc.watch.take().is_some() {
        app.info(format!("stopped following {}", app.doc.source().name));
    } else {
        start(app);
    }
}

/// Checks the followed file; reloads it when it changed. Returns whether anything visible
/// changed (the record or the message).
pub fn tick(app: &mut App) -> bool {
    let Some(w) = app.doc.watch.as_ref() else {
        return false;
    };
    let path = w.path.clone();
    let Some(now) = DiskStamp::of(&path) else {
        // Gone for the moment (a writer replacing it): try again next time.
        return false;
    };
    if Some(now) == w.stamp {
        return false;
    }
    if app.mode() != Mode::Normal {
        // Not while a menu, prompt or list is open: it would close under the user's hands.
        return false;
    }
    if app.is_modified() {
        set_stamp(app, now);
        app.info_level(
            format!(
                "{} changed on disk; not reloaded because of unsaved changes (:e! reloads)",
                app.doc.source().name
            ),
            Level::Warning,
        );
        return true;
    }
    let (record, doc) = match document::read(&path, app.doc.source().record_index) {
        Ok(r) => r,
        Err(e) => {
            app.info_level(e, Level::Error);
            return true;
        }
    };
    // Half written: no more moves than before, but more problems. Keep what is shown.
    let worse = record.len() <= app.doc.record().len()
        && doc.warnings.len() > app.doc.source().warnings.len();
    if worse {
        let tries = match app.doc.watch.as_ref().and_then(|w| w.pending) {
            Some((s, n)) if s == now => n + 1,
            _ => 1,
        };
        if tries < PATIENCE {
            if let Some(w) = app.doc.watch.as_mut() {
                w.pending = Some((now, tries));
            }
            app.info_level(
                format!(
                    "{} is being written ({} warning{}); showing the last good state",
                    app.doc.source().name,
                    doc.warnings.len(),
                    if doc.warnings.len() == 1 { "" } else { "s" }
                ),
                Level::Warning,
            );
            return true;
        }
    }
    reload(app, record, doc);
    set_stamp(app, now);
    true
}

/// Remembers `stamp` as the version shown (after the app wrote the file itself).
pub(crate) fn set_stamp(app: &mut App, stamp: DiskStamp) {
    if let Some(w) = app.doc.watch.as_mut() {
        w.stamp = Some(stamp);
        w.pending = None;
    }
}

/// The node reached by following `steps` from the root as far as they exist in `record`.
fn follow(record: &Record, steps: &[Step]) -> NodeId {
    let mut n = NodeId::ROOT;
    for s in steps {
        match record
            .node(n)
            .children
            .iter()
            .find(|&&c| record.node(c).step == *s)
        {
            Some(&c) => n = c,
            None => break,
        }
    }
    n
}

/// Shows the re-read record at the same ply of the same line (with the same alternatives);
/// at the newest move when the user was at the end of the line.
pub fn reload(app: &mut App, record: Record, doc: document::RecordSource) {
    let steps: Vec<Step> = app.line()[1..]
        .iter()
        .map(|&id| app.doc.record().node(id).step.clone())
        .collect();
    let ply = app.cur_index();
    let at_end = ply + 1 == app.line().len();
    let before = document::move_count(app.doc.record());
    let after = document::move_count(&record);
    let warnings = doc.warnings.len();
    app.replace_record(record, doc);
    let deepest = follow(app.doc.record(), &steps);
    app.jump_to(deepest);
    if at_end {
        app.go_end();
    } else {
        let ply = ply.min(app.cur_index()) as u32;
        app.goto_ply(ply);
    }
    let mut msg = match after as isize - before as isize {
        0 => "reloaded: no new moves".to_string(),
        1 => "reloaded: 1 new move".to_string(),
        n if n > 1 => format!("reloaded: {n} new moves"),
        -1 => "reloaded: 1 move fewer".to_string(),
        n => format!("reloaded: {} moves fewer", -n),
    };
    if after > before && !at_end {
        msg.push_str(&format!(" ({} goes to the end)", app.key(Command::GoEnd)));
    }
    let level = if warnings > 0 {
        msg.push_str(&format!(
            "; {warnings} warning{} ({} lists them)",
            if warnings == 1 { "" } else { "s" },
            app.key(Command::ShowWarnings)
        ));
        Level::Warning
    } else {
        Level::Info
    };
    app.info_level(msg, level);
}
