//! `kifview show`: the position after a move of the main line, as a BOD diagram or SFEN.

use super::{Out, parse_record, print_messages};
use clap::Args;
use kifview::{convert, load};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ShowArgs {
    pub file: PathBuf,
    /// The position after this move of the main line (default: the last), numbered as the
    /// record numbers its moves (from 81 after `手数＝80`, where 80 and below are the start);
    /// more than the main line holds is an error.
    #[arg(long)]
    pub ply: Option<u32>,
    /// Print SFEN instead of a BOD diagram.
    #[arg(long)]
    pub sfen: bool,
    /// Which record of a multi-record CSA file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = parse_record)]
    pub record: usize,
}

pub fn run(a: ShowArgs) -> ExitCode {
    let loaded = match load::load_input(&a.file) {
        Ok(l) => l,
        Err(e) => {
            print_messages(&[e]);
            return ExitCode::from(1);
        }
    };
    let parsed = match load::pick_record(&loaded, a.record, &a.file) {
        Ok(p) => p,
        Err(e) => {
            print_messages(&[e]);
            return ExitCode::from(2);
        }
    };
    let name = a.file.display().to_string();
    let warnings: Vec<String> = convert::warning_lines(&name, parsed).collect();
    print_messages(&warnings);
    let text = match convert::position_text(&parsed.record, a.ply, a.sfen) {
        Ok(t) => t,
        Err(e) => {
            print_messages(&[format!("{name}: {e}")]);
            return ExitCode::from(2);
        }
    };
    let mut out = Out::new();
    out.write(text.as_bytes());
    match out.finish("kifview show") {
        Ok(()) => ExitCode::SUCCESS,
        Err(c) => c,
    }
}
