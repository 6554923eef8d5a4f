//! Copies of one game in several files or formats: the same moves from the same start (the
//! main line's), and the same players and date where both copies have them (names as filters
//! compare them, [`name_key`]), and the same result where both say who won. Found at index time: each game's start and moves are hashed ([`super::scan::moves_hash`], the catalog's `moves_hash`),
//! and after every step of an update [`mark`] groups the games of one hash and names in each
//! copy's `same_as` the copy that is counted, the one with the most information (comments and
//! evaluations, then header fields, then the first by path and record: never by the order the
//! files were indexed in, so an index updated run by run counts the copy one built from scratch
//! counts). Every answer counts a game once:
//! the catalog's filters pass only `same_as IS NULL`, and `games.bin` gives a copy no result,
//! so position queries pass it by. [`listed`] names the copies (`kifview games --duplicates`).

use super::catalog::Catalog;
use super::name_key;
use std::collections::HashMap;

/// What decides whether two games with one hash are copies of each other.
#[derive(Clone, Debug)]
struct Copy {
    id: u32,
    sente: Option<String>,
    gote: Option<String>,
    date: Option<String>,
    /// Who won (`sente`, `gote`, `draw`), when the record says.
    result: Option<String>,
    /// Comments and evaluations.
    info: u32,
    /// Header fields given (players, date, event).
    fields: u32,
    /// Its file's path (catalog key) and record: the last tie-break.
    place: (String, u32),
}

impl Copy {
    fn same_game(&self, o: &Copy) -> bool {
        let agree = |a: &Option<String>, b: &Option<String>| match (a, b) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        agree(&self.sente, &o.sente)
            && agree(&self.gote, &o.gote)
            && agree(&self.date, &o.date)
            && agree(&self.result, &o.result)
    }
}

/// The copies of one hash in clusters, each the counted copy first: the copies ordered by
/// information (then by path and record), each joining the first cluster whose counted copy it matches.
/// The clusters a copy may join are found through its players and date (the clusters whose
/// head has the same value or none, for the field of the copy that narrows them most), so that
/// thousands of games of one short line (`▲７六歩 △３四歩 投了`) between many players do not
/// take quadratic time.
fn clusters(mut copies: Vec<Copy>) -> Vec<Vec<u32>> {
    copies.sort_by(|a, b| {
        (b.info, b.fields)
            .cmp(&(a.info, a.fields))
            .then_with(|| a.place.cmp(&b.place))
            .then(a.id.cmp(&b.id))
    });
    /// Clusters by a field of their head: by value, and those whose head lacks it.
    #[derive(Default)]
    struct Field {
        by: HashMap<String, Vec<usize>>,
        none: Vec<usize>,
    }
    let values = |c: &Copy| [c.sente.clone(), c.gote.clone(), c.date.clone()];
    let mut fields: [Field; 3] = Default::default();
    let mut out: Vec<(Copy, Vec<u32>)> = Vec::new();
    for c in copies {
        let v = values(&c);
        let narrowest = v
            .iter()
            .zip(&fields)
            .filter_map(|(v, f)| {
                let v = v.as_ref()?;
                let by = f.by.get(v).map_or(&[][..], Vec::as_slice);
                Some((by.len() + f.none.len(), by, &f.none))
            })
            .min_by_key(|(n, _, _)| *n);
        let found = match narrowest {
            // Neither names nor a date: the first cluster takes it.
            None => (!out.is_empty()).then_some(0),
            Some((_, by, none)) => by
                .iter()
                .chain(none)
                .copied()
                .filter(|&i| out[i].0.same_game(&c))
                .min(),
        };
        match found {
            Some(i) => out[i].1.push(c.id),
            None => {
                let i = out.len();
                for (v, f) in v.into_iter().zip(fields.iter_mut()) {
                    match v {
                        Some(v) => f.by.entry(v).or_default().push(i),
                        None => f.none.push(i),
                    }
                }
                out.push((c.clone(), vec![c.id]));
            }
        }
    }
    out.into_iter().map(|(_, m)| m).collect()
}

