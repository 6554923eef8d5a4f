//! Bytes → load (any format) → KIF → read → KIF: the reader takes the text without a warning,
//! the initial position, the main line and the whole move tree survive, and the second write
//! is byte for byte the first.
#![no_main]
use kifview_core::notation::{Format, Target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for record in kifview_fuzz::records(data) {
        kifview_fuzz::check_round_trip(&record, Target::new(Format::Kif), true);
    }
});
