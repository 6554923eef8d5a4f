//! Text → the KI2 reader. Must not panic or hang, whatever the text.
#![no_main]
use kifview_core::notation::ki2;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = ki2::read(&kifview_fuzz::text(data));
});
