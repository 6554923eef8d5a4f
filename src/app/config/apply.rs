//! A config file's values over the config: each part of the file (display, board, analysis,
//! keys) in a step of its own, every named value through one [`choice`].

use super::{
    AmbiguousWidth, BoardSize, BoardStyle, Config, ConfigError, KeyMode, MoveNotation, RawAnalysis,
    RawBoard, RawConfig, SaveEncoding, apply_colors, choice, err_at,
};
use crate::app::dispatch::command::Command;
use crate::app::dispatch::input::KeyEvent;
use crate::core::notation::TextEncoding;
use std::collections::BTreeMap;
use toml::Spanned;

impl Config {
    pub(super) fn apply(
        &mut self,
        file: &str,
        text: &str,
        raw: RawConfig,
    ) -> Result<(), ConfigError> {
        if let Some(v) = raw.ambiguous_width {
            let choices = [
                ("auto", AmbiguousWidth::Auto),
                ("single", AmbiguousWidth::Single),
                ("double", AmbiguousWidth::Double),
            ];
            self.ambiguous_width = choice(file, text, &v, "ambiguous_width", &choices)?;
        }
        if let Some(v) = raw.save_encoding {
            self.save_encoding = save_encoding(file, text, &v)?;
        }
        if let Some(n) = raw.recovery_interval {
            let s = in_range(file, text, &n, "recovery_interval", 0..=86_400, " seconds")?;
            self.recovery_interval = s as u64;
        }
        if let Some(b) = raw.board {
            self.apply_board(file, text, b)?;
        }
        if let Some(v) = raw.move_list.and_then(|m| m.notation) {
            let choices = [("kif", MoveNotation::Kif), ("ki2", MoveNotation::Ki2)];
            self.move_notation = choice(file, text, &v, "move_list.notation", &choices)?;
        }
        if let Some(me) = raw.collection.and_then(|c| c.me) {
            self.me = me;
        }
        if let Some(list) = raw.engines {
            let span = list.span();
            let list = list.into_inner();
            if let Some(i) = list.iter().position(|e| e.command.as_os_str().is_empty()) {
                return Err(err_at(
                    file,
                    text,
                    span,
                    format!("engines: entry {} has an empty command", i + 1),
                ));
            }
            self.engines = list;
        }
        if let Some(files) = raw.books.and_then(|b| b.files) {
            self.books = files
                .iter()
                .map(|f| crate::app::document::expand_path(f))
                .collect();
        }
        if let Some(d) = raw.diagram {
            d.apply(&mut self.diagram)
                .map_err(|(span, m)| err_at(file, text, span, m))?;
        }
        if let Some(a) = raw.analysis {
            self.apply_analysis(file, text, a)?;
        }
        if let Some(c) = raw.colors {
            apply_colors(file, text, &mut self.colors, c)?;
        }
        if let Some(keys) = raw.keys {
            self.apply_keys(file, text, keys)?;
            self.check_way_out(file)?;
        }
        Ok(())
    }

    fn apply_board(&mut self, file: &str, text: &str, b: RawBoard) -> Result<(), ConfigError> {
        if let Some(v) = b.style {
            let choices = [("bod", BoardStyle::Bod), ("plain", BoardStyle::Plain)];
            self.board_style = choice(file, text, &v, "board.style", &choices)?;
        }
        if let Some(c) = b.coordinates {
            self.coordinates = c;
        }
        if let Some(v) = b.size {
            let choices =
                [BoardSize::Auto, BoardSize::Bod, BoardSize::Large].map(|z| (z.name(), z));
            self.board_size = choice(file, text, &v, "board.size", &choices)?;
        }
        Ok(())
    }

    fn apply_analysis(
        &mut self,
        file: &str,
        text: &str,
        a: RawAnalysis,
    ) -> Result<(), ConfigError> {
        if let Some(n) = a.multipv {
            self.analysis.multipv =
                in_range(file, text, &n, "analysis.multipv", 1..=20, "")? as u32;
        }
        if let Some(b) = a.best_move {
            self.analysis.best_move = b;
        }
        const MS: std::ops::RangeInclusive<i64> = 10..=3_600_000;
        if let Some(n) = a.analyze_time_ms {
            self.analysis.analyze_time_ms = in_range(
                file,
                text,
                &n,
                "analysis.analyze_time_ms",
                MS,
                " milliseconds",
            )? as u64;
        }
        if let Some(n) = a.mate_time_ms {
            self.analysis.mate_time_ms =
                in_range(file, text, &n, "analysis.mate_time_ms", MS, " milliseconds")? as u64;
        }
        if let Some(n) = a.tsume_mate_time_ms {
            self.analysis.tsume_mate_time_ms = in_range(
                file,
                text,
                &n,
                "analysis.tsume_mate_time_ms",
                MS,
                " milliseconds",
            )? as u64;
        }
        Ok(())
    }

    fn apply_keys(
        &mut self,
        file: &str,
        text: &str,
        keys: BTreeMap<Spanned<String>, super::RawKeys>,
    ) -> Result<(), ConfigError> {
        for (mode, table) in keys {
            let Some(m) = KeyMode::from_name(mode.get_ref()) else {
                return Err(err_at(
                    file,
                    text,
                    mode.span(),
                    format!(
                        "unknown key mode `{}` (expected normal, tree, help, command, board, editor, list, copy or paste)",
                        mode.get_ref()
                    ),
                ));
            };
            for (key, cmd) in table {
                let k = KeyEvent::parse(key.get_ref()).map_err(|e| {
                    err_at(file, text, key.span(), format!("keys.{}: {e}", m.name()))
                })?;
                let c = Command::from_name(cmd.get_ref()).ok_or_else(|| {
                    err_at(
                        file,
                        text,
                        cmd.span(),
                        format!(
                            "keys.{}: unknown command `{}` for key `{}`",
                            m.name(),
                            cmd.get_ref(),
                            key.get_ref()
                        ),
                    )
                })?;
                self.keymap.bind(m, k, c);
            }
        }
        Ok(())
    }
}

/// `save_encoding`: "auto", or a label of UTF-8 or Shift_JIS.
fn save_encoding(file: &str, text: &str, v: &Spanned<String>) -> Result<SaveEncoding, ConfigError> {
    let s = v.get_ref().as_str();
    if s == "auto" {
        return Ok(SaveEncoding::Auto);
    }
    match TextEncoding::from_label(s) {
        Some(e @ (TextEncoding::Utf8 | TextEncoding::ShiftJis)) => Ok(SaveEncoding::Fixed(e)),
        _ => Err(err_at(
            file,
            text,
            v.span(),
            format!(
                "save_encoding: unknown value `{s}` (expected \"auto\", \"utf-8\" or \"shift_jis\")"
            ),
        )),
    }
}

/// `analysis.NAME`, checked to lie in `range` (`unit` for the message).
fn in_range(
    file: &str,
    text: &str,
    n: &Spanned<i64>,
    name: &str,
    range: std::ops::RangeInclusive<i64>,
    unit: &str,
) -> Result<i64, ConfigError> {
    let v = *n.get_ref();
    if range.contains(&v) {
        return Ok(v);
    }
    Err(err_at(
        file,
        text,
        n.span(),
        format!(
            "{name}: {v} is out of range (expected {} to {}{unit})",
            range.start(),
            range.end()
        ),
    ))
}
