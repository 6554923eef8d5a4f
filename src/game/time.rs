//! Time controls and the game clock.
//!
//! A [`TimeControl`] is parsed from what a user types (`10+0.1`, `600+byo30`, `byo3`,
//! `nodes=1000`, `depth=8`) and shown the same way; [`Clock`] charges each side the time from
//! the position being sent to `bestmove` received, read from a [`TimeSource`] that tests
//! replace with [`FakeTime`].

use crate::core::rules::Color;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A limit per move that is not time: the clock does not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerMove {
    Nodes(u64),
    Depth(u32),
}

/// How long each side may think. `base` is each side's main time; after it, `byoyomi` per move
/// (Japanese byoyomi: a move within it costs nothing of it); `increment` is added after each
/// move (Fischer). A base of zero with no byoyomi and no increment is no time control at all
/// (only with `per_move`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
    pub byoyomi: Duration,
    pub per_move: Option<PerMove>,
}

impl TimeControl {
    /// Fischer: `base` then `increment` per move.
    pub fn fischer(base: Duration, increment: Duration) -> TimeControl {
        TimeControl {
            base,
            increment,
            ..TimeControl::default()
        }
    }

    /// `base` then `byoyomi` per move.
    pub fn byoyomi(base: Duration, byoyomi: Duration) -> TimeControl {
        TimeControl {
            base,
            byoyomi,
            ..TimeControl::default()
        }
    }

    /// Sudden death: `base` for the game.
    pub fn sudden_death(base: Duration) -> TimeControl {
        TimeControl::fischer(base, Duration::ZERO)
    }

    pub fn nodes(n: u64) -> TimeControl {
        TimeControl {
            per_move: Some(PerMove::Nodes(n)),
            ..TimeControl::default()
        }
    }

    pub fn depth(n: u32) -> TimeControl {
        TimeControl {
            per_move: Some(PerMove::Depth(n)),
            ..TimeControl::default()
        }
    }

    /// Does a clock run (false for nodes or depth per move)?
    pub fn timed(&self) -> bool {
        self.per_move.is_none()
    }

    /// Reads `10+0.1` (Fischer: seconds and increment in seconds), `600` (sudden death),
    /// `600+byo30` (main time then byoyomi), `byo3` (byoyomi only), `nodes=N`, `depth=N`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let t = text.trim();
        let bad = |why: &str| {
            format!(
                "time control {t:?}: {why} (expected 10+0.1, 600, 600+byo30, byo3, nodes=N or depth=N)"
            )
        };
        if let Some(n) = t.strip_prefix("nodes=") {
            let n: u64 = n.parse().map_err(|_| bad("nodes is not a number"))?;
            if n == 0 {
                return Err(bad("nodes must be at least 1"));
            }
            return Ok(TimeControl::nodes(n));
        }
        if let Some(n) = t.strip_prefix("depth=") {
            let n: u32 = n.parse().map_err(|_| bad("depth is not a number"))?;
            if n == 0 {
                return Err(bad("depth must be at least 1"));
            }
            return Ok(TimeControl::depth(n));
        }
        let (base, rest) = match t.split_once('+') {
            Some((b, r)) => (b, Some(r)),
            None if t.starts_with("byo") => ("0", Some(t)),
            None => (t, None),
        };
        let base = seconds(base).ok_or_else(|| bad("the main time is not a number of seconds"))?;
        let tc = match rest {
            None => TimeControl::sudden_death(base),
            Some(r) => match r.strip_prefix("byo") {
                Some(b) => TimeControl::byoyomi(
                    base,
                    seconds(b).ok_or_else(|| bad("byoyomi is not a number of seconds"))?,
                ),
                None => TimeControl::fischer(
                    base,
                    seconds(r).ok_or_else(|| bad("the increment is not a number of seconds"))?,
                ),
            },
        };
        if tc.base.is_zero() && tc.increment.is_zero() && tc.byoyomi.is_zero() {
            return Err(bad("no time at all"));
        }
        Ok(tc)
    }

    /// The `持ち時間` header's text: `10秒+0.1秒`, `600秒+秒読み30秒`, `1000ノード/手`.
    pub fn kif_text(&self) -> String {
        match self.per_move {
            Some(PerMove::Nodes(n)) => return format!("{n}ノード/手"),
            Some(PerMove::Depth(n)) => return format!("深さ{n}/手"),
            None => {}
        }
        let mut s = format!("{}秒", secs_text(self.base));
        if !self.increment.is_zero() {
            s.push_str(&format!("+{}秒", secs_text(self.increment)));
        }
        if !self.byoyomi.is_zero() {
            s.push_str(&format!("+秒読み{}秒", secs_text(self.byoyomi)));
        }
        s
    }
}

