//! The filter a person types (the viewer's game list, issue 23): `羽生`,
//! `player:藤井 event:竜王 2020..2023 result:sente tag:四間飛車`, read into the same
//! [`Filter`] as the CLI's options.
//!
//! Words are separated by spaces. `player:`, `sente:`, `gote:`, `event:`, `tag:`, `under:`
//! take the rest of the word; `result:` takes `sente`, `gote`, `draw` or `unknown`; `from:`
//! and `to:` a date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`, `/` also accepted). A word that is a
//! date or a range of dates (`2021`, `2020..2023`, `2020-04..`, `..2019`) sets `from`/`to`
//! (`to` takes all of its year or month). Any other word is a name either side's contains
//! (several such words: the words joined by a space, one name).

use super::{Filter, GameResult};

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (`/` also accepted), normalised with `-`; what `--from`,
/// `--to` and the typed filter take.
pub fn parse_date(s: &str) -> Result<String, String> {
    let d = s.trim().replace('/', "-");
    let parts: Vec<&str> = d.split('-').collect();
    let ok = matches!(parts.len(), 1..=3)
        && parts[0].len() == 4
        && parts[1..].iter().all(|p| p.len() == 2)
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
    if ok {
        Ok(d)
    } else {
        Err(format!("expected YYYY, YYYY-MM or YYYY-MM-DD, got '{s}'"))
    }
}

impl Filter {
    /// Reads a typed filter (see the module docs); an error names the word it cannot read.
    pub fn parse(text: &str) -> Result<Filter, String> {
        let mut f = Filter::default();
        let mut names: Vec<&str> = Vec::new();
        for word in text.split_whitespace() {
            if let Some((key, value)) = word.split_once(':') {
                let v = Some(value.to_string());
                match key {
                    "player" => f.player = v,
                    "sente" => f.sente = v,
                    "gote" => f.gote = v,
                    "event" => f.event = v,
                    "tag" => f.tag = v,
                    "under" => f.under = v,
                    "from" => f.from = Some(parse_date(value)?),
                    "to" => f.to = Some(parse_date(value)?),
                    "result" => {
                        f.result = Some(
                            GameResult::ALL
                                .into_iter()
                                .find(|o| o.word() == value)
                                .ok_or_else(|| {
                                    format!("result:{value}: expected sente, gote, draw or unknown")
                                })?,
                        )
                    }
                    _ => {
                        return Err(format!(
                            "{word}: unknown filter '{key}:' (player, sente, gote, event, tag, \
                             result, from, to, under)"
                        ));
                    }
                }
            } else if let Some((from, to)) = word.split_once("..") {
                if !from.is_empty() {
                    f.from = Some(parse_date(from)?);
                }
                if !to.is_empty() {
                    f.to = Some(parse_date(to)?);
                }
            } else if let Ok(d) = parse_date(word) {
                f.from = Some(d.clone());
                f.to = Some(d);
            } else {
                names.push(word);
            }
        }
        if !names.is_empty() {
            f.player = Some(names.join(" "));
        }
        Ok(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_filters_read_into_the_cli_filters() {
        let f =
            Filter::parse("player:藤井 event:竜王 2020..2023 result:sente tag:四間飛車").unwrap();
        assert_eq!(f.player.as_deref(), Some("藤井"));
        assert_eq!(f.event.as_deref(), Some("竜王"));
        assert_eq!(
            (f.from.as_deref(), f.to.as_deref()),
            (Some("2020"), Some("2023"))
        );
        assert_eq!(f.result, Some(GameResult::Sente));
        assert_eq!(f.tag.as_deref(), Some("四間飛車"));
        let f = Filter::parse("  羽生  ").unwrap();
        assert_eq!(f.player.as_deref(), Some("羽生"));
        assert!(f.event.is_none() && f.from.is_none());
        let f = Filter::parse("2021/04.. sente:甲 gote:乙 2019").unwrap();
        assert_eq!(
            (f.from.as_deref(), f.to.as_deref()),
            (Some("2019"), Some("2019"))
        );
        assert_eq!(
            (f.sente.as_deref(), f.gote.as_deref()),
            (Some("甲"), Some("乙"))
        );
        let f = Filter::parse("..2019-12 from:2018-01-02").unwrap();
        assert_eq!(
            (f.from.as_deref(), f.to.as_deref()),
            (Some("2018-01-02"), Some("2019-12"))
        );
        assert!(Filter::parse("").unwrap().is_empty());
    }

    #[test]
    fn words_it_cannot_read_are_errors_naming_them() {
        let e = Filter::parse("foo:bar").unwrap_err();
        assert!(e.contains("foo:bar") && e.contains("unknown filter"), "{e}");
        let e = Filter::parse("result:win").unwrap_err();
        assert!(e.contains("result:win"), "{e}");
        let e = Filter::parse("from:20").unwrap_err();
        assert!(e.contains("'20'"), "{e}");
        assert!(Filter::parse("2020..20x").is_err());
    }
}
