//! The terminal front end: run loop, event conversion (`event`), layout (`ui`), one widget
//! per pane (`widgets`), drawing helpers (`draw`), render-only state (`view`), theme.

pub mod draw;
pub mod event;
pub mod text;
pub mod theme;
pub mod ui;
pub mod view;
pub mod wake;
pub mod widgets;

use crate::app::{App, Config, Drawn, Input, LaunchOptions, config::AmbiguousWidth, update_on};
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
};
use ratatui::Frame;
use std::io::Write;
use std::time::{Duration, Instant};
use theme::Theme;
use view::ViewState;

/// The shortest time between two frames drawn for the engine (at most ~30 per second); a
/// key is drawn at once.
const FRAME: Duration = Duration::from_millis(33);
/// How long a save may hold the screen before it goes on in the background with its
/// progress on the status line.
const SAVE_BLOCKS_FOR: Duration = Duration::from_millis(100);

/// The app with what the terminal side needs to draw it.
pub struct Viewer {
    pub app: App,
    pub theme: Theme,
    /// The front end's own render state: where things were drawn, the lists' offsets, how
    /// far each pane scrolls (`view::ViewState`), from frame to frame.
    pub view: ViewState,
    /// The sizes last handed to the app (`Drawn`), with an input or after a frame.
    handed: Option<Drawn>,
}

impl Viewer {
    pub fn new(app: App, theme: Theme) -> Viewer {
        Viewer {
            app,
            theme,
            view: ViewState::default(),
            handed: None,
        }
    }
    /// Draws a frame from `&App` into the front end's own state: drawing changes nothing in
    /// the app (what a key needs of the frame goes with the next input: `handle`).
    pub fn draw(&mut self, frame: &mut Frame) {
        ui::draw(frame, &self.app, &self.theme, &mut self.view);
    }
    /// After a frame, from the run loop: when it drew other sizes than the app was last
    /// handed (a resize, the library shown), hands them over as an input of their own, so
    /// that the library fetches the rows it shows now. True when that changed what is shown.
    pub fn hand_over_sizes(&mut self) -> bool {
        let drawn = self.view.drawn();
        if self.handed == Some(drawn) {
            return false;
        }
        self.handed = Some(drawn);
        self.app.take_drawn(drawn)
    }
    /// Handles one terminal event, with what the last frame drew (a page's rows, how far
    /// each pane scrolls).
    pub fn handle(&mut self, ev: &Event) {
        let drawn = self.view.drawn();
        self.handed = Some(drawn);
        match ev {
            Event::Key(k) => {
                if let Some(key) = event::to_key_event(k) {
                    update_on(&mut self.app, drawn, key);
                }
            }
            Event::Mouse(m) => {
                if let Some(a) = event::mouse_action(&self.app, &self.view, m) {
                    update_on(&mut self.app, drawn, a);
                }
            }
            Event::Paste(text) => {
                update_on(&mut self.app, drawn, Input::Paste(text.clone()));
            }
            // A resize redraws anyway (and the frame's new sizes are handed over after it:
            // `hand_over_sizes`); focus changes mean nothing here.
            Event::Resize(..) | Event::FocusGained | Event::FocusLost => {}
        }
    }
}

/// Is `NO_COLOR` set (to anything non-empty)?
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Asks the terminal how wide it draws `▲` (needs raw mode). Falls back to single width.
fn probe_ambiguous_width() -> bool {
    let mut out = std::io::stdout();
    let ok = crossterm::execute!(
        out,
        crossterm::cursor::MoveTo(0, 0),
        crossterm::style::Print("▲")
    )
    .is_ok();
    let double = ok && matches!(crossterm::cursor::position(), Ok((2, _)));
    let _ = crossterm::execute!(
        out,
        crossterm::cursor::MoveTo(0, 0),
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
    );
    double
}

/// The signals that end kifview from outside (`kill`, a closed terminal): the viewer notices
/// them between events, keeps unsaved edits in a recovery file, restores the terminal and
/// exits with 128 + the signal's number, as a shell expects.
mod signals {
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

