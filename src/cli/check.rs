//! `kifview check`: read and replay every file (directories with `-r`), one `FILE:LINE:
//! message` per problem on standard output, sorted by line, then a summary on standard error
//! when there were several files.

use super::{Out, print_messages};
use clap::Args;
use kifview::convert::{self, JobResult};
use kifview::core::text::sanitize;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Files to check (directories with -r).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Check every record file under the given directories (the files `convert -r` takes).
    #[arg(short = 'r', long)]
    pub recursive: bool,
}

/// Exit status: 0 every file clean, 1 any file with a problem (a warning, or unreadable), 2 bad
/// usage; 1 too when the inputs hold no record file at all.
pub fn run(a: CheckArgs) -> ExitCode {
    let files: Vec<PathBuf> = match super::batch_inputs("check", "to check", &a.inputs, a.recursive)
    {
        Ok(i) => i.into_iter().map(|i| i.path).collect(),
        Err(code) => return code,
    };
    let results = convert::check_all(&files);
    let mut out = Out::new();
    for r in &results {
        let mut text = String::new();
        for l in &r.messages {
            text.push_str(&sanitize(l));
            text.push('\n');
        }
        out.write(text.as_bytes());
    }
    if let Err(code) = out.finish("kifview check") {
        return code;
    }
    if files.len() > 1 || a.recursive {
        print_messages(&[summary(&results)]);
    }
    if results.iter().any(|r| r.failed) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `checked 176 files: 170 clean, 6 with warnings, 0 unreadable`.
fn summary(results: &[JobResult]) -> String {
    let unreadable = results.iter().filter(|r| r.unreadable).count();
    let warned = results.iter().filter(|r| r.failed && !r.unreadable).count();
    let n = results.len();
    format!(
        "checked {n} file{}: {} clean, {warned} with warnings, {unreadable} unreadable",
        if n == 1 { "" } else { "s" },
        n - warned - unreadable
    )
}
