//! A match between two engines (`kifview match`): rounds of game pairs (each opening played
//! twice, colours swapped), `concurrency` pairs at once (each worker with its own two engine
//! processes), every game written as a record into the output folder through `store` (never
//! replacing a file), the statistics and the SPRT after each pair (the match stops when it
//! accepts or rejects), and the same summary read back from the records
//! ([`report`], `kifview match report`).

use super::record::{GameInfo, record_result};
use super::runner::{FaultKind, GameSettings, MoveTiming, Player, play_game};
use super::stats::{GameScore, Sprt, Tally, Verdict};
use super::time::{SystemTime, TimeControl, TimeSource};
use crate::core::notation::{self, Format, Target, TextEncoding, TextInfo};
use crate::core::record::Record;
use crate::core::rules::{Color, Move, Position};
use crate::engine::{EngineSpec, Timeouts};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, mpsc};

/// One side of the match: the name its records show (先手/後手) and how to start it.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub name: String,
    pub spec: EngineSpec,
}

/// A start for a pair of games: a position and moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
    /// Where it came from (`openings.sfen:3`), for the record's 開始局面 header.
    pub label: String,
}

impl Opening {
    pub fn even() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
            label: "平手".into(),
        }
    }
}

/// Which share of the rounds this task plays: round `r` (from 1) when `(r − 1) mod count ==
/// index − 1`, so each pair stays whole in one task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundShard {
    pub index: u32,
    pub count: u32,
}

impl RoundShard {
    pub fn holds(&self, round: u32) -> bool {
        (round - 1) % self.count == self.index - 1
    }
}

/// The format of a match's records: KIF (UTF-8, `.kifu`) or CSA (V3.0, UTF-8, `.csa`, whose
/// times keep milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecordFormat {
    #[default]
    Kif,
    Csa,
}

impl RecordFormat {
    fn extension(self) -> &'static str {
        match self {
            RecordFormat::Kif => "kifu",
            RecordFormat::Csa => "csa",
        }
    }
}

/// The match's own header fields under the names each format holds: KIF's Japanese keys, and
/// in CSA `$KEY:` fields (a CSA file keeps only keys of that form, and `report` reads either).
const MATCH_KEYS: [(&str, &str); 5] = [
    ("回戦", "ROUND"),
    ("局番", "GAME"),
    ("開始局面", "START"),
    ("エラー", "ERROR"),
    ("SPRT", "SPRT"),
];

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    /// A and B: the statistics are A's.
    pub entrants: [Entrant; 2],
    pub settings: GameSettings,
    /// Pairs of games.
    pub rounds: u32,
    pub concurrency: usize,
    /// Round `r` plays `openings[(r − 1) mod len]`; empty: the even start.
    pub openings: Vec<Opening>,
    pub sprt: Option<Sprt>,
    pub out: PathBuf,
    pub shard: Option<RoundShard>,
    pub timeouts: Timeouts,
    pub format: RecordFormat,
    /// Where to write each game's move times (`--timing`): one JSON object a line per game, and
    /// a last line with the runner's CPU per move. A new file, never one that exists.
    pub timing: Option<PathBuf>,
}

/// Faults per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Errors {
    pub time: u32,
    pub crash: u32,
    pub illegal: u32,
}

impl Errors {
    fn add(&mut self, k: FaultKind) {
        match k {
            FaultKind::Time => self.time += 1,
            FaultKind::Crash => self.crash += 1,
            FaultKind::Illegal => self.illegal += 1,
        }
    }
}

/// A match's results so far (or read back from its records).
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub names: [String; 2],
    pub tally: Tally,
    pub errors: Errors,
    /// Games with no result (interrupted), not counted.
    pub unscored: u32,
    /// Files written (or read).
    pub files: Vec<PathBuf>,
}

