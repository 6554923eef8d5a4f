//! Editing the open books from the pane with the focus: `a` adds the move that led to the
//! position on the board (its value, depth, count and comment asked in one prompt,
//! prefilled from the analysis comment at that move when it holds one, or from the book's
//! own entry when the move is there already), `e` changes the highlighted move's fields,
//! `d` deletes it, `J`/`K` move it down or up in its book's order, `s` saves every modified
//! book (atomically, through `book::save` and `store`). A book on disk stays there: its
//! changes are held over it (`book::overlay`), whatever its size. `:book open FILE`, `:book new FILE` (created by the first
//! save), `:book save`, `:book stop`, `:book close`. Quitting with a modified book asks first
//! ([`App::books_unsaved`]).

use super::state::AfterBookSave;
use super::{OpenBook, Store};
use crate::app::overlay::{Answer, Prompt};
use crate::app::state::{App, Level};
use crate::book::{self, BookMove, Lookup};
use crate::core::rules::Move;
use std::path::Path;

/// The prompt's fields: `VALUE DEPTH COUNT [COMMENT]` (`-` for no value).
pub fn parse_fields(text: &str) -> Result<(Option<i32>, u32, u64, Option<String>), String> {
    let expected = "expected VALUE DEPTH COUNT [COMMENT] (e.g. 50 12 1 my note; - for no value)";
    let mut parts = text.trim().splitn(4, char::is_whitespace);
    let mut next = || parts.next().filter(|p| !p.is_empty());
    let value = match next().ok_or(expected)? {
        "-" => None,
        v => Some(
            v.parse::<i32>()
                .map_err(|_| format!("value '{v}': {expected}"))?,
        ),
    };
    let depth = next().map_or(Ok(0), |d| {
        d.parse::<u32>()
            .map_err(|_| format!("depth '{d}': {expected}"))
    })?;
    let count = next().map_or(Ok(1), |c| {
        c.parse::<u64>()
            .map_err(|_| format!("count '{c}': {expected}"))
    })?;
    let comment = next()
        .map(|c| crate::core::text::sanitize(c.trim()).into_owned())
        .filter(|c| !c.is_empty());
    Ok((value, depth, count, comment))
}

/// The prompt's text for a move's fields.
fn fields_text(m: &BookMove) -> String {
    let value = m.value.map_or("-".to_string(), |v| v.to_string());
    let mut t = format!("{value} {} {}", m.depth, m.count);
    if let Some(c) = &m.comment {
        t.push(' ');
        t.push_str(c);
    }
    t
}

impl App {
    /// The book `i` to edit (its changes held over the file from its first edit), noting
    /// that `key` changes (its entry as saved is kept to tell whether the book is modified).
    pub(super) fn editable(
        &mut self,
        i: usize,
        key: &str,
    ) -> Result<&mut book::overlay::Overlay, String> {
        let b = &mut self.collection.books.open[i];
        if let Store::Disk(_) = &b.store {
            let Store::Disk(d) = std::mem::replace(
                &mut b.store,
                Store::Edited(book::overlay::Overlay::new(Box::new(book::Book::new()))),
            ) else {
                unreachable!("matched above")
            };
            b.store = Store::Edited(book::overlay::Overlay::new(d));
        }
        if !b.touched.contains_key(key) {
            let saved = b.store.lookup().entry(key).map_err(|e| e.to_string())?;
            b.touched.insert(key.to_string(), saved);
        }
        self.collection.books.revision += 1;
        match &mut self.collection.books.open[i].store {
            Store::Edited(m) => Ok(m),
            Store::Disk(_) => unreachable!("made editable above"),
        }
    }

    /// The book an edit goes to: the highlighted move's, else the last opened (the one a
    /// `:book new` just made).
    fn target_book(&self) -> usize {
        let books = &self.collection.books;
        (books.selected.map(|s| s.0))
            .filter(|&i| i < books.open.len())
            .unwrap_or(books.open.len().saturating_sub(1))
    }