/// `10+0.1`, `600+byo30`, `byo3`, `nodes=1000`: what [`TimeControl::parse`] reads back.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.per_move {
            Some(PerMove::Nodes(n)) => return write!(f, "nodes={n}"),
            Some(PerMove::Depth(n)) => return write!(f, "depth={n}"),
            None => {}
        }
        if self.base.is_zero() && self.increment.is_zero() {
            return write!(f, "byo{}", secs_text(self.byoyomi));
        }
        f.write_str(&secs_text(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", secs_text(self.increment))?;
        }
        if !self.byoyomi.is_zero() {
            write!(f, "+byo{}", secs_text(self.byoyomi))?;
        }
        Ok(())
    }
}

/// Seconds with up to three decimals (`0.1`, `600`), no exponent, not negative.
fn seconds(s: &str) -> Option<Duration> {
    let s = s.trim();
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let v: f64 = s.parse().ok()?;
    (v.is_finite() && v <= 1e7).then(|| Duration::from_millis((v * 1000.0).round() as u64))
}

/// `0.1`, `10`, `2.5`: seconds without trailing zeros.
fn secs_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        return (ms / 1000).to_string();
    }
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').to_string()
}

/// Where the clock reads the time: the monotonic clock, or a fake one in tests. The time a
/// program spent suspended (Ctrl-z, told by [`TimeSource::suspended`]) is not part of it, so
/// no clock runs while kifview is stopped.
pub trait TimeSource: Send + Sync {
    /// Time since some fixed origin, less the time suspended; never goes back.
    fn now(&self) -> Duration;
    /// What [`now`](TimeSource::now) said at `when`, a moment already past (the moment the
    /// engine driver read a line, [`crate::engine::Engine::search_ended_at`]).
    fn at(&self, when: Instant) -> Duration;
    /// The program was suspended for the last `away` (up to now): that time is not counted.
    fn suspended(&self, away: Duration);
}

/// `t` (time since the origin) less the parts of the suspensions `away` (intervals since the
/// origin) that came before it.
fn less_away(t: Duration, away: &[(Duration, Duration)]) -> Duration {
    let gone: Duration = away
        .iter()
        .map(|&(from, to)| to.min(t).saturating_sub(from))
        .sum();
    t.saturating_sub(gone)
}

/// The monotonic clock of the machine, less the time suspended.
#[derive(Debug)]
pub struct SystemTime {
    origin: Instant,
    /// The suspensions, as intervals since `origin`.
    away: Mutex<Vec<(Duration, Duration)>>,
}

impl Default for SystemTime {
    fn default() -> SystemTime {
        SystemTime {
            origin: Instant::now(),
            away: Mutex::new(Vec::new()),
        }
    }
}

impl TimeSource for SystemTime {
    fn now(&self) -> Duration {
        self.at(Instant::now())
    }
    fn at(&self, when: Instant) -> Duration {
        let away = self.away.lock().unwrap_or_else(|e| e.into_inner());
        less_away(when.saturating_duration_since(self.origin), &away)
    }
    fn suspended(&self, away: Duration) {
        let to = self.origin.elapsed();
        let mut all = self.away.lock().unwrap_or_else(|e| e.into_inner());
        all.push((to.saturating_sub(away), to));
    }
}

/// A clock that moves only when told: [`FakeTime::advance`]. Clones share the time. It
/// remembers the real moment of each advance, so that [`TimeSource::at`] a real moment is the
/// fake time then: a line an engine sent before an advance was sent at the time before it.
#[derive(Clone, Debug, Default)]
pub struct FakeTime(Arc<Mutex<Fake>>);

#[derive(Debug, Default)]
struct Fake {
    now: Duration,
    /// The real moment of each advance and the fake time it made.
    steps: Vec<(Instant, Duration)>,
    away: Vec<(Duration, Duration)>,
}

impl FakeTime {
    pub fn advance(&self, by: Duration) {
        let mut f = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f.now += by;
        let now = f.now;
        f.steps.push((Instant::now(), now));
    }
}

impl TimeSource for FakeTime {
    fn now(&self) -> Duration {
        let f = self.0.lock().unwrap_or_else(|e| e.into_inner());
        less_away(f.now, &f.away)
    }
    fn at(&self, when: Instant) -> Duration {
        let f = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let then = f
            .steps
            .iter()
            .rev()
            .find(|(at, _)| *at <= when)
            .map_or(Duration::ZERO, |&(_, t)| t);
        less_away(then, &f.away)
    }
    fn suspended(&self, away: Duration) {
        let mut f = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let to = f.now;
        f.away.push((to.saturating_sub(away), to));
    }
}