impl Summary {
    /// The issue's JSON object: `{"games":N,"a":{"name":…,"wins":n},"b":{…},"draws":n,
    /// "elo":e,"elo_ci":[lo,hi],"pentanomial":[…5],"sprt":{"llr":x,"lower":l,"upper":u,
    /// "result":"H0"|"H1"|null},"errors":{"time":n,"crash":n,"illegal":n}}`. An Elo that is
    /// not finite (a score of 0 or 1) is null; `sprt` is null without `--sprt`.
    pub fn json(&self, sprt: Option<&Sprt>) -> String {
        let t = &self.tally;
        let elo = t.elo();
        let round = |x: Option<f64>| x.map(|v| (v * 100.0).round() / 100.0);
        let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
        let sprt = sprt.map(|s| {
            let llr = s.llr(t.penta);
            let (lower, upper) = s.bounds();
            let result = s.verdict(llr).map(|v| match v {
                Verdict::H0 => "H0",
                Verdict::H1 => "H1",
            });
            // In the issue's order (serde_json's objects sort their keys).
            format!(
                r#"{{"llr":{},"lower":{},"upper":{},"result":{}}}"#,
                json(r3(llr)),
                json(r3(lower)),
                json(r3(upper)),
                json(result)
            )
        });
        format!(
            r#"{{"games":{},"a":{{"name":{},"wins":{}}},"b":{{"name":{},"wins":{}}},"draws":{},"elo":{},"elo_ci":[{},{}],"pentanomial":{},"sprt":{},"errors":{{"time":{},"crash":{},"illegal":{}}}}}"#,
            t.games(),
            json(&self.names[0]),
            t.wins,
            json(&self.names[1]),
            t.losses,
            t.draws,
            json(round(elo.and_then(|e| e.diff))),
            json(round(elo.and_then(|e| e.lo))),
            json(round(elo.and_then(|e| e.hi))),
            json(t.penta),
            sprt.unwrap_or_else(|| "null".into()),
            self.errors.time,
            self.errors.crash,
            self.errors.illegal,
        )
    }

    /// One line: `12 games: A 7, B 3, draws 2; Elo +147 [+12, +290]; LLR 1.23 (-2.94, 2.94)`.
    pub fn line(&self, sprt: Option<&Sprt>) -> String {
        let t = &self.tally;
        let num = |x: Option<f64>| x.map_or_else(|| "∞".to_string(), |v| format!("{v:+.1}"));
        let mut s = format!(
            "{} games: {} {}, {} {}, draws {}",
            t.games(),
            self.names[0],
            t.wins,
            self.names[1],
            t.losses,
            t.draws
        );
        if let Some(e) = t.elo() {
            s.push_str(&format!(
                "; Elo {} [{}, {}]",
                num(e.diff),
                num(e.lo),
                num(e.hi)
            ));
        }
        if let Some(sp) = sprt {
            let (lo, hi) = sp.bounds();
            s.push_str(&format!("; LLR {:.2} ({lo:.2}, {hi:.2})", sp.llr(t.penta)));
        }
        s
    }

    /// Has the SPRT decided?
    pub fn verdict(&self, sprt: Option<&Sprt>) -> Option<Verdict> {
        sprt.and_then(|s| s.verdict(s.llr(self.tally.penta)))
    }
}

/// A value as JSON text.
fn json(v: impl serde::Serialize) -> String {
    serde_json::to_string(&v).unwrap_or_else(|_| "null".into())
}

/// The file name of round `round`'s game `game` (1: A has sente, 2: B has sente).
pub fn game_file(round: u32, game: u32, format: RecordFormat) -> String {
    format!("round{round:05}-{game}.{}", format.extension())
}

/// A game's result for A, from the winner's colour and whether A had sente.
fn score_for_a(winner: Option<Color>, a_black: bool) -> GameScore {
    match winner {
        None => GameScore::Draw,
        Some(c) if (c == Color::Black) == a_black => GameScore::Win,
        Some(_) => GameScore::Loss,
    }
}

/// What a worker reports: one game.
struct Done {
    round: u32,
    game: u32,
    /// None: no result.
    score: Option<GameScore>,
    fault: Option<FaultKind>,
    /// Who caused the fault (the name the records show).
    faulty: Option<String>,
    /// The game's record, written by the match's thread (not once the match has stopped).
    record: Box<Record>,
    timings: Vec<MoveTiming>,
}

