//! Opening books: the formats (read, write, round trips, untrusted input) and the `book`
//! commands.

mod text;