    static RECEIVED: AtomicI32 = AtomicI32::new(0);

    extern "C" fn note(sig: libc::c_int) {
        // Only an atomic store: all a signal handler may safely do.
        RECEIVED.store(sig, Ordering::SeqCst);
    }

    /// Catches SIGTERM, SIGHUP, SIGQUIT and SIGINT from now on, and starts a watchdog: when a signal
    /// came and the run loop has not ended the process within three seconds (a hung-up
    /// terminal can keep a terminal read spinning on end-of-file inside crossterm), it ends
    /// the process itself with 128 + the signal.
    pub fn install() {
        std::thread::spawn(|| {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(200));
                if let Some(sig) = received() {
                    std::thread::sleep(std::time::Duration::from_secs(3));
                    // SAFETY: _exit ends the process at once; nothing is left half-done that
                    // the run loop could still finish (it would have exited by now).
                    unsafe { libc::_exit(128 + sig) };
                }
            }
        });
        // SIGINT too: in raw mode Ctrl-c is a key, so a SIGINT comes from outside (`kill -INT`,
        // `timeout -s INT`, a supervisor, an IDE's stop button) and ends kifview as SIGTERM does.
        for sig in [libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT, libc::SIGINT] {
            // SAFETY: `note` is async-signal-safe (one atomic store); the struct is zeroed
            // and then filled as sigaction(2) asks.
            unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = note as *const () as usize;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(sig, &sa, std::ptr::null_mut());
            }
        }
    }

    /// A hang-up seen on the terminal counts as SIGHUP (which may still be on its way).
    pub fn note_hangup() {
        let _ = RECEIVED.compare_exchange(0, libc::SIGHUP, Ordering::SeqCst, Ordering::SeqCst);
    }

    static STOP: AtomicBool = AtomicBool::new(false);
    static CONT: AtomicBool = AtomicBool::new(false);

    extern "C" fn note_stop(_: libc::c_int) {
        STOP.store(true, Ordering::SeqCst);
    }

    extern "C" fn note_cont(_: libc::c_int) {
        CONT.store(true, Ordering::SeqCst);
    }

    /// Sets `handler` for `sig` (`libc::SIG_DFL` for the default action).
    fn set_handler(sig: libc::c_int, handler: libc::sighandler_t) {
        // SAFETY: the handlers given are async-signal-safe (one atomic store) or SIG_DFL; the
        // struct is zeroed and then filled as sigaction(2) asks.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = handler;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }

    /// SIGCONT as a set of one signal.
    fn cont_set() -> libc::sigset_t {
        // SAFETY: a zeroed sigset_t emptied and filled as sigsetops(3) asks.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGCONT);
            set
        }
    }

    /// Holds SIGCONT back (blocked) in this thread and in every thread started from it later:
    /// called first thing, before kifview starts any thread. A SIGCONT that is caught runs its
    /// handler on whichever thread the kernel picks, often not the main one and after the main
    /// thread went on from its stop (100 stops of a process with one sleeping thread besides
    /// the main one: the handler came late 59 times), so the main thread could not tell
    /// whether it had been stopped. Blocked in every thread, a SIGCONT still continues the
    /// process (POSIX) and stays pending until the run loop takes it (`take_cont`). A mask is
    /// inherited through exec: engines clear it as they start (`engine::process`).
    pub fn hold_cont() {
        // SAFETY: pthread_sigmask with a valid set; only SIGCONT is added to the mask.
        unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &cont_set(), std::ptr::null_mut()) };
    }

    /// Catches SIGTSTP (`kill -TSTP`: suspend as Ctrl-z does, the terminal given back
    /// first) and SIGCONT (continued after any stop, even SIGSTOP: redraw everything). With
    /// SIGCONT held back (`hold_cont`) its handler only runs on a thread that did not hold it
    /// back (none of kifview's); a caught signal stays pending while it is blocked.
    pub fn install_job_control() {
        set_handler(libc::SIGTSTP, note_stop as *const () as usize);
        set_handler(libc::SIGCONT, note_cont as *const () as usize);
    }

    /// Was SIGTSTP received since the last call?
    pub fn take_stop() -> bool {
        STOP.swap(false, Ordering::SeqCst)
    }

    /// Was SIGCONT received since the last call? Takes a pending (held back) one.
    pub fn take_cont() -> bool {
        let caught = CONT.swap(false, Ordering::SeqCst);
        // SAFETY: sigpending fills a valid set; sigwait takes SIGCONT, which is pending and
        // blocked in this thread, so it returns at once.
        let pending = unsafe {
            let mut pending: libc::sigset_t = std::mem::zeroed();
            let mut sig = 0;
            libc::sigpending(&mut pending) == 0
                && libc::sigismember(&pending, libc::SIGCONT) == 1
                && libc::sigwait(&cont_set(), &mut sig) == 0
        };
        caught || pending
    }

    /// Stops kifview as the terminal's Ctrl-z would (SIGTSTP with its default action, to the
    /// whole process group, as a shell expects of a job) and returns once it is continued
    /// (`fg`). False when it was not stopped: with no job control (a process group no shell
    /// watches) the kernel drops the signal.
    pub fn stop_self() -> bool {
        // An earlier continue is not this one.
        take_cont();
        set_handler(libc::SIGTSTP, libc::SIG_DFL);
        // SAFETY: kill with pid 0 signals our own process group; a signal sent to ourselves
        // is delivered before kill returns, so the process stops here until SIGCONT, which
        // is pending (held back: `hold_cont`) by the time this thread runs again.
        unsafe { libc::kill(0, libc::SIGTSTP) };
        set_handler(libc::SIGTSTP, note_stop as *const () as usize);
        STOP.store(false, Ordering::SeqCst);
        take_cont()
    }

    /// Stops (`false`: continues) the process groups led by `pids` (the engines).
    pub fn pause_groups(pids: &[u32], pause: bool) {
        let sig = if pause { libc::SIGSTOP } else { libc::SIGCONT };
        for &pid in pids {
            // SAFETY: signalling the process group of a child we started (its own group).
            unsafe { libc::kill(-(pid as libc::pid_t), sig) };
        }
    }

    /// The signal received, if any.
    pub fn received() -> Option<i32> {
        match RECEIVED.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }

    pub fn name(sig: i32) -> &'static str {
        match sig {
            libc::SIGTERM => "SIGTERM",
            libc::SIGHUP => "SIGHUP",
            libc::SIGQUIT => "SIGQUIT",
            libc::SIGINT => "SIGINT",
            _ => "a signal",
        }
    }
}

