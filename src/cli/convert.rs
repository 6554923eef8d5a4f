//! `kifview convert`: its arguments, and the calls into the batch conversion
//! ([`kifview::convert`]).

use super::{Out, parse_record, print_messages};
use clap::{Args, ValueEnum};
use kifview::convert::{self, Settings};
use kifview::core::notation::TextEncoding;
use kifview::core::notation::filetype::{self, FileType};
use kifview::core::text::sanitize;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ToFormat {
    /// KIF (Shift_JIS unless --encoding says otherwise).
    Kif,
    /// KIF in UTF-8.
    Kifu,
    /// CSA (V2.2 unless --csa-version 3).
    Csa,
    /// KI2 (Shift_JIS unless --encoding says otherwise).
    Ki2,
    /// KI2 in UTF-8.
    Ki2u,
    /// JSON Kifu Format.
    Jkf,
    /// `position … moves …` of the main line.
    Usi,
    /// SFEN of the last position of the main line.
    Sfen,
    /// BOD diagram of the last position of the main line.
    Bod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    #[value(
        name = "shift_jis",
        alias = "sjis",
        alias = "cp932",
        alias = "shift-jis"
    )]
    ShiftJis,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Input files (directories with -r).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Convert every record file under the given directories, keeping their layout in --out-dir.
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// Output format (default: from OUTPUT's extension).
    #[arg(long, value_enum)]
    pub to: Option<ToFormat>,
    /// Output file (one input only; its directory must exist); without it and without
    /// --out-dir, write to stdout. Devices, FIFOs and /dev/stdout are written into.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUTPUT",
        conflicts_with = "out_dir"
    )]
    pub output: Option<PathBuf>,
    /// Directory for the outputs (needed with several inputs); created, with the
    /// subdirectories -r needs, if missing. (`-o` needs its directory to exist.)
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Output encoding (default: Shift_JIS for kif, UTF-8 for kifu and csa).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
    /// Which record of a multi-record CSA input (1-based). Without it every record is
    /// converted: to CSA as one file, to another format as one file per record (NAME-2.kif, …).
    #[arg(long, value_name = "N", value_parser = parse_record)]
    pub record: Option<usize>,
    /// CSA version to write.
    #[arg(long, default_value = "2.2", value_parser = ["2.2", "3", "3.0"])]
    pub csa_version: String,
}

impl ToFormat {
    /// The extension table's entry for this format name.
    fn file_type(self) -> &'static FileType {
        let name = self.to_possible_value().expect("every format has a name");
        filetype::by_ext(name.get_name()).expect("every --to name is an extension")
    }
}

