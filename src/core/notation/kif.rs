//! KIF / KIFU reader and writer (placeholder until the KIF work lands).

use super::{Parsed, Written};
use crate::core::record::Record;

/// Options for writing KIF.
#[derive(Clone, Debug, Default)]
pub struct KifOptions {}

pub fn read(_text: &str) -> Parsed {
    Parsed {
        record: Record::default(),
        warnings: Vec::new(),
    }
}

pub fn write(_record: &Record, _opts: &KifOptions) -> Written {
    Written::default()
}
