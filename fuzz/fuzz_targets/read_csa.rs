//! Text → the CSA reader (several records separated by `/`). Must not panic or hang.
#![no_main]
use kifview_core::notation::csa;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let records = csa::read(&kifview_fuzz::text(data));
    assert!(!records.is_empty(), "the CSA reader returned no record");
});