/// The games sharing a hash with another, grouped by hash.
fn groups(cat: &Catalog) -> Result<Vec<Vec<Copy>>, String> {
    let sql = |e: rusqlite::Error| format!("catalog: {e}");
    let mut st = cat
        .db
        .prepare(
            "SELECT g.id, g.moves_hash, g.sente, g.gote, g.date, g.comments + g.evaluated,
                    (g.sente IS NOT NULL) + (g.gote IS NOT NULL) + (g.date IS NOT NULL)
                      + (g.event IS NOT NULL),
                    NULLIF(g.result, 'unknown'), f.path, g.record
             FROM games g JOIN files f ON f.id = g.file_id WHERE g.moves_hash IN
               (SELECT moves_hash FROM games WHERE moves_hash != 0
                GROUP BY moves_hash HAVING count(*) > 1)
             ORDER BY g.moves_hash, g.id",
        )
        .map_err(sql)?;
    let mut rows = st.query([]).map_err(sql)?;
    let mut out: Vec<Vec<Copy>> = Vec::new();
    let mut last = None;
    while let Some(r) = rows.next().map_err(sql)? {
        let hash: i64 = r.get(1).map_err(sql)?;
        let text = |i: usize| -> Result<Option<String>, String> {
            Ok(r.get::<_, Option<String>>(i)
                .map_err(sql)?
                .map(|s| name_key(&s)))
        };
        let c = Copy {
            id: r.get(0).map_err(sql)?,
            sente: text(2)?,
            gote: text(3)?,
            date: text(4)?,
            info: r.get(5).map_err(sql)?,
            fields: r.get(6).map_err(sql)?,
            result: r.get(7).map_err(sql)?,
            place: (r.get(8).map_err(sql)?, r.get(9).map_err(sql)?),
        };
        if last != Some(hash) {
            out.push(Vec::new());
            last = Some(hash);
        }
        out.last_mut().expect("pushed").push(c);
    }
    Ok(out)
}

/// Names each copy's counted copy in `same_as` (and clears it on the others), inside the
/// caller's transaction: run before every commit of an update, so that what readers see is
/// always counted once.
pub fn mark(cat: &Catalog) -> Result<(), String> {
    let sql = |e: rusqlite::Error| format!("catalog: {e}");
    let mut want: HashMap<u32, u32> = HashMap::new();
    for g in groups(cat)? {
        for c in clusters(g) {
            for &copy in &c[1..] {
                want.insert(copy, c[0]);
            }
        }
    }
    let mut have: HashMap<u32, u32> = HashMap::new();
    {
        let mut st = cat
            .db
            .prepare("SELECT id, same_as FROM games WHERE same_as IS NOT NULL")
            .map_err(sql)?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(sql)?;
        for r in rows {
            let (id, of) = r.map_err(sql)?;
            have.insert(id, of);
        }
    }
    let mut set = cat
        .db
        .prepare("UPDATE games SET same_as = ?2, sum = 0 WHERE id = ?1")
        .map_err(sql)?;
    for (&id, _) in have.iter().filter(|(id, _)| !want.contains_key(id)) {
        set.execute(rusqlite::params![id, None::<u32>])
            .map_err(sql)?;
    }
    for (&id, &of) in want.iter().filter(|(id, of)| have.get(id) != Some(of)) {
        set.execute(rusqlite::params![id, of]).map_err(sql)?;
    }
    Ok(())
}

/// A copy not counted, and the copy counted in its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub path: String,
    pub record: u32,
    pub same_as_path: String,
    pub same_as_record: u32,
}