/// The time a move took, as charged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    pub side: Color,
    pub spent: Duration,
    /// The side's flag fell: it spent more than its main time and byoyomi left.
    pub lost: bool,
}

/// What `go` is told: `btime`, `wtime` (main time left), `byoyomi`, `binc`, `winc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoTimes {
    pub btime: Duration,
    pub wtime: Duration,
    pub byoyomi: Duration,
    pub binc: Duration,
    pub winc: Duration,
}

/// Both sides' time. [`start`](Clock::start) when the position goes to the side to move,
/// [`stop`](Clock::stop) when its move comes: the time between is charged.
/// [`take_back`](Clock::take_back) gives back what the last charges took.
pub struct Clock {
    tc: TimeControl,
    left: [Duration; 2],
    running: Option<(Color, Duration)>,
    source: Arc<dyn TimeSource>,
    /// Both sides' main time before each charge, oldest first.
    before: Vec<[Duration; 2]>,
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Clock")
            .field("tc", &self.tc)
            .field("left", &self.left)
            .field("running", &self.running)
            .finish()
    }
}

impl Clock {
    pub fn new(tc: TimeControl, source: Arc<dyn TimeSource>) -> Clock {
        Clock {
            tc,
            left: [tc.base; 2],
            running: None,
            source,
            before: Vec::new(),
        }
    }

    pub fn time_control(&self) -> TimeControl {
        self.tc
    }

    /// `side`'s turn begins now (the position was sent).
    pub fn start(&mut self, side: Color) {
        self.running = Some((side, self.source.now()));
    }

    /// Whose time runs, since when.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// The running side's move came now: charges it the time since [`start`](Clock::start).
    /// None when no side's time ran.
    pub fn stop(&mut self) -> Option<Charge> {
        self.stop_at(self.source.now())
    }

    /// The running side's move was received at `when` (the moment the engine driver read
    /// `bestmove`, however later its owner got to it): charges it the time from
    /// [`start`](Clock::start) to then.
    pub fn stop_received(&mut self, when: Instant) -> Option<Charge> {
        self.stop_at(self.source.at(when))
    }

    fn stop_at(&mut self, at: Duration) -> Option<Charge> {
        let (side, since) = self.running.take()?;
        Some(self.charge(side, at.saturating_sub(since)))
    }

    /// The running side's time stops without a charge (its move is taken back).
    pub fn cancel(&mut self) {
        self.running = None;
    }

    /// Gives back the last `n` charges: both sides' time is what it was before them, and no
    /// side's time runs. False (nothing changed) when fewer were made.
    pub fn take_back(&mut self, n: usize) -> bool {
        let Some(keep) = self.before.len().checked_sub(n) else {
            return false;
        };
        self.running = None;
        if n > 0 {
            self.left = self.before[keep];
            self.before.truncate(keep);
        }
        true
    }

    /// Charges `side` `spent` (as [`stop`](Clock::stop) does, for a time measured elsewhere).
    pub fn charge(&mut self, side: Color, spent: Duration) -> Charge {
        self.before.push(self.left);
        if !self.tc.timed() {
            return Charge {
                side,
                spent,
                lost: false,
            };
        }
        let left = &mut self.left[side.index()];
        let lost = spent > *left + self.tc.byoyomi;
        *left = left.saturating_sub(spent);
        if !lost {
            *left += self.tc.increment;
        }
        Charge { side, spent, lost }
    }

    /// `side`'s main time left now (counting down while its time runs).
    pub fn main_left(&self, side: Color) -> Duration {
        let left = self.left[side.index()];
        match self.running {
            Some((c, since)) if c == side => {
                left.saturating_sub(self.source.now().saturating_sub(since))
            }
            _ => left,
        }
    }

    /// What is left of the running side's byoyomi for this move (the whole byoyomi while its
    /// main time lasts, and for the side not to move).
    pub fn byoyomi_left(&self, side: Color) -> Duration {
        let left = self.left[side.index()];
        match self.running {
            Some((c, since)) if c == side => {
                let spent = self.source.now().saturating_sub(since);
                (left + self.tc.byoyomi).saturating_sub(spent.max(left))
            }
            _ => self.tc.byoyomi,
        }
    }

    /// How long `side` may take for its move from the start of its turn before its flag falls.
    /// None when no clock runs.
    pub fn allowed(&self, side: Color) -> Option<Duration> {
        self.tc
            .timed()
            .then(|| self.left[side.index()] + self.tc.byoyomi)
    }

