//! `kifview check`: read and replay every file, one `FILE:LINE: message` per problem.

use super::Out;
use clap::Args;
use kifview::convert;
use kifview::core::text::sanitize;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

pub fn run(a: CheckArgs) -> ExitCode {
    let results = convert::check_all(&a.files);
    let mut failed = false;
    let mut out = Out::new();
    for r in &results {
        let mut text = String::new();
        for l in &r.messages {
            text.push_str(&sanitize(l));
            text.push('\n');
        }
        out.write(text.as_bytes());
        failed |= r.failed;
    }
    if let Err(code) = out.finish("kifview check") {
        return code;
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
