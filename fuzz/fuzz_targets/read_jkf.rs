//! Text → the JKF reader. Must not panic or hang, whatever the text.
#![no_main]
use kifview_core::notation::jkf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = jkf::read(&kifview_fuzz::text(data));
});