/// Suspends kifview (Ctrl-z, or SIGTSTP from outside): gives the terminal back as on quit
/// (mouse and bracketed paste off, raw mode off, the alternate screen left), stops the
/// engines' process groups and itself, and on `fg` takes the terminal again and redraws
/// everything. The engines pause with kifview (no CPU while suspended) and go on where they
/// were; their deadlines move on by the time away.
fn suspend(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> anyhow::Result<()> {
    let mut out = std::io::stdout();
    let _ = crossterm::execute!(out, DisableBracketedPaste, DisableMouseCapture);
    ratatui::restore();
    let _ = crossterm::execute!(out, crossterm::cursor::Show);
    let _ = out.flush();
    let engines = app.engine_pids();
    signals::pause_groups(&engines, true);
    let since = Instant::now();
    let stopped = signals::stop_self();
    signals::pause_groups(&engines, false);
    resume_terminal(terminal)?;
    if stopped {
        app.resumed(since.elapsed());
    } else {
        app.info_level(
            "not suspended: nothing here can bring kifview back (no job control); q quits".into(),
            crate::app::Level::Warning,
        );
    }
    Ok(())
}

/// Takes the terminal again after a stop (raw mode, the alternate screen, mouse, bracketed
/// paste) and makes the next frame redraw every cell.
fn resume_terminal(terminal: &mut ratatui::DefaultTerminal) -> anyhow::Result<()> {
    crossterm::terminal::enable_raw_mode()?;
    crossterm::execute!(
        std::io::stdout(),
        crossterm::terminal::EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )?;
    // A resize to the present size clears the screen and forgets the last frame (`clear`
    // would ask the terminal for the cursor position, which not every terminal answers).
    let size = terminal.size()?;
    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))?;
    Ok(())
}

