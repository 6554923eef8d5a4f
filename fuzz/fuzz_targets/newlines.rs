//! Bytes → load, against the same bytes with every CRLF and every lone CR made LF: the same
//! records (initial position, whole move tree, comments, header). How a file ends its lines
//! never changes what it holds (old Mac files end them with a lone CR).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifview_fuzz::check_newlines(data);
});
