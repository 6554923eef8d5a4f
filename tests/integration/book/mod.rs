//! Opening books: `book build` (build*.rs) and the viewer's book pane (pane*.rs).

mod build;
mod pane;
