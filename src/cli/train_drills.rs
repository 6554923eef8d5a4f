//! `kifview train --guess RECORD` and `kifview train --repertoire (BOOK | RECORD)`: the drills
//! of guess-the-move ([`kifview::training::guess`]) and of a repertoire
//! ([`kifview::training::repertoire_drill`]) made from the files named, each file a source of
//! the training history; and the same drills again for the positions of those sources that are
//! due (`kifview train` with no source).

use clap::ValueEnum;
use kifview::book::{self, Lookup};
use kifview::collection::repertoire::Tree;
use kifview::core::record::Record;
use kifview::core::rules::{Color, Move, Position};
use kifview::load;
use kifview::training::drill::Drill;
use kifview::training::guess::{Ask, Guess};
use kifview::training::history::{self, History};
use kifview::training::repertoire_drill::{Lines, RepertoireDrill, TreeLines};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Whose moves are asked (`--side`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    Sente,
    Gote,
    Both,
}

/// What `--guess`, `--repertoire` and their options ask for.
pub struct Wanted<'a> {
    pub guess: &'a [PathBuf],
    pub repertoire: &'a [PathBuf],
    pub side: Option<Side>,
    pub record: usize,
    pub lines: usize,
    pub seed: u64,
}

/// A book as weighted lines: its moves with their counts (at least 1 each).
struct BookLines(Box<dyn Lookup>);

impl Lines for BookLines {
    fn moves(&self, pos: &Position) -> Result<Vec<(Move, u64)>, String> {
        Ok(self
            .0
            .moves(&book::key_of(pos))
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|m| (m.usi, m.count.max(1)))
            .collect())
    }
}

/// Record `record` (1-based; 0 the first) of the file at `path`.
fn read_record(path: &Path, record: usize) -> Result<Record, String> {
    let loaded = load::load_input(path)?;
    Ok(load::pick_record(&loaded, record, path)?.record.clone())
}

/// The repertoire at `path`, and where its lines start: a book (from the usual start), when
/// its name or first bytes say so, else a record's tree (from its start).
fn read_lines(path: &Path, record: usize) -> Result<(Arc<dyn Lines>, Position), String> {
    if book::detect(path, &super::repertoire::head(path)).is_some() {
        let opened = book::open(path).map_err(|e| e.to_string())?;
        return Ok((Arc::new(BookLines(opened.book)), Position::startpos()));
    }
    let r = read_record(path, record)?;
    let start = r.initial.position.clone();
    Ok((Arc::new(TreeLines(Tree::from_record(&r))), start))
}

/// Registers `name` as a source of `kind` with `keys`; a file already a source of another
/// kind is refused (its attempts would be read as the other kind's).
fn register(
    h: &mut History,
    name: &str,
    kind: &str,
    keys: &[String],
    t: chrono::DateTime<chrono::Utc>,
) -> Result<(), String> {
    if let Some(k) = h.kind_of(name)?.filter(|k| k != kind) {
        return Err(format!(
            "{name}: already a source of kind {k} in the training history, not {kind}"
        ));
    }
    h.add_source(name, kind, keys, t).map(|_| ())
}

fn ask_of(side: Option<Side>) -> Ask {
    match side {
        Some(Side::Sente) => Ask::Side(Color::Black),
        Some(Side::Gote) => Ask::Side(Color::White),
        Some(Side::Both) | None => Ask::Both,
    }
}

/// Drills, and the history's names of the files they come from.
pub type Session = (Vec<Box<dyn Drill>>, Vec<String>);

