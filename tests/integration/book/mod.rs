//! Opening books: the formats (read, write, round trips, untrusted input) and the `book`
//! commands; `book build` (build*.rs) and the viewer's book pane (pane*.rs).

mod build;
mod pane;
mod text;