    /// Has the running side's flag fallen by now?
    pub fn flag_fell(&self) -> bool {
        match (self.running, self.tc.timed()) {
            (Some((c, since)), true) => {
                self.source.now().saturating_sub(since) > self.left[c.index()] + self.tc.byoyomi
            }
            _ => false,
        }
    }

    /// The time figures for `go` as they are.
    pub fn go_times(&self) -> GoTimes {
        GoTimes {
            btime: self.left[0],
            wtime: self.left[1],
            byoyomi: self.tc.byoyomi,
            binc: self.tc.increment,
            winc: self.tc.increment,
        }
    }

    /// The time figures `side`'s engine is told for `go`: [`go_times`](Clock::go_times) less
    /// the [`safety_margin`] of the time it moves on (its byoyomi, else its main time).
    pub fn told(&self, side: Color) -> GoTimes {
        let mut t = self.go_times();
        let main = match side {
            Color::Black => &mut t.btime,
            Color::White => &mut t.wtime,
        };
        if t.byoyomi.is_zero() {
            *main -= safety_margin(*main);
        } else {
            t.byoyomi -= safety_margin(t.byoyomi);
        }
        t
    }
}

/// The one rule for an engine's time, in the viewer's games and in `kifview match`: an engine
/// is told a fifth less than it has, at most a second less ([`Clock::told`]: byoyomi 3 s goes
/// out as 2.4 s, 30 s as 29 s), so that one that overshoots on a loaded machine (gpsusi told
/// 3000 ms took 3.3 s at a load of 15) still moves in time. The clock charges what it really
/// took, and its flag falls at what it really has; a runner with no one watching
/// (`kifview match`) waits [`HANG_GRACE`] (its `--margin`) past the fall before it kills the
/// engine as hung.
pub fn safety_margin(t: Duration) -> Duration {
    (t / 5).min(Duration::from_secs(1))
}

