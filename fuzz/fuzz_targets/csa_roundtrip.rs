//! Bytes → load (any format) → CSA (V2.2 and V3.0) → read → CSA: the reader takes the text
//! without a warning, the initial position and the main line survive, and the second write is
//! byte for byte the first.
#![no_main]
use kifview_core::notation::{Format, Target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for record in kifview_fuzz::records(data) {
        for csa_v3 in [false, true] {
            let target = Target {
                csa_v3,
                ..Target::new(Format::Csa)
            };
            kifview_fuzz::check_round_trip(&record, target, false);
        }
    }
});