    /// `book_add` (`a`): adds the move that led here to the target book at the position
    /// before it, its fields asked (prefilled from the book, else the analysis comment).
    pub(crate) fn book_add_current(&mut self) {
        if self.collection.books.open.is_empty() {
            return self.info_level(no_book(), Level::Warning);
        }
        let cur = self.cur();
        let Some(parent) = self.record().node(cur).parent else {
            return self.info("the start position: go to a move to add it to the book");
        };
        let Some(mv) = self.record().node(cur).move_data().map(|m| m.mv) else {
            return self.info("not a move: go to a move to add it to the book");
        };
        let before = self.record().position_at(parent);
        let key = book::key_of(&before);
        let ply = u32::from(before.move_number());
        let i = self.target_book();
        let there = self.collection.books.open[i]
            .store
            .lookup()
            .moves(&key)
            .ok()
            .and_then(|ms| ms.into_iter().find(|m| m.usi == mv));
        let prefill = match there {
            Some(m) => fields_text(&m),
            None => {
                let eval = crate::book::build::move_eval(&self.record().node(cur).comment);
                let mover = before.side_to_move();
                match eval {
                    Some((score, depth)) => {
                        let v = crate::book::build::mover_value(score, mover);
                        format!("{v} {depth} 1")
                    }
                    None => "- 0 1".to_string(),
                }
            }
        };
        let name = self.collection.books.open[i].name.clone();
        let label = format!(
            "{} → {name}: value depth count comment: ",
            self.step_text(cur)
        );
        self.open_prompt(Prompt::closing(label, prefill, move |app, text| {
            app.book_store_move(i, &key, ply, mv, &text)
        }));
    }

    /// Stores `mv` with the fields typed in book `i` at `key` (replacing it in its place when
    /// there, else last).
    fn book_store_move(&mut self, i: usize, key: &str, ply: u32, mv: Move, text: &str) {
        let (value, depth, count, comment) = match parse_fields(text) {
            Ok(f) => f,
            Err(e) => return self.info_level(format!("book not changed: {e}"), Level::Error),
        };
        let m = BookMove {
            value,
            depth,
            count,
            comment,
            ..BookMove::new(mv)
        };
        match self.editable(i, key) {
            Ok(b) => {
                let new = match b.add_move(key, ply, m) {
                    Ok(new) => new,
                    Err(e) => return self.info_level(e.to_string(), Level::Error),
                };
                let name = self.collection.books.open[i].name.clone();
                self.info(match new {
                    true => format!("added to {name} (s saves)"),
                    false => format!("changed in {name} (s saves)"),
                });
                self.collection.books.selected = Some((i, mv, false));
                self.book_after_key();
            }
            Err(e) => self.info_level(e, Level::Error),
        }
    }

    /// The highlighted row's book, move and key (refusing a flipped one).
    fn selected_in_book(&mut self) -> Option<(usize, Move, String)> {
        let row = self.book_highlight().and_then(|i| match self.book_view() {
            super::BookView::Rows { rows, .. } => rows.get(i).cloned(),
            super::BookView::NoBook => None,
        });
        let Some(row) = row else {
            self.info("no book move here to change");
            return None;
        };
        if row.flipped {
            self.info_level(
                "a move of the mirrored position (反): edit it there".into(),
                Level::Warning,
            );
            return None;
        }
        Some((row.book, row.mv, book::key_of(self.position())))
    }

    /// `book_edit` (`e`): the highlighted move's fields, in a prompt.
    pub(crate) fn book_edit_selected(&mut self) {
        let Some((i, mv, key)) = self.selected_in_book() else {
            return;
        };
        let b = &self.collection.books.open[i];
        let Some(m) =
            (b.store.lookup().moves(&key).ok()).and_then(|ms| ms.into_iter().find(|m| m.usi == mv))
        else {
            return;
        };
        let ply = u32::from(self.position().move_number());
        let label = format!("{}: value depth count comment: ", b.name);
        self.open_prompt(Prompt::closing(label, fields_text(&m), move |app, text| {
            app.book_store_move(i, &key, ply, mv, &text)
        }));
    }

