//! Bytes → the loader a user's file goes through: encoding detection (BOM, declarations,
//! UTF-8 / Shift_JIS / EUC-JP guessing), then the format from the content, then the reader.
//! Also as a `.kif` (Shift_JIS preferred when the bytes do not say). Must not panic or hang.
#![no_main]
use kifview_core::notation;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let loaded = notation::load(data, None);
    assert!(!loaded.records.is_empty(), "load returned no record");
    let _ = notation::load(data, Some(Path::new("fuzz.kif")));
});
