//! The app's own key events (the terminal layer converts its events into these).

use std::fmt;

/// A key, independent of any terminal library.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum KeyCode {
    Char(char),
    Enter,
    Esc,
    Backspace,
    Tab,
    BackTab,
    Left,
    Right,
    Up,
    Down,
    Home,
    End,
    PageUp,
    PageDown,
    Insert,
    Delete,
    F(u8),
}

/// Modifier keys held with a key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Modifiers {
    pub ctrl: bool,
    pub alt: bool,
    pub shift: bool,
}

/// A key press. Character keys carry their case in the character (`G`, not `shift-g`), so
/// `shift` is only set for non-character keys.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct KeyEvent {
    pub code: KeyCode,
    pub mods: Modifiers,
}

const NAMED: [(&str, KeyCode); 16] = [
    ("enter", KeyCode::Enter),
    ("esc", KeyCode::Esc),
    ("backspace", KeyCode::Backspace),
    ("tab", KeyCode::Tab),
    ("backtab", KeyCode::BackTab),
    ("left", KeyCode::Left),
    ("right", KeyCode::Right),
    ("up", KeyCode::Up),
    ("down", KeyCode::Down),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
    ("pageup", KeyCode::PageUp),
    ("pagedown", KeyCode::PageDown),
    ("insert", KeyCode::Insert),
    ("delete", KeyCode::Delete),
    ("space", KeyCode::Char(' ')),
];

impl KeyEvent {
    pub fn new(code: KeyCode, mods: Modifiers) -> KeyEvent {
        KeyEvent { code, mods }.normalized()
    }
    /// A key with no modifiers.
    pub fn plain(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, Modifiers::default())
    }
    pub fn char(c: char) -> KeyEvent {
        KeyEvent::plain(KeyCode::Char(c))
    }
    /// Shift is part of a character; shift-tab is backtab.
    fn normalized(mut self) -> KeyEvent {
        match self.code {
            KeyCode::Char(c) => {
                if self.mods.shift && c.is_ascii_lowercase() {
                    self.code = KeyCode::Char(c.to_ascii_uppercase());
                }
                self.mods.shift = false;
            }
            KeyCode::Tab if self.mods.shift => {
                self.code = KeyCode::BackTab;
                self.mods.shift = false;
            }
            KeyCode::BackTab => self.mods.shift = false,
            _ => {}
        }
        self
    }
    /// Parses a key as written in the config: `l`, `G`, `?`, `right`, `PageDown`, `ctrl-s`,
    /// `alt-x`, `shift-tab`, `space`, `f1`.
    pub fn parse(s: &str) -> Result<KeyEvent, String> {
        if s.is_empty() {
            return Err("empty key name".into());
        }
        let mut mods = Modifiers::default();
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            let (m, n) = if lower.starts_with("ctrl-") || lower.starts_with("ctrl+") {
                (&mut mods.ctrl, 5)
            } else if lower.starts_with("alt-") || lower.starts_with("alt+") {
                (&mut mods.alt, 4)
            } else if lower.starts_with("shift-") || lower.starts_with("shift+") {
                (&mut mods.shift, 6)
            } else {
                break;
            };
            if rest.len() == n {
                break;
            }
            *m = true;
            rest = &rest[n..];
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_control() => KeyCode::Char(c),
            _ => {
                let lower = rest.to_ascii_lowercase();
                if let Some((_, k)) = NAMED.iter().find(|(n, _)| *n == lower) {
                    *k
                } else if let Some(n) = lower
                    .strip_prefix('f')
                    .and_then(|d| d.parse::<u8>().ok())
                    .filter(|n| (1..=24).contains(n))
                {
                    KeyCode::F(n)
                } else {
                    return Err(format!("unknown key name `{s}`"));
                }
            }
        };
        Ok(KeyEvent::new(code, mods))
    }
}

impl fmt::Display for KeyEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mods.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.mods.alt {
            f.write_str("Alt-")?;
        }
        if self.mods.shift {
            f.write_str("Shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "F{n}"),
            KeyCode::Enter => f.write_str("Enter"),
            KeyCode::Esc => f.write_str("Esc"),
            KeyCode::Backspace => f.write_str("Backspace"),
            KeyCode::Tab => f.write_str("Tab"),
            KeyCode::BackTab => f.write_str("Shift-Tab"),
            KeyCode::Left => f.write_str("Left"),
            KeyCode::Right => f.write_str("Right"),
            KeyCode::Up => f.write_str("Up"),
            KeyCode::Down => f.write_str("Down"),
            KeyCode::Home => f.write_str("Home"),
            KeyCode::End => f.write_str("End"),
            KeyCode::PageUp => f.write_str("PageUp"),
            KeyCode::PageDown => f.write_str("PageDown"),
            KeyCode::Insert => f.write_str("Insert"),
            KeyCode::Delete => f.write_str("Delete"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_config_key_names() {
        assert_eq!(KeyEvent::parse("l").unwrap(), KeyEvent::char('l'));
        assert_eq!(KeyEvent::parse("G").unwrap(), KeyEvent::char('G'));
        assert_eq!(KeyEvent::parse("shift-g").unwrap(), KeyEvent::char('G'));
        assert_eq!(
            KeyEvent::parse("PageDown").unwrap(),
            KeyEvent::plain(KeyCode::PageDown)
        );
        assert_eq!(
            KeyEvent::parse("shift-tab").unwrap(),
            KeyEvent::plain(KeyCode::BackTab)
        );
        let c = KeyEvent::parse("ctrl-s").unwrap();
        assert!(c.mods.ctrl && c.code == KeyCode::Char('s'));
        assert_eq!(KeyEvent::parse("-").unwrap(), KeyEvent::char('-'));
        assert_eq!(
            KeyEvent::parse("f5").unwrap(),
            KeyEvent::plain(KeyCode::F(5))
        );
        assert!(KeyEvent::parse("pagedwn").unwrap_err().contains("pagedwn"));
        assert!(KeyEvent::parse("").is_err());
    }

    #[test]
    fn display_round_trips() {
        for s in [
            "l",
            "G",
            "?",
            "Right",
            "PageDown",
            "Ctrl-s",
            "Space",
            "F2",
            "Shift-Tab",
        ] {
            let k = KeyEvent::parse(s).unwrap();
            assert_eq!(k.to_string(), s);
            assert_eq!(KeyEvent::parse(&k.to_string()).unwrap(), k);
        }
    }
}