/// How often the run loop looks for a signal while no input comes (a SIGCONT after a SIGSTOP
/// is held back and does not end the wait: the screen is redrawn within this time).
const SIGNAL_CHECK: Duration = Duration::from_millis(200);

/// Runs the full-screen viewer until the user quits. The terminal is restored on quit, on
/// error, on panic and on the signals that end a program (with unsaved edits kept in a
/// recovery file first), and while kifview is suspended (Ctrl-z, SIGTSTP; see `suspend`).
pub fn run(opts: LaunchOptions) -> anyhow::Result<()> {
    // Before any thread starts: every thread inherits it.
    signals::hold_cont();
    let config = Config::load(opts.config.as_deref())?;
    let app = App::open(&opts, config)?;
    let mut terminal = ratatui::try_init()?;
    signals::install();
    signals::install_job_control();
    install_panic_hook();
    let mut ended_by: Option<EndedBy> = None;
    let result = start_viewer(app, opts.watch)
        .and_then(|viewer| run_loop(&mut terminal, viewer, &mut ended_by));
    let _ = crossterm::execute!(
        std::io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture
    );
    ratatui::restore();
    let _ = std::io::stdout().flush();
    // The engine quits after the screen is back (`quit`, killed if it lingers); ended by a
    // signal, it is killed at once (dropped: 200 ms for `quit`), well within the watchdog's
    // time, and its guardian kills its process group whatever happens.
    let result = result.map(|mut v| {
        if ended_by.is_none() {
            v.app.shutdown_engine();
            v.app.end_session();
            // The training's last attempts, written before kifview exits.
            v.app.train_settle();
        }
    });
    if let Some((sig, kept)) = ended_by {
        say_ended_by(sig, kept);
        std::process::exit(128 + sig);
    }
    result
}

/// A signal that ended kifview, and where the unsaved edits of each document went (none:
/// nothing was unsaved).
type EndedBy = (
    i32,
    Vec<(String, Result<crate::app::document::Kept, String>)>,
);

/// A panic gives the terminal's mouse and paste modes back before it prints.
fn install_panic_hook() {
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(
            std::io::stdout(),
            DisableBracketedPaste,
            DisableMouseCapture
        );
        prev(info);
    }));
}

/// The viewer on the terminal just taken: mouse and paste on, the theme for its width of
/// ambiguous characters, saves in the background, the file followed when asked.
fn start_viewer(app: App, watch: bool) -> anyhow::Result<Viewer> {
    crossterm::execute!(std::io::stdout(), EnableMouseCapture, EnableBracketedPaste)?;
    let double = match app.config().ambiguous_width {
        AmbiguousWidth::Single => false,
        AmbiguousWidth::Double => true,
        AmbiguousWidth::Auto => probe_ambiguous_width(),
    };
    // (No `terminal.clear()`: it asks the terminal for the cursor position, which not
    // every terminal answers; the alternate screen starts blank.)
    let theme = Theme::new(app.config(), !no_color(), double);
    let mut viewer = Viewer::new(app, theme);
    viewer.app.set_background_saves(SAVE_BLOCKS_FOR);
    if watch {
        crate::app::document::watch::start(&mut viewer.app);
    }
    Ok(viewer)
}

/// What the run loop keeps between two turns.
struct Turns {
    /// Something changed since the last frame.
    dirty: bool,
    /// Draw at once (a key was pressed), not at the next frame's time.
    now_please: bool,
    last_draw: Instant,
    /// The last turn read an event: crossterm may hold more.
    just_read: bool,
}