/// The `--timing` log: a game's line, `{"round":r,"game":g,"file":…,"fault":"time"|null,
/// "by":name|null,"moves":[[ply,"b"|"w",allowed_ms,charged_ms,reported_ms,gap_us],…]}` (null
/// where a figure is unknown).
fn timing_line(done: &Done, file: &str) -> String {
    let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_secs_f64() * 1000.0);
    let moves: Vec<serde_json::Value> = done
        .timings
        .iter()
        .map(|t| {
            serde_json::json!([
                t.ply,
                if t.side == Color::Black { "b" } else { "w" },
                ms(t.allowed),
                ms(t.charged),
                ms(t.reported),
                t.gap.map(|d| d.as_micros() as u64),
            ])
        })
        .collect();
    serde_json::json!({
        "round": done.round,
        "game": done.game,
        "file": file,
        "fault": done.fault.map(FaultKind::word),
        "by": done.faulty,
        "moves": moves,
    })
    .to_string()
}

/// This process's CPU time so far (user + system, every thread; not the engines').
pub fn process_cpu() -> std::time::Duration {
    // SAFETY: getrusage fills a zeroed rusage of our own.
    let u = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let tv = |t: libc::timeval| {
        std::time::Duration::from_secs(t.tv_sec as u64)
            + std::time::Duration::from_micros(t.tv_usec as u64)
    };
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// Opens the `--timing` log: a new file (never one that exists).
fn open_timing(path: &Path) -> Result<std::io::BufWriter<std::fs::File>, String> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map(std::io::BufWriter::new)
        .map_err(|e| format!("--timing {}: {e} (give a new file)", path.display()))
}

