//! Bytes → load → every writer (KIF, KI2, CSA, JKF, USI, SFEN, BOD) → its reader: no panic,
//! no warning on reading back (a writer never emits what its reader cannot read), and the same
//! initial position and main line (the same position for SFEN and BOD).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for record in kifview_fuzz::records(data) {
        kifview_fuzz::check_every_writer(&record);
    }
});