/// Every copy not counted, by path and record.
pub fn listed(cat: &Catalog) -> Result<Vec<Duplicate>, String> {
    let sql = |e: rusqlite::Error| format!("catalog: {e}");
    let mut st = cat
        .db
        .prepare(
            "SELECT f.path, g.record, cf.path, c.record
             FROM games g JOIN files f ON f.id = g.file_id
               JOIN games c ON c.id = g.same_as JOIN files cf ON cf.id = c.file_id
             ORDER BY f.path, g.record",
        )
        .map_err(sql)?;
    let rows = st
        .query_map([], |r| {
            Ok(Duplicate {
                path: r.get(0)?,
                record: r.get(1)?,
                same_as_path: r.get(2)?,
                same_as_record: r.get(3)?,
            })
        })
        .map_err(sql)?;
    rows.collect::<Result<_, _>>().map_err(sql)
}

/// How many games are copies not counted.
pub fn count(cat: &Catalog) -> Result<u64, String> {
    cat.db
        .query_row(
            "SELECT count(*) FROM games WHERE same_as IS NOT NULL",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n as u64)
        .map_err(|e| format!("catalog: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::scan::moves_hash;

    fn copy(id: u32, sente: Option<&str>, date: Option<&str>, info: u32) -> Copy {
        Copy {
            id,
            sente: sente.map(name_key),
            gote: None,
            date: date.map(String::from),
            result: None,
            info,
            fields: u32::from(sente.is_some()) + u32::from(date.is_some()),
            // Paths in id order.
            place: (format!("/c/{id:010}.kif"), 1),
        }
    }

    #[test]
    fn the_copy_with_the_most_information_is_counted_and_other_games_stay_apart() {
        let c = clusters(vec![
            copy(1, Some("羽生 善治"), Some("2020-01-01"), 0),
            copy(2, Some("羽生善治"), None, 5),
            copy(3, Some("藤井聡太"), Some("2020-01-01"), 0),
            copy(4, None, None, 0),
        ]);
        assert_eq!(c, vec![vec![2, 1, 4], vec![3]]);
    }

    #[test]
    fn the_same_moves_with_other_results_are_other_games_and_an_unknown_result_agrees() {
        let with = |id, result: Option<&str>| Copy {
            result: result.map(String::from),
            ..copy(id, Some("羽生善治"), Some("2020-01-01"), 0)
        };
        let c = clusters(vec![
            with(1, Some("sente")),
            with(2, Some("gote")),
            with(3, None),
        ]);
        assert_eq!(c, vec![vec![1, 3], vec![2]]);
    }

    #[test]
    fn many_games_of_one_short_line_between_other_players_cluster_in_linear_time() {
        let many: Vec<Copy> = (0..200_000)
            .map(|i| Copy {
                id: i + 1,
                sente: Some(format!("先手{i}")),
                gote: Some(format!("後手{i}")),
                date: None,
                result: None,
                info: 0,
                fields: 2,
                place: (format!("/c/{i:010}.kif"), 1),
            })
            .collect();
        let mut with_copy = many.clone();
        with_copy.push(Copy {
            id: 999_999,
            ..many[7].clone()
        });
        let c = clusters(with_copy);
        assert_eq!(c.len(), 200_000);
        // Quadratic would be 2 * 10^10 comparisons: minutes (no timed assertion here: the
        // test runner names a test over 60 s).
        assert!(c.contains(&vec![8, 999_999]));
    }

    #[test]
    fn hashes_tell_starts_and_moves_apart_and_a_game_without_moves_has_none() {
        let a = moves_hash(None, &[1, 2]);
        assert_eq!(a, moves_hash(None, &[1, 2]));
        assert_ne!(a, moves_hash(None, &[2, 1]));
        assert_ne!(a, moves_hash(Some("9/9/9/9/9/9/9/9/9 b - 1"), &[1, 2]));
        assert_eq!(moves_hash(None, &[]), 0);
        assert_eq!(name_key("ＡＢＣ　d"), "abcd");
    }
}