/// Runs the match; `progress` is called after each game with the summary so far and the games
/// this task plays. Err: a file could not be written (the match stops) or the output folder
/// already holds a file the match would write.
pub fn run(spec: &MatchSpec, progress: &mut dyn FnMut(&Summary, u32)) -> Result<Summary, String> {
    let rounds: Vec<u32> = (1..=spec.rounds)
        .filter(|r| spec.shard.is_none_or(|s| s.holds(*r)))
        .collect();
    std::fs::create_dir_all(&spec.out)
        .map_err(|e| format!("{}: cannot make the folder: {e}", spec.out.display()))?;
    for &r in &rounds {
        for g in [1, 2] {
            let p = spec.out.join(game_file(r, g, spec.format));
            if std::fs::symlink_metadata(&p).is_ok() {
                return Err(format!(
                    "{} already exists: give --out a new or empty folder (kifview never replaces a file it did not write in this match)",
                    p.display()
                ));
            }
        }
    }
    let mut timing_log = spec.timing.as_deref().map(open_timing).transpose()?;
    let cpu_before = process_cpu();
    let mut moves_played = 0usize;
    let total = rounds.len() as u32 * 2;
    let next = Arc::new(AtomicU32::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let rounds = Arc::new(rounds);
    let (tx, rx) = mpsc::channel::<Done>();
    let workers = spec.concurrency.max(1).min(rounds.len().max(1));
    let mut handles = Vec::new();
    for _ in 0..workers {
        let (spec, next, stop, rounds, tx) = (
            spec.clone(),
            next.clone(),
            stop.clone(),
            rounds.clone(),
            tx.clone(),
        );
        handles.push(std::thread::spawn(move || {
            worker(&spec, &next, &stop, &rounds, &tx);
        }));
    }
    drop(tx);
    let mut summary = Summary {
        names: [spec.entrants[0].name.clone(), spec.entrants[1].name.clone()],
        ..Summary::default()
    };
    let mut halves: std::collections::HashMap<u32, GameScore> = Default::default();
    let mut failure = None;
    // Games that end after the match has stopped (the SPRT decided, a file failed) are
    // neither written nor counted: the records are exactly the games of the result, and
    // `report` reads the same result back.
    for done in rx {
        if stop.load(Ordering::SeqCst) {
            continue;
        }
        let path = spec.out.join(game_file(done.round, done.game, spec.format));
        let tc = Some(spec.settings.time_control);
        if let Err(e) = write_record(&done.record, &path, spec.format, tc) {
            stop.store(true, Ordering::SeqCst);
            failure.get_or_insert(e);
            continue;
        }
        add_game(
            &mut summary,
            &mut halves,
            done.round,
            done.score,
            done.fault,
        );
        moves_played += done.timings.len();
        if let Some(log) = timing_log.as_mut() {
            use std::io::Write;
            let line = timing_line(&done, &game_file(done.round, done.game, spec.format));
            if let Err(e) = writeln!(log, "{line}") {
                failure.get_or_insert(format!("--timing: {e}"));
                stop.store(true, Ordering::SeqCst);
            }
        }
        summary.files.push(path);
        progress(&summary, total);
        if summary.verdict(spec.sprt.as_ref()).is_some() {
            stop.store(true, Ordering::SeqCst);
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if let Some(mut log) = timing_log {
        use std::io::Write;
        let cpu = process_cpu().saturating_sub(cpu_before);
        let per_move = cpu.as_secs_f64() * 1e6 / moves_played.max(1) as f64;
        let line = serde_json::json!({
            "moves": moves_played,
            "cpu_ms": cpu.as_secs_f64() * 1000.0,
            "cpu_per_move_us": per_move,
        });
        if let Err(e) = writeln!(log, "{line}").and_then(|()| log.flush()) {
            failure.get_or_insert(format!("--timing: {e}"));
        }
    }
    summary.files.sort();
    match failure {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// Counts one game, and its pair when the other game of the round is in.
fn add_game(
    summary: &mut Summary,
    halves: &mut std::collections::HashMap<u32, GameScore>,
    round: u32,
    score: Option<GameScore>,
    fault: Option<FaultKind>,
) {
    if let Some(k) = fault {
        summary.errors.add(k);
    }
    match score {
        Some(s) => {
            summary.tally.add_game(s);
            if let Some(other) = halves.remove(&round) {
                summary.tally.add_pair(other, s);
            } else {
                halves.insert(round, s);
            }
        }
        None => summary.unscored += 1,
    }
}

/// A worker: takes rounds until none are left or the match stops, plays both games of each
/// with its own two engines, writes each record and reports it.
fn worker(
    spec: &MatchSpec,
    next: &AtomicU32,
    stop: &AtomicBool,
    rounds: &[u32],
    tx: &mpsc::Sender<Done>,
) {
    let mut a = Player::new(
        spec.entrants[0].name.clone(),
        spec.entrants[0].spec.clone(),
        spec.timeouts,
    );
    let mut b = Player::new(
        spec.entrants[1].name.clone(),
        spec.entrants[1].spec.clone(),
        spec.timeouts,
    );
    let time: Arc<dyn TimeSource> = Arc::new(SystemTime::default());
    while !stop.load(Ordering::SeqCst) {
        let i = next.fetch_add(1, Ordering::SeqCst) as usize;
        let Some(&round) = rounds.get(i) else {
            break;
        };
        let opening = if spec.openings.is_empty() {
            Opening::even()
        } else {
            spec.openings[(round as usize - 1) % spec.openings.len()].clone()
        };
        for game in [1u32, 2] {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            let a_black = game == 1;
            let players = if a_black {
                [&mut a, &mut b]
            } else {
                [&mut b, &mut a]
            };
            let played = play_game(
                players,
                &opening.start,
                &opening.moves,
                &spec.settings,
                time.clone(),
            );
            let (black, white) = if a_black {
                (&spec.entrants[0].name, &spec.entrants[1].name)
            } else {
                (&spec.entrants[1].name, &spec.entrants[0].name)
            };
            let mut extra = vec![
                ("棋戦".to_string(), "kifview match".to_string()),
                ("回戦".to_string(), round.to_string()),
                ("局番".to_string(), game.to_string()),
                ("開始局面".to_string(), opening.label.clone()),
            ];
            if let Some(s) = &spec.sprt {
                extra.push(("SPRT".into(), s.text()));
            }
            if let Some((side, kind)) = played.fault {
                let who = if side == Color::Black { black } else { white };
                extra.push(("エラー".into(), format!("{} ({who})", kind.word())));
            }
            let opening_moves = opening.moves.len().min(played.game.played().len());
            let record = played.record(GameInfo {
                black: black.clone(),
                white: white.clone(),
                time_control: Some(spec.settings.time_control),
                extra,
                opening_moves,
                ..GameInfo::default()
            });
            let score = played
                .game
                .outcome()
                .filter(|o| o.reason != super::EndReason::Interrupted)
                .map(|o| score_for_a(o.winner, a_black));
            let faulty = played
                .fault
                .map(|(side, _)| if side == Color::Black { black } else { white }.clone());
            let sent = tx.send(Done {
                round,
                game,
                score,
                fault: played.fault.map(|f| f.1),
                faulty,
                record: Box::new(record),
                timings: played.timings,
            });
            if sent.is_err() {
                return;
            }
        }
    }
}

/// Writes `record` at `path` as a UTF-8 KIF, or as CSA V3.0 with the match's header fields
/// under CSA names and the time control as `$TIME:base+byoyomi+increment`; never replacing a
/// file.
pub fn write_record(
    record: &Record,
    path: &Path,
    format: RecordFormat,
    time_control: Option<TimeControl>,
) -> Result<(), String> {
    let info = TextInfo::new(TextEncoding::Utf8);
    let text = match format {
        RecordFormat::Kif => notation::render(record, Target::new(Format::Kif), &info).text,
        RecordFormat::Csa => {
            let mut csa = record.clone();
            for (kif, key) in MATCH_KEYS {
                if let Some(v) = csa.header.get(kif).map(str::to_string) {
                    csa.header.remove(kif);
                    csa.header.set(key, &v);
                }
            }
            if let Some(t) = time_control.and_then(csa_time) {
                csa.header.set("持ち時間", &t);
            }
            let mut target = Target::new(Format::Csa);
            target.csa_v3 = true;
            notation::render(&csa, target, &info).text
        }
    };
    let bytes =
        notation::encoding::encode(&text, &info).map_err(|e| format!("{}: {e}", path.display()))?;
    crate::store::save_new(path, &bytes, crate::store::SaveOptions::default(), false)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A clock as CSA V3.0's `$TIME` value: seconds of main time, byoyomi and increment
/// (`10+0+0.1`); None without a clock.
fn csa_time(tc: TimeControl) -> Option<String> {
    let secs = |d: std::time::Duration| {
        let ms = d.as_millis();
        if ms.is_multiple_of(1000) {
            (ms / 1000).to_string()
        } else {
            format!("{}", ms as f64 / 1000.0)
        }
    };
    tc.timed().then(|| {
        format!(
            "{}+{}+{}",
            secs(tc.base),
            secs(tc.byoyomi),
            secs(tc.increment)
        )
    })
}

/// Reads a match's records back from the folders (or files) given: the same summary as the
/// match gave (pairs by their 回戦 header, errors from their エラー header). Err: no record of
/// a match there, or records of different engines. Also the SPRT the records say was run.
pub fn report(paths: &[PathBuf]) -> Result<(Summary, Option<Sprt>, Vec<String>), String> {
    let mut files = Vec::new();
    let mut warnings = Vec::new();
    for p in paths {
        if p.is_dir() {
            let w = crate::load::record_files(p);
            warnings.extend(w.skipped);
            files.extend(w.files.into_iter().map(|f| f.path));
        } else {
            files.push(p.clone());
        }
    }
    files.sort();
    let mut summary = Summary::default();
    let mut names: Option<[String; 2]> = None;
    let mut halves = std::collections::HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut sprt = None;
    for f in &files {
        let loaded = match crate::load::load_input(f) {
            Ok(l) => l,
            Err(e) => {
                warnings.push(e);
                continue;
            }
        };
        for parsed in &loaded.records {
            let r = &parsed.record;
            let h = &r.header;
            if h.get("棋戦") != Some("kifview match") {
                warnings.push(format!("{}: not a kifview match record", f.display()));
                continue;
            }
            // A field by its KIF key, or its CSA one.
            let field = |kif: &str| {
                h.get(kif).or_else(|| {
                    MATCH_KEYS
                        .iter()
                        .find(|(k, _)| *k == kif)
                        .and_then(|(_, csa)| h.get(csa))
                })
            };
            let num = |k: &str| field(k).and_then(|v| v.trim().parse::<u32>().ok());
            let (Some(round), Some(game @ 1..=2)) = (num("回戦"), num("局番")) else {
                warnings.push(format!("{}: no 回戦 or 局番 header", f.display()));
                continue;
            };
            if !seen.insert((round, game)) {
                warnings.push(format!(
                    "{}: round {round} game {game} again: counted once",
                    f.display()
                ));
                continue;
            }
            let (black, white) = (
                h.black_name().unwrap_or_default().to_string(),
                h.white_name().unwrap_or_default().to_string(),
            );
            let pair = if game == 1 {
                [black, white]
            } else {
                [white, black]
            };
            match &names {
                None => names = Some(pair),
                Some(n) if *n != pair => {
                    return Err(format!(
                        "{}: {} against {}, not {} against {}: records of another match",
                        f.display(),
                        pair[0],
                        pair[1],
                        n[0],
                        n[1]
                    ));
                }
                Some(_) => {}
            }
            if sprt.is_none() {
                sprt = field("SPRT").and_then(|t| Sprt::parse(t).ok());
            }
            let fault = field("エラー")
                .and_then(|e| e.split_whitespace().next())
                .and_then(FaultKind::from_word);
            let score = record_result(r).map(|(_, w)| score_for_a(w, game == 1));
            add_game(&mut summary, &mut halves, round, score, fault);
            summary.files.push(f.clone());
        }
    }
    summary.names = names.ok_or_else(|| "no kifview match records there".to_string())?;
    Ok((summary, sprt, warnings))
}

/// Reads openings from a file: one a line, `startpos`, `startpos moves …`, `sfen … [moves …]`
/// or `position …` (blank lines and `#` comments skipped), or any record file (each record's
/// main line, its first `ply` moves). `ply`: at most this many moves of each.
pub fn read_openings(path: &Path, ply: Option<usize>) -> Result<Vec<Opening>, String> {
    let bytes = crate::load::read_input(path)?;
    let name = crate::load::display_name(path);
    let text = String::from_utf8_lossy(&bytes);
    let looks_usi = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| {
            ["startpos", "sfen ", "position "]
                .iter()
                .any(|p| l.starts_with(p))
        });
    let mut out = Vec::new();
    let mut take = |r: &Record, label: String| -> Result<(), String> {
        let mut moves: Vec<Move> = r
            .main_line()
            .iter()
            .filter_map(|&n| r.node(n).move_data().map(|m| m.mv))
            .collect();
        if let Some(n) = ply {
            moves.truncate(n);
        }
        let mut pos = r.initial.position.clone();
        for (i, &mv) in moves.iter().enumerate() {
            pos.play(mv).map_err(|e| {
                format!(
                    "{label}: move {} ({}) is illegal: {}",
                    i + 1,
                    mv.usi(),
                    e.describe()
                )
            })?;
        }
        out.push(Opening {
            start: r.initial.position.clone(),
            moves,
            label,
        });
        Ok(())
    };
    if looks_usi {
        for (i, line) in text.lines().enumerate() {
            let l = line.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let label = format!("{name}:{}", i + 1);
            let parsed = crate::core::notation::usi::read(l)
                .map_err(|e| format!("{label}: {}", e.message))?;
            if let Some(w) = parsed.warnings.first() {
                return Err(format!("{label}: {}", w.message));
            }
            take(&parsed.record, label)?;
        }
    } else {
        let loaded = crate::load::read_records(&bytes, Some(path))
            .map_err(|e| format!("{name}: not an openings file: {e}"))?;
        for (i, p) in loaded.records.iter().enumerate() {
            take(&p.record, format!("{name}#{}", i + 1))?;
        }
    }
    if out.is_empty() {
        return Err(format!("{name}: no openings in it"));
    }
    Ok(out)
}