/// The drills `--guess` and `--repertoire` ask for, each file added to the history; and the
/// history's names of those files.
pub fn session(
    h: &mut History,
    w: &Wanted,
    t: chrono::DateTime<chrono::Utc>,
) -> Result<Session, String> {
    let mut drills: Vec<Box<dyn Drill>> = Vec::new();
    let mut names = Vec::new();
    for p in w.guess {
        let name = history::source_name(p);
        let r = read_record(p, w.record)?;
        let record = w.record.max(1);
        let g = Guess::new(p, &name, record, &r, &ask_of(w.side))?;
        register(h, &name, "guess", &g.keys(), t)?;
        h.set_tags(&name, &g.tags(&kifview::training::tags::strategies(&r)))?;
        drills.push(Box::new(g));
        names.push(name);
    }
    if !w.repertoire.is_empty() {
        let side = match w.side {
            Some(Side::Sente) => Color::Black,
            Some(Side::Gote) => Color::White,
            _ => {
                return Err(
                    "--repertoire: say whose repertoire it is with --side sente or --side gote"
                        .into(),
                );
            }
        };
        for p in w.repertoire {
            let name = history::source_name(p);
            let (lines, start) = read_lines(p, w.record)?;
            register(h, &name, "repertoire", &[], t)?;
            let due: Vec<String> = h
                .due(t)?
                .into_iter()
                .filter(|(s, _)| *s == name)
                .map(|(_, k)| k)
                .collect();
            let mut seed = w.seed;
            for d in due_positions(&lines, p, &name, &due, &mut seed) {
                drills.push(Box::new(d));
            }
            for _ in 0..w.lines {
                let d = RepertoireDrill::new(
                    Arc::clone(&lines),
                    p.clone(),
                    &name,
                    side,
                    start.clone(),
                    seed,
                )?;
                seed = seed.wrapping_add(1);
                drills.push(Box::new(d));
            }
            names.push(name);
        }
    }
    Ok((drills, names))
}

/// A drill from each due position (a position key) of a repertoire, for the side to move there;
/// a position the repertoire no longer answers is left out.
fn due_positions(
    lines: &Arc<dyn Lines>,
    path: &Path,
    name: &str,
    keys: &[String],
    seed: &mut u64,
) -> Vec<RepertoireDrill> {
    let mut out = Vec::new();
    for k in keys {
        let Ok(pos) = Position::from_sfen(&format!("{k} 1")) else {
            continue;
        };
        let side = pos.side_to_move();
        if let Ok(d) = RepertoireDrill::new(
            Arc::clone(lines),
            path.to_path_buf(),
            name,
            side,
            pos,
            *seed,
        ) {
            out.push(d);
        }
        *seed = seed.wrapping_add(1);
    }
    out
}

/// The drills of the due (or new) `keys` of a history source of `kind` (`guess`,
/// `repertoire`): a guess drill per record asking only those plies, a repertoire drill from
/// each position. None for a kind of another drill.
pub fn due(
    source: &str,
    kind: &str,
    keys: &[String],
    seed: u64,
) -> Option<Result<Vec<Box<dyn Drill>>, String>> {
    let path = Path::new(source);
    match kind {
        "guess" => Some(due_guesses(path, keys)),
        "repertoire" => Some(read_lines(path, 0).map(|(lines, _)| {
            let mut seed = seed;
            due_positions(&lines, path, source, keys, &mut seed)
                .into_iter()
                .map(|d| Box::new(d) as Box<dyn Drill>)
                .collect()
        })),
        _ => None,
    }
}

fn due_guesses(path: &Path, keys: &[String]) -> Result<Vec<Box<dyn Drill>>, String> {
    let mut by_record: BTreeMap<usize, BTreeSet<u32>> = BTreeMap::new();
    for k in keys {
        if let Some((r, p)) = k.split_once(':')
            && let (Ok(r), Ok(p)) = (r.parse(), p.parse())
        {
            by_record.entry(r).or_default().insert(p);
        }
    }
    let loaded = load::load_input(path)?;
    let mut out: Vec<Box<dyn Drill>> = Vec::new();
    for (record, plies) in by_record {
        let r = &load::pick_record(&loaded, record, path)?.record;
        let source = path.display().to_string();
        out.push(Box::new(Guess::new(
            path,
            &source,
            record,
            r,
            &Ask::Plies(plies),
        )?));
    }
    Ok(out)
}
