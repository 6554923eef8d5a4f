//! Text from files is untrusted: the one sanitizer is `core::text` (every layer uses it);
//! the app names it here, as it always has.

pub use crate::core::text::{is_unsafe, sanitize, sanitize_lines};