impl Turns {
    /// How long to wait for input or a worker's event (the engine's too): until a frame is
    /// due or the app's nearest deadline (`App::next_look`: an engine's timeout, the debounce
    /// of research mode, a progress shown); never long, so that a signal is noticed between
    /// two waits.
    fn wait(&self, app: &App) -> Duration {
        // After an event crossterm may hold more it already read (a paste, keys typed fast):
        // take those before waiting on the terminal again.
        if self.just_read {
            return Duration::ZERO;
        }
        let mut wait = SIGNAL_CHECK;
        if let Some(look) = app.next_look() {
            wait = wait.min(look);
        }
        if self.dirty {
            wait = wait.min(FRAME.saturating_sub(self.last_draw.elapsed()));
        }
        wait
    }
}

/// Handles events and draws until the user quits (once the saves have ended) or a signal
/// ends kifview (`ended_by` says which, and where the unsaved edits went).
fn run_loop(
    terminal: &mut ratatui::DefaultTerminal,
    mut viewer: Viewer,
    ended_by: &mut Option<EndedBy>,
) -> anyhow::Result<Viewer> {
    let wake = wake::Wake::new()?;
    viewer.app.connect_events(wake.events());
    let mut t = Turns {
        dirty: true,
        now_please: true,
        last_draw: Instant::now(),
        just_read: false,
    };
    // A running save ends before kifview does.
    while !viewer.app.should_quit() || viewer.app.save_running() {
        if let Some(sig) = signals::received() {
            *ended_by = Some((sig, viewer.app.keep_unsaved_edits()));
            break;
        }
        // Ctrl-z or SIGTSTP: suspend; SIGCONT after a stop kifview did not see (SIGSTOP):
        // take the terminal again and redraw everything.
        if viewer.app.take_suspend_request() || signals::take_stop() {
            suspend(terminal, &mut viewer.app)?;
            (t.dirty, t.now_please) = (true, true);
        } else if signals::take_cont() {
            resume_terminal(terminal)?;
            (t.dirty, t.now_please) = (true, true);
        }
        if t.dirty && (t.now_please || t.last_draw.elapsed() >= FRAME) {
            terminal.draw(|f| viewer.draw(f))?;
            (t.dirty, t.now_please) = (false, false);
            t.last_draw = Instant::now();
            t.dirty |= viewer.hand_over_sizes();
        }
        // One wait for the terminal and every worker. A terminal that hung up is seen here,
        // before crossterm would read its end of file over and over.
        let look = viewer.app.next_look().is_some();
        if wake.wait(t.wait(&viewer.app), true) == wake::Woken::HungUp {
            signals::note_hangup();
            continue;
        }
        for event in wake.take() {
            t.dirty |= viewer.app.handle_event(event);
        }
        if look {
            t.dirty |= viewer.app.look();
        }
        let ready = match crossterm::event::poll(Duration::ZERO) {
            Ok(r) => r,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => false,
            Err(e) => return Err(e.into()),
        };
        if signals::received().is_some() {
            continue;
        }
        t.just_read = ready;
        if ready {
            viewer.handle(&crossterm::event::read()?);
            (t.dirty, t.now_please) = (true, true);
            viewer.app.after_input();
            if let Some(text) = viewer.app.take_clipboard() {
                crossterm::execute!(
                    std::io::stdout(),
                    crossterm::clipboard::CopyToClipboard::to_clipboard_from(text)
                )?;
            }
        }
    }
    Ok(viewer)
}

/// On standard error, after the screen is back: which signal ended kifview, and where the
/// unsaved edits of each document are.
fn say_ended_by(sig: i32, kept: Vec<(String, Result<crate::app::document::Kept, String>)>) {
    let name = signals::name(sig);
    if kept.is_empty() {
        eprintln!("kifview: ended by {name}; nothing was unsaved");
    }
    for (doc, kept) in kept {
        let doc = crate::core::text::sanitize(&doc);
        match kept {
            Ok(kept) => eprintln!(
                "kifview: ended by {name}; the unsaved edits of {doc} are in {kept} (opening the file again offers them)"
            ),
            Err(e) => eprintln!(
                "kifview: ended by {name}; the unsaved edits of {doc} could not be kept: {e}"
            ),
        }
    }
}