    /// `book_delete` (`d`): deletes the highlighted move from its book (the position too
    /// when it was its last move).
    pub(crate) fn book_delete_selected(&mut self) {
        let Some((i, mv, key)) = self.selected_in_book() else {
            return;
        };
        match self.editable(i, &key) {
            Ok(b) => {
                if let Ok(Some(mut e)) = b.entry(&key) {
                    e.moves.retain(|m| m.usi != mv);
                    b.set(&key, (!e.moves.is_empty()).then_some(e));
                }
                let name = self.collection.books.open[i].name.clone();
                self.info(format!("deleted from {name} (s saves)"));
                self.collection.books.selected = None;
                self.book_after_key();
            }
            Err(e) => self.info_level(e, Level::Error),
        }
    }

    /// `book_move_down` / `book_move_up` (`J`/`K`): moves the highlighted move `d` places
    /// on in its book's order.
    pub(crate) fn book_reorder(&mut self, d: isize) {
        let Some((i, mv, key)) = self.selected_in_book() else {
            return;
        };
        match self.editable(i, &key) {
            Ok(b) => {
                if let Ok(Some(mut e)) = b.entry(&key)
                    && let Some(at) = e.moves.iter().position(|m| m.usi == mv)
                {
                    let to = (at as isize + d).clamp(0, e.moves.len() as isize - 1) as usize;
                    let m = e.moves.remove(at);
                    e.moves.insert(to, m);
                    b.set(&key, Some(e));
                }
                self.book_after_key();
            }
            Err(e) => self.info_level(e, Level::Error),
        }
    }

    /// `book_save` (`s`, `:book save`): writes every modified book to its file (atomically,
    /// in its format), on a thread (`save.rs`).
    pub(crate) fn book_save(&mut self) {
        self.book_save_then(AfterBookSave::Stay);
    }

    /// `:book new FILE`: a new empty book, written to FILE by its first save (a file already
    /// there is refused: `:book open` it).
    pub(crate) fn book_new(&mut self, path: &Path) -> Result<(), String> {
        let Some(format) = book::Format::from_path(path) else {
            return Err(format!(
                "{}: no book format has this extension (.db: YaneuraOu text)",
                path.display()
            ));
        };
        if crate::app::document::path_exists(path) {
            return Err(format!("{} exists: :book open it", path.display()));
        }
        self.add_book(
            path,
            Store::Edited(book::overlay::Overlay::new(Box::new(book::Book::new()))),
            format,
        );
        self.collection.books.shown = true;
        let n = self.collection.books.open.len();
        self.info(format!(
            "book {n}: {} (new: a adds the move played, s writes it)",
            path.display()
        ));
        Ok(())
    }

    /// `:book [open FILE | new FILE | save | close]` (no argument: what is open).
    pub(crate) fn book_command(&mut self, arg: &str) {
        let (verb, rest) = arg.split_once(char::is_whitespace).unwrap_or((arg, ""));
        let path = crate::app::document::expand_path(rest.trim());
        let done = match (verb, rest.trim().is_empty()) {
            ("open", false) => self.open_book(&path).map(|()| {
                self.collection.books.shown = true;
            }),
            ("new", false) => self.book_new(&path),
            ("save", true) => {
                self.book_save();
                Ok(())
            }
            ("stop", true) => {
                self.book_save_stop();
                Ok(())
            }
            ("close", true) => self.book_close(),
            ("", true) => {
                let names = self.books().names();
                let list: Vec<String> = (names.iter().enumerate())
                    .map(|(i, (n, m))| format!("{} {n}{}", i + 1, if *m { "*" } else { "" }))
                    .collect();
                self.info(match list.is_empty() {
                    true => no_book(),
                    false => format!("books: {}", list.join(", ")),
                });
                Ok(())
            }
            _ => Err(format!(
                "expected :book open FILE, :book new FILE, :book save, :book stop or :book close (got '{}')",
                crate::core::text::sanitize(arg)
            )),
        };
        if let Err(e) = done {
            self.info_level(e, Level::Error);
        }
    }

