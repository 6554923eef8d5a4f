//! Text → the config parser (`config.toml` merged over the defaults: options, colours, key
//! bindings). Must not panic; an error names a line inside the text.
#![no_main]
use kifview::app::Config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = Config::from_toml("fuzz.toml", &text) {
        let lines = text.lines().count().max(1);
        assert!(
            e.line <= lines + 1,
            "error on line {} of a {lines}-line file",
            e.line
        );
    }
});
