//! Text → the KIF reader. Must not panic or hang, whatever the text.
#![no_main]
use kifview_core::notation::kif;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = kif::read(&kifview_fuzz::text(data));
});
