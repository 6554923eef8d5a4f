//! A small multi-line text editor for comments: lines of text and a cursor counted in
//! characters, with up/down keeping the display column (full-width characters count two).
//! The front end wraps the lines to its width and places the terminal cursor, so the
//! terminal's input method composes at the right place.

use unicode_width::UnicodeWidthChar;

/// Text being edited and the cursor in it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TextEditor {
    lines: Vec<String>,
    /// Cursor line.
    row: usize,
    /// Cursor column in characters (0 ..= the line's character count).
    col: usize,
    /// Display column up/down try to keep.
    want: Option<usize>,
}

fn cells(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

fn byte_at(s: &str, col: usize) -> usize {
    s.char_indices().nth(col).map_or(s.len(), |(i, _)| i)
}

impl TextEditor {
    /// An editor holding `text` (lines split at `\n`), cursor at the end.
    pub fn new(text: &str) -> TextEditor {
        let lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        let row = lines.len() - 1;
        let col = lines[row].chars().count();
        TextEditor {
            lines,
            row,
            col,
            want: None,
        }
    }
    /// The text, lines joined with `\n`; trailing empty lines are dropped.
    pub fn text(&self) -> String {
        let mut t = self.lines.join("\n");
        let kept = t.trim_end_matches('\n').len();
        t.truncate(kept);
        t
    }
    pub fn lines(&self) -> &[String] {
        &self.lines
    }
    /// Cursor as (line, character column).
    pub fn cursor(&self) -> (usize, usize) {
        (self.row, self.col)
    }
    /// Display cells before the cursor on its line.
    pub fn cursor_cells(&self) -> usize {
        cells(
            &self.lines[self.row]
                .chars()
                .take(self.col)
                .collect::<String>(),
        )
    }

    /// Inserts a character (control characters are ignored; `\n` starts a new line).
    pub fn insert(&mut self, c: char) {
        if c == '\n' || c == '\r' {
            self.newline();
            return;
        }
        if c.is_control() {
            return;
        }
        let line = &mut self.lines[self.row];
        let at = byte_at(line, self.col);
        line.insert(at, c);
        self.col += 1;
        self.want = None;
    }
    /// Inserts text (pasted or composed by an input method).
    pub fn insert_str(&mut self, s: &str) {
        let s = s.replace("\r\n", "\n");
        for c in s.chars() {
            self.insert(c);
        }
    }
    pub fn newline(&mut self) {
        let line = &mut self.lines[self.row];
        let at = byte_at(line, self.col);
        let rest = line.split_off(at);
        self.row += 1;
        self.lines.insert(self.row, rest);
        self.col = 0;
        self.want = None;
    }
    pub fn backspace(&mut self) {
        if self.col > 0 {
            let line = &mut self.lines[self.row];
            let at = byte_at(line, self.col - 1);
            line.remove(at);
            self.col -= 1;
        } else if self.row > 0 {
            let line = self.lines.remove(self.row);
            self.row -= 1;
            self.col = self.lines[self.row].chars().count();
            self.lines[self.row].push_str(&line);
        }
        self.want = None;
    }
    pub fn delete(&mut self) {
        let n = self.lines[self.row].chars().count();
        if self.col < n {
            let line = &mut self.lines[self.row];
            let at = byte_at(line, self.col);
            line.remove(at);
        } else if self.row + 1 < self.lines.len() {
            let next = self.lines.remove(self.row + 1);
            self.lines[self.row].push_str(&next);
        }
        self.want = None;
    }
    pub fn left(&mut self) {
        if self.col > 0 {
            self.col -= 1;
        } else if self.row > 0 {
            self.row -= 1;
            self.col = self.lines[self.row].chars().count();
        }
        self.want = None;
    }
    pub fn right(&mut self) {
        if self.col < self.lines[self.row].chars().count() {
            self.col += 1;
        } else if self.row + 1 < self.lines.len() {
            self.row += 1;
            self.col = 0;
        }
        self.want = None;
    }
    pub fn home(&mut self) {
        self.col = 0;
        self.want = None;
    }
    pub fn end(&mut self) {
        self.col = self.lines[self.row].chars().count();
        self.want = None;
    }
    fn vertical(&mut self, d: isize) {
        let target = self.row as isize + d;
        if target < 0 || target >= self.lines.len() as isize {
            if d < 0 {
                self.col = 0;
            } else {
                self.col = self.lines[self.row].chars().count();
            }
            return;
        }
        let want = *self.want.get_or_insert(self.cursor_cells());
        self.row = target as usize;
        let mut used = 0;
        let mut col = 0;
        for c in self.lines[self.row].chars() {
            let w = c.width().unwrap_or(0);
            if used + w > want {
                break;
            }
            used += w;
            col += 1;
        }
        self.col = col;
    }
    pub fn up(&mut self) {
        self.vertical(-1);
    }
    pub fn down(&mut self) {
        self.vertical(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn japanese_text_and_cursor_columns() {
        let mut e = TextEditor::new("");
        e.insert_str("角道を開ける");
        assert_eq!(e.cursor(), (0, 6));
        assert_eq!(e.cursor_cells(), 12);
        e.left();
        e.left();
        e.insert('を');
        assert_eq!(e.text(), "角道を開をける");
        e.end();
        e.newline();
        e.insert_str("abc");
        assert_eq!(e.text(), "角道を開をける\nabc");
        // Up keeps the display column: 3 cells lands after one full-width character.
        e.up();
        assert_eq!(e.cursor(), (0, 1));
        e.down();
        assert_eq!(e.cursor(), (1, 3), "back to the column it came from");
        e.home();
        e.backspace();
        assert_eq!(e.text(), "角道を開をけるabc");
        assert_eq!(e.cursor(), (0, 7));
        e.delete();
        assert_eq!(e.text(), "角道を開をけるbc");
        e.insert('\x1b');
        assert_eq!(e.text(), "角道を開をけるbc");
    }

    #[test]
    fn new_puts_the_cursor_at_the_end_and_text_drops_trailing_blank_lines() {
        let mut e = TextEditor::new("一行目\n二行目");
        assert_eq!(e.cursor(), (1, 3));
        e.newline();
        e.newline();
        assert_eq!(e.text(), "一行目\n二行目");
        assert_eq!(e.lines().len(), 4);
    }
}