pub fn run(a: ConvertArgs) -> ExitCode {
    let usage = |m: &str| {
        say!("kifview convert: {m}");
        ExitCode::from(2)
    };
    // `kifview convert a.kif b.csa`: the second name is an output, not an input.
    if let [first, second] = a.inputs.as_slice()
        && a.output.is_none()
        && a.out_dir.is_none()
        && !a.recursive
        && !second.is_dir()
        && filetype::for_path(second).is_some_and(|t| t.writable)
    {
        return usage(&format!(
            "two inputs and no --out-dir; to write {0}, say `kifview convert {1} -o {0}`",
            second.display(),
            first.display()
        ));
    }
    let file_type = match (a.to, &a.output) {
        (Some(t), _) => t.file_type(),
        (None, Some(o)) => match filetype::for_path(o).filter(|t| t.writable) {
            Some(t) => t,
            None => {
                return usage(&format!(
                    "cannot tell the output format from '{}': use --to FORMAT",
                    o.display()
                ));
            }
        },
        (None, None) => {
            return usage("say the output format with --to kif|kifu|csa|ki2|ki2u|jkf|usi|sfen|bod");
        }
    };
    let inputs = match super::batch_inputs("convert", "to convert", &a.inputs, a.recursive) {
        Ok(i) => i,
        Err(code) => return code,
    };
    if (inputs.len() > 1 || a.recursive) && a.out_dir.is_none() {
        return usage("several inputs need --out-dir DIR");
    }
    let jobs = convert::plan_outputs(
        inputs,
        a.output.as_deref(),
        a.out_dir.as_deref(),
        file_type.ext,
    );
    // --out-dir and the layout under it are created (every directory once, before the
    // workers start); `-o` needs its directory to exist.
    if let Some(d) = &a.out_dir {
        let mut dirs = convert::missing_dirs(&jobs);
        if !d.is_dir() {
            dirs.insert(0, d.clone());
        }
        for d in dirs {
            if let Err(e) = std::fs::create_dir_all(&d) {
                say!("kifview convert: {}: cannot create: {e}", d.display());
                return ExitCode::from(1);
            }
        }
    }
    let encoding = a.encoding.map(|e| match e {
        EncodingArg::Utf8 => TextEncoding::Utf8,
        EncodingArg::ShiftJis => TextEncoding::ShiftJis,
    });
    let settings = Settings::new(file_type, encoding, a.csa_version != "2.2", a.record);
    let progress = if jobs.len() > 1 {
        indicatif::ProgressBar::with_draw_target(
            Some(jobs.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    let results = convert::convert_all(&jobs, &settings, a.out_dir.as_deref(), || progress.inc(1));
    progress.finish_and_clear();
    let results = match results {
        Ok(r) => r,
        Err(e) => {
            say!("kifview convert: {e}");
            return ExitCode::from(1);
        }
    };
    let terminal = std::io::stdout().is_terminal();
    let mut out = Out::new();
    let (mut failures, mut warned) = (Vec::new(), 0);
    for (job, r) in jobs.iter().zip(&results) {
        print_messages(&r.messages);
        if terminal && !r.stdout.is_empty() {
            write_for_terminal(&mut out, &r.stdout_text, settings.encoding);
        } else {
            out.write(&r.stdout);
        }
        if r.failed {
            failures.push(job.input.display().to_string());
        } else if !r.messages.is_empty() {
            warned += 1;
        }
    }
    if let Err(code) = out.finish("kifview convert") {
        return code;
    }
    if jobs.len() > 1 {
        let summary = format!(
            "converted {} of {} files ({warned} with warnings), {} failed{}",
            jobs.len() - failures.len(),
            jobs.len(),
            failures.len(),
            if failures.is_empty() {
                String::new()
            } else {
                format!(": {}", failures.join(", "))
            }
        );
        print_messages(&[summary]);
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// A conversion shown on a terminal: the text as the viewer would show it (control characters
/// and escape sequences replaced, Shift_JIS shown as text), with a note when that changed
/// anything. Files and pipes get the exact bytes.
fn write_for_terminal(out: &mut Out, text: &str, encoding: TextEncoding) {
    let mut shown = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let clean = sanitize(line.trim_end_matches(['\n', '\r']));
        changed |= matches!(clean, std::borrow::Cow::Owned(_));
        shown.push_str(&clean);
        if line.ends_with('\n') {
            shown.push('\n');
        }
    }
    let mut notes = Vec::new();
    if changed {
        notes.push("control characters and escape sequences were replaced by \u{FFFD}");
    }
    if encoding != TextEncoding::Utf8 {
        notes.push("Shift_JIS is shown as text");
    }
    out.write(shown.as_bytes());
    if !notes.is_empty() {
        print_messages(&[format!(
            "kifview convert: standard output is a terminal: {}; redirect to a file or a pipe for the exact bytes",
            notes.join("; ")
        )]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_output_format_is_a_writable_entry_of_the_table() {
        for t in ToFormat::value_variants() {
            let ty = t.file_type();
            assert!(ty.writable, "{}", ty.ext);
        }
        assert_eq!(ToFormat::Kif.file_type().encoding, TextEncoding::ShiftJis);
        assert_eq!(ToFormat::Ki2u.file_type().encoding, TextEncoding::Utf8);
    }
}
