//! Text → the USI / SFEN reader (`position startpos moves …`, `sfen …`, a bare SFEN), and
//! each line as a bare SFEN. Must not panic or hang.
#![no_main]
use kifview_core::notation::usi;
use kifview_core::rules::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = kifview_fuzz::text(data);
    let _ = usi::read(&text);
    for line in text.lines().take(8) {
        if let Ok(p) = Position::from_sfen(line) {
            // What was read must write out and read back as the same position.
            let again = Position::from_sfen(&p.to_sfen())
                .unwrap_or_else(|e| panic!("to_sfen wrote {:?}, unreadable: {e}", p.to_sfen()));
            assert_eq!(
                again.to_sfen(),
                p.to_sfen(),
                "SFEN round trip changed the position"
            );
        }
    }
});