    /// `:book close`: closes the highlighted move's book (else the last), asking first when
    /// it is modified.
    fn book_close(&mut self) -> Result<(), String> {
        let books = &self.collection.books;
        if books.open.is_empty() {
            return Err(no_book());
        }
        let i = books.selected.map_or(books.open.len() - 1, |s| s.0);
        if !self.collection.books.open[i].modified() {
            self.close_book(i);
            return Ok(());
        }
        let name = self.collection.books.open[i].name.clone();
        let path = self.collection.books.open[i].path.clone();
        self.ask(
            format!("{name} has unsaved changes. Save them?"),
            Vec::new(),
            vec![
                (Answer::Save, "save and close"),
                (Answer::Discard, "discard and close"),
                (Answer::Cancel, "cancel"),
            ],
            move |app, a| match a {
                Answer::Save => app.book_save_then(AfterBookSave::Close(path.clone())),
                Answer::Discard => {
                    match (app.collection.books.open.iter()).position(|b| b.path == path) {
                        Some(i) => app.close_book(i),
                        None => app.info("the book was closed already"),
                    }
                }
                _ => app.info("the book stays open"),
            },
        );
        Ok(())
    }

    /// Closes book `i` (its unsaved edits, if any, are dropped).
    pub(super) fn close_book(&mut self, i: usize) {
        let b = self.collection.books.open.remove(i);
        let books = &mut self.collection.books;
        books.selected = None;
        books.revision += 1;
        books.rows = None;
        self.info(format!("closed {}", b.name));
        self.book_after_key();
    }

    /// Quitting: true (and a question asked) when a book has unsaved changes; saving or
    /// discarding them then quits.
    pub(crate) fn books_unsaved(&mut self) -> bool {
        let modified: Vec<String> = (self.collection.books.open.iter())
            .filter(|b| b.modified())
            .map(|b| b.name.clone())
            .collect();
        if modified.is_empty() {
            return false;
        }
        self.ask(
            format!("book {} has unsaved changes. Save?", modified.join(", ")),
            Vec::new(),
            vec![
                (Answer::Save, "save and quit"),
                (Answer::Discard, "discard and quit"),
                (Answer::Cancel, "cancel"),
            ],
            |app, a| match a {
                Answer::Save => app.book_save_then(AfterBookSave::Quit { force: false }),
                Answer::Discard => {
                    for b in &mut app.collection.books.open {
                        discard(b);
                    }
                    app.request_quit(false);
                }
                _ => app.info("still here: nothing was saved or discarded"),
            },
        );
        true
    }
}

/// Forgets a book's edits (quitting without saving them).
fn discard(b: &mut OpenBook) {
    if let Store::Edited(m) = &mut b.store {
        for (k, saved) in b.touched.drain() {
            m.set(&k, saved);
        }
    }
}

fn no_book() -> String {
    "no book open (:book open FILE, :book new FILE, kifview --book FILE)".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_or_refused_with_the_form_expected() {
        assert_eq!(
            parse_fields("50 12 3 a note here"),
            Ok((Some(50), 12, 3, Some("a note here".into())))
        );
        assert_eq!(parse_fields("- 0 1"), Ok((None, 0, 1, None)));
        assert_eq!(parse_fields("-30"), Ok((Some(-30), 0, 1, None)));
        assert!(
            parse_fields("x 1 1")
                .unwrap_err()
                .contains("VALUE DEPTH COUNT")
        );
        assert!(parse_fields("").is_err());
        assert!(parse_fields("1 -2").unwrap_err().contains("depth"));
    }
}
