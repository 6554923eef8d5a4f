//! Finding an engine: configured ones first, then known engines on `PATH` and in the
//! directories Debian and others install games to (often not on `PATH`).

use super::EngineSpec;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Known engines, best first: YaneuraOu builds (by file-name prefix), Fairy-Stockfish, gpsusi.
pub const KNOWN: [&str; 3] = ["YaneuraOu*", "fairy-stockfish", "gpsusi"];

/// Where to look besides `PATH`.
pub const EXTRA_DIRS: [&str; 2] = ["/usr/games", "/usr/local/games"];

/// The message for a user without any engine.
pub const NO_ENGINE: &str = "no USI engine found (looked for YaneuraOu*, fairy-stockfish and \
gpsusi on PATH and in /usr/games). Install one, e.g. `sudo apt install fairy-stockfish`, or add \
an [[engines]] entry (name, command, args, dir, options) to the config file";

/// The directories searched: `PATH`'s, then [`EXTRA_DIRS`], each once.
fn search_dirs(path_var: Option<OsString>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = path_var
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(EXTRA_DIRS.iter().map(PathBuf::from));
    let mut seen = Vec::new();
    dirs.retain(|d| {
        !d.as_os_str().is_empty() && {
            let new = !seen.contains(d);
            seen.push(d.clone());
            new
        }
    });
    dirs
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Files in `dir` matching a known name (`YaneuraOu*`: any executable whose name starts so),
/// sorted by name.
fn matches_in(dir: &Path, pattern: &str) -> Vec<PathBuf> {
    if let Some(prefix) = pattern.strip_suffix('*') {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
            .map(|e| e.path())
            .filter(|p| is_executable(p))
            .collect();
        found.sort();
        found
    } else {
        let p = dir.join(pattern);
        if is_executable(&p) {
            vec![p]
        } else {
            Vec::new()
        }
    }
}

/// A spec for an engine found at `path`. YaneuraOu builds look for their eval files relative
/// to the working directory, so they run in their own directory.
fn spec_for(path: PathBuf) -> EngineSpec {
    let mut spec = EngineSpec::new(&path);
    spec.name = spec.display_name();
    if spec.name.starts_with("YaneuraOu") {
        spec.dir = path.parent().map(Path::to_path_buf);
    }
    spec
}

/// The full path of a bare command name (`fairy-stockfish`) found on `PATH` or in
/// [`EXTRA_DIRS`]; None for a name with a `/` or one found nowhere.
pub fn locate(command: &Path) -> Option<PathBuf> {
    let name = command.to_str()?;
    if name.contains('/') || name.is_empty() {
        return None;
    }
    search_dirs(std::env::var_os("PATH"))
        .iter()
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

/// Every known engine installed, best first, each found once (first directory wins).
pub fn discover() -> Vec<EngineSpec> {
    discover_in(&search_dirs(std::env::var_os("PATH")))
}

fn discover_in(dirs: &[PathBuf]) -> Vec<EngineSpec> {
    let mut out: Vec<EngineSpec> = Vec::new();
    for pattern in KNOWN {
        for dir in dirs {
            for p in matches_in(dir, pattern) {
                let spec = spec_for(p);
                if !out.iter().any(|s| s.name == spec.name) {
                    out.push(spec);
                }
            }
        }
    }
    out
}

/// The engine to use: `choice` (from `--engine`) if given, else the first configured one,
/// else the first known engine installed. `Err` holds a message for the user.
///
/// `choice` may be a configured engine's name (any case), a path (it has a `/`), or a
/// command name looked up on `PATH` and in `/usr/games` (`fairy-stockfish` works even when
/// `/usr/games` is not on `PATH`).
pub fn resolve(choice: Option<&str>, configured: &[EngineSpec]) -> Result<EngineSpec, String> {
    resolve_in(choice, configured, &search_dirs(std::env::var_os("PATH")))
}

fn resolve_in(
    choice: Option<&str>,
    configured: &[EngineSpec],
    dirs: &[PathBuf],
) -> Result<EngineSpec, String> {
    let Some(choice) = choice.map(str::trim).filter(|c| !c.is_empty()) else {
        if let Some(first) = configured.first() {
            return Ok(first.clone());
        }
        return discover_in(dirs)
            .into_iter()
            .next()
            .ok_or_else(|| NO_ENGINE.to_string());
    };
    if let Some(spec) = configured
        .iter()
        .find(|s| s.display_name().eq_ignore_ascii_case(choice))
    {
        return Ok(spec.clone());
    }
    if choice.contains('/') {
        let p = PathBuf::from(choice);
        return if is_executable(&p) {
            Ok(spec_for(p))
        } else if p.exists() {
            Err(format!("engine {choice} is not an executable file"))
        } else {
            Err(format!("engine {choice} does not exist"))
        };
    }
    if let Some(p) = dirs.iter().flat_map(|d| matches_in(d, choice)).next() {
        return Ok(spec_for(p));
    }
    let mut names: Vec<String> = configured.iter().map(EngineSpec::display_name).collect();
    names.extend(discover_in(dirs).iter().map(EngineSpec::display_name));
    let known = if names.is_empty() {
        format!("; {NO_ENGINE}")
    } else {
        format!(" (available: {})", names.join(", "))
    };
    Err(format!(
        "no engine named {choice} in the config, on PATH or in /usr/games{known}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn exe(dir: &Path, name: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    #[test]
    fn finds_known_engines_best_first_and_by_name_outside_path() {
        let a = tempfile::tempdir().unwrap();
        let games = tempfile::tempdir().unwrap();
        exe(games.path(), "gpsusi");
        exe(games.path(), "fairy-stockfish");
        let yane = exe(a.path(), "YaneuraOu_NNUE-avx2");
        std::fs::write(a.path().join("YaneuraOu.txt"), "not executable").unwrap();
        exe(a.path(), "fairy-stockfish-not-known");
        let dirs = vec![a.path().to_path_buf(), games.path().to_path_buf()];
        let found = discover_in(&dirs);
        let names: Vec<_> = found.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["YaneuraOu_NNUE-avx2", "fairy-stockfish", "gpsusi"]);
        assert_eq!(found[0].command, yane);
        assert_eq!(found[0].dir.as_deref(), Some(a.path()));
        assert_eq!(found[1].dir, None);

        let fsf = resolve_in(Some("fairy-stockfish"), &[], &dirs).unwrap();
        assert_eq!(fsf.command, games.path().join("fairy-stockfish"));
        let default = resolve_in(None, &[], &dirs[1..]).unwrap();
        assert_eq!(default.name, "fairy-stockfish");
    }

    #[test]
    fn configured_engines_come_first_and_match_by_name() {
        let mut yane = EngineSpec::new("/opt/yane/YaneuraOu");
        yane.name = "Yane".into();
        let conf = vec![yane.clone(), EngineSpec::new("/usr/games/gpsusi")];
        assert_eq!(resolve_in(None, &conf, &[]).unwrap(), yane);
        assert_eq!(resolve_in(Some("yane"), &conf, &[]).unwrap(), yane);
        assert_eq!(resolve_in(Some("GPSUSI"), &conf, &[]).unwrap(), conf[1]);
    }

    #[test]
    fn helpful_messages_when_nothing_fits() {
        let empty = tempfile::tempdir().unwrap();
        let dirs = vec![empty.path().to_path_buf()];
        let e = resolve_in(None, &[], &dirs).unwrap_err();
        assert!(e.contains("apt install fairy-stockfish"), "{e}");
        let e = resolve_in(Some("stockfish"), &[], &dirs).unwrap_err();
        assert!(e.contains("no engine named stockfish"), "{e}");
        assert!(e.contains("apt install fairy-stockfish"), "{e}");
        let e = resolve_in(Some("/nonexistent/engine"), &[], &dirs).unwrap_err();
        assert!(e.contains("does not exist"), "{e}");
        let f = empty.path().join("plain");
        std::fs::write(&f, "").unwrap();
        let e = resolve_in(Some(f.to_str().unwrap()), &[], &dirs).unwrap_err();
        assert!(e.contains("not an executable"), "{e}");
    }

    #[test]
    fn path_order_is_kept_and_duplicates_dropped() {
        let dirs = search_dirs(Some(OsString::from("/bin::/usr/games:/bin")));
        assert_eq!(dirs[0], PathBuf::from("/bin"));
        assert_eq!(
            dirs.iter()
                .filter(|d| d.as_os_str() == "/usr/games")
                .count(),
            1
        );
        assert_eq!(dirs.len(), 3);
    }
}
