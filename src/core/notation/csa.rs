//! CSA reader and writer (placeholder until the CSA work lands).

use super::{Parsed, Written};
use crate::core::record::Record;

/// Options for writing CSA.
#[derive(Clone, Debug, Default)]
pub struct CsaOptions {}

pub fn read(_text: &str) -> Vec<Parsed> {
    Vec::new()
}

pub fn write(_record: &Record, _opts: &CsaOptions) -> Written {
    Written::default()
}
