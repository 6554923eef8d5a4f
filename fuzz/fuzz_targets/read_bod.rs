//! Text → the BOD board-diagram reader. Must not panic or hang.
#![no_main]
use kifview_core::notation::bod;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = bod::read_bod(&kifview_fuzz::text(data));
});