/// How long past its flag's fall an engine that has not answered is waited for before it is
/// taken for hung and killed (`kifview match --margin`'s default); it has lost on time anyway.
pub const HANG_GRACE: Duration = Duration::from_secs(1);

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_and_shows_every_kind() {
        for (text, tc) in [
            ("10+0.1", TimeControl::fischer(ms(10_000), ms(100))),
            ("600", TimeControl::sudden_death(ms(600_000))),
            ("600+byo30", TimeControl::byoyomi(ms(600_000), ms(30_000))),
            ("byo3", TimeControl::byoyomi(ms(0), ms(3000))),
            ("0.5+0.05", TimeControl::fischer(ms(500), ms(50))),
            ("nodes=1000", TimeControl::nodes(1000)),
            ("depth=8", TimeControl::depth(8)),
        ] {
            assert_eq!(TimeControl::parse(text), Ok(tc), "{text}");
            assert_eq!(tc.to_string(), text);
        }
        assert_eq!(
            TimeControl::parse("10+0.1").unwrap().kif_text(),
            "10秒+0.1秒"
        );
        assert_eq!(
            TimeControl::parse("600+byo30").unwrap().kif_text(),
            "600秒+秒読み30秒"
        );
        for bad in [
            "", "abc", "10+x", "-1", "0", "1e3", "nodes=0", "nodes=x", "byo", "10+byo",
        ] {
            let err = TimeControl::parse(bad).unwrap_err();
            assert!(err.contains("expected 10+0.1"), "{bad}: {err}");
        }
    }

    #[test]
    fn fischer_charges_and_adds_the_increment() {
        let t = FakeTime::default();
        let mut c = Clock::new(TimeControl::parse("10+0.1").unwrap(), Arc::new(t.clone()));
        c.start(Color::Black);
        t.advance(ms(2500));
        assert_eq!(c.main_left(Color::Black), ms(7500));
        assert_eq!(c.main_left(Color::White), ms(10_000));
        let charge = c.stop().unwrap();
        assert_eq!(charge.spent, ms(2500));
        assert!(!charge.lost);
        assert_eq!(c.main_left(Color::Black), ms(7600));
        let go = c.go_times();
        assert_eq!(
            (go.btime, go.wtime, go.binc),
            (ms(7600), ms(10_000), ms(100))
        );
        // Gote overruns its 10 s: the flag falls, no increment.
        c.start(Color::White);
        t.advance(ms(10_001));
        assert!(c.flag_fell());
        let charge = c.stop().unwrap();
        assert!(charge.lost);
        assert_eq!(c.main_left(Color::White), ms(0));
        assert_eq!(c.stop(), None, "nothing runs");
    }

    #[test]
    fn byoyomi_is_per_move_after_the_main_time() {
        let t = FakeTime::default();
        let mut c = Clock::new(TimeControl::parse("1+byo3").unwrap(), Arc::new(t.clone()));
        c.start(Color::Black);
        t.advance(ms(500));
        assert_eq!(c.byoyomi_left(Color::Black), ms(3000));
        t.advance(ms(1500)); // 2 s: 1 s into byoyomi
        assert_eq!(c.main_left(Color::Black), ms(0));
        assert_eq!(c.byoyomi_left(Color::Black), ms(2000));
        assert!(!c.stop().unwrap().lost);
        // Each later move has 3 s, whole.
        for _ in 0..3 {
            c.start(Color::Black);
            t.advance(ms(3000));
            assert!(!c.flag_fell());
            assert!(!c.stop().unwrap().lost);
        }
        assert_eq!(c.allowed(Color::Black), Some(ms(3000)));
        c.start(Color::Black);
        t.advance(ms(3001));
        assert!(c.flag_fell());
        assert!(c.stop().unwrap().lost);
    }

    #[test]
    fn sudden_death_and_nodes() {
        let t = FakeTime::default();
        let mut c = Clock::new(TimeControl::parse("5").unwrap(), Arc::new(t.clone()));
        c.start(Color::White);
        t.advance(ms(5000));
        assert!(!c.stop().unwrap().lost, "exactly the time left is in time");
        c.start(Color::White);
        t.advance(ms(1));
        assert!(c.stop().unwrap().lost);
        let mut c = Clock::new(TimeControl::nodes(100), Arc::new(t.clone()));
        c.start(Color::Black);
        t.advance(ms(3_600_000));
        assert!(!c.flag_fell());
        let charge = c.stop().unwrap();
        assert_eq!((charge.spent, charge.lost), (ms(3_600_000), false));
        assert_eq!(c.allowed(Color::Black), None);
    }

    #[test]
    fn take_back_gives_the_charges_back() {
        let t = FakeTime::default();
        let mut c = Clock::new(TimeControl::parse("60+1").unwrap(), Arc::new(t.clone()));
        for (side, secs) in [(Color::Black, 5), (Color::White, 7), (Color::Black, 11)] {
            c.start(side);
            t.advance(ms(secs * 1000));
            c.stop();
        }
        assert_eq!(c.go_times().btime, ms(60_000 - 16_000 + 2000));
        c.start(Color::White);
        t.advance(ms(3000));
        assert!(c.take_back(2), "gote's move and sente's reply");
        assert_eq!(c.running(), None, "the thinking side's time is not charged");
        assert_eq!(
            (c.main_left(Color::Black), c.main_left(Color::White)),
            (ms(56_000), ms(60_000))
        );
        assert!(!c.take_back(2), "one charge is left");
        assert!(c.take_back(1));
        assert_eq!(c.go_times().btime, ms(60_000));
    }

    #[test]
    fn time_suspended_is_not_charged_and_a_received_move_is_charged_when_it_came() {
        let t = FakeTime::default();
        let mut c = Clock::new(TimeControl::parse("byo10").unwrap(), Arc::new(t.clone()));
        c.start(Color::Black);
        t.advance(ms(2000));
        t.advance(ms(60_000));
        t.suspended(ms(60_000));
        assert!(!c.flag_fell(), "a minute suspended does not count");
        assert_eq!(c.byoyomi_left(Color::Black), ms(8000));
        t.advance(ms(1000));
        let came = Instant::now();
        t.advance(ms(5000));
        assert_eq!(c.stop_received(came).map(|c| c.spent), Some(ms(3000)));
        let s = SystemTime::default();
        s.suspended(Duration::from_secs(3600));
        assert!(s.now() < Duration::from_secs(1), "{:?}", s.now());
    }

    #[test]
    fn an_engine_is_told_a_fifth_less_at_most_a_second() {
        let t: Arc<dyn TimeSource> = Arc::new(FakeTime::default());
        let told =
            |tc: &str, side| Clock::new(TimeControl::parse(tc).unwrap(), t.clone()).told(side);
        let g = told("byo3", Color::White);
        assert_eq!((g.btime, g.wtime, g.byoyomi), (ms(0), ms(0), ms(2400)));
        let g = told("600+byo30", Color::Black);
        assert_eq!(
            (g.btime, g.wtime, g.byoyomi),
            (ms(600_000), ms(600_000), ms(29_000))
        );
        let g = told("2+0.1", Color::White);
        assert_eq!((g.btime, g.wtime, g.winc), (ms(2000), ms(1600), ms(100)));
    }
}
