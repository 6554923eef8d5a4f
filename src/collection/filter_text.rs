//! The filter a person types (the viewer's game list and explorer, `--filter` of `find`,
//! `explore`, `games` and `report`): `羽生`, `player:藤井 event:竜王 2020..2023 result:sente
//! tag:四間飛車 -tag:穴熊 me:sente`, read into the same [`Filter`] as the CLI's options.
//!
//! Words are separated by spaces. `player:`, `sente:`, `gote:`, `event:`, `tag:`, `under:`
//! take the rest of the word; `result:` takes `sente`, `gote`, `draw` or `unknown`; `from:`
//! and `to:` a date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`, `/` also accepted; a day that does not
//! exist, `2024-02-30`, is an error). A word that is a date or a range of dates (`2021`,
//! `2020..2023`, `2020-04..`, `..2019`) sets `from`/`to` (`to` takes all of its year or
//! month). `me` takes the games I played (`me:sente`, `me:gote`: as that side), "me" being the
//! config's `[collection] me` or `--me`. Any other word is a name either side's contains
//! (several such words: the words joined, one name).
//!
//! A repeated key is one more condition: `player:羽生 player:藤井` are the games between the
//! two, in either colour; `tag:美濃 tag:穴熊` the games with both. A `-` before a `player:`,
//! `sente:`, `gote:`, `event:` or `tag:` word (or a bare name) excludes what it matches.
//!
//! Names, events and tags match after [`name_key`]: Unicode NFKC (full-width letters and digits
//! are the ASCII ones, half-width katakana the full-width), case and every space ignored, so
//! `羽生善治` finds `羽生 善治竜王` (a title or rank after a name stays part of it: the name
//! contains the query) and `第27期` finds `第２７期`. A tag finds its family
//! ([`super::tags::family`]).

use super::{Field, Filter, GameResult, MeSide, Term, name_key};

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (`/` also accepted), normalised with `-`; what `--from`,
/// `--to` and the typed filter take. A month or day that does not exist is an error naming
/// the date.
pub fn parse_date(s: &str) -> Result<String, String> {
    let d = s.trim().replace('/', "-");
    let parts: Vec<&str> = d.split('-').collect();
    let ok = matches!(parts.len(), 1..=3)
        && parts[0].len() == 4
        && parts[1..].iter().all(|p| p.len() == 2)
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
    if !ok {
        return Err(format!("expected YYYY, YYYY-MM or YYYY-MM-DD, got '{s}'"));
    }
    let n = |i: usize| parts.get(i).and_then(|p| p.parse::<u32>().ok());
    if let Some(m) = n(1)
        && !(1..=12).contains(&m)
    {
        return Err(format!("'{s}' is not a date: there is no month {m}"));
    }
    if let (Some(y), Some(m), Some(day)) = (n(0), n(1), n(2)) {
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        let days = match m {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        if !(1..=days).contains(&day) {
            return Err(format!(
                "'{s}' is not a date: month {m} of {y} has {days} days"
            ));
        }
    }
    Ok(d)
}

const KEYS: &str = "player, sente, gote, event, tag, result, from, to, under, me";

impl Filter {
    /// Reads a typed filter (see the module docs); an error names the word it cannot read.
    pub fn parse(text: &str) -> Result<Filter, String> {
        let mut f = Filter::default();
        let mut names: Vec<&str> = Vec::new();
        for word in text.split_whitespace() {
            let (exclude, rest) = match word.strip_prefix('-') {
                Some(r) if !r.is_empty() && !r.starts_with('-') => (true, r),
                _ => (false, word),
            };
            let field = |key: &str| match key {
                "player" => Some(Field::Player),
                "sente" => Some(Field::Sente),
                "gote" => Some(Field::Gote),
                "event" => Some(Field::Event),
                "tag" => Some(Field::Tag),
                _ => None,
            };
            if rest == "me" || rest.starts_with("me:") {
                if exclude {
                    return Err(format!("{word}: my games cannot be excluded"));
                }
                f.me = Some(match rest {
                    "me" | "me:either" => MeSide::Either,
                    "me:sente" => MeSide::Sente,
                    "me:gote" => MeSide::Gote,
                    _ => return Err(format!("{word}: expected me, me:sente or me:gote")),
                });
            } else if let Some((key, value)) = rest.split_once(':') {
                if let Some(field) = field(key) {
                    if name_key(value).is_empty() {
                        return Err(format!("{word}: '{key}:' needs a value"));
                    }
                    f.terms.push(Term {
                        field,
                        value: value.to_string(),
                        exclude,
                    });
                    continue;
                }
                if exclude {
                    return Err(format!(
                        "{word}: only player:, sente:, gote:, event: and tag: can be excluded"
                    ));
                }
                let v = Some(value.to_string());
                match key {
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
                        return Err(format!("{word}: unknown filter '{key}:' ({KEYS})"));
                    }
                }
            } else if exclude {
                f.terms.push(Term {
                    field: Field::Player,
                    value: rest.to_string(),
                    exclude: true,
                });
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
            } else if looks_like_date(word) {
                // `2024-02-30`: a date that does not exist, not a name.
                return Err(parse_date(word).unwrap_err());
            } else {
                names.push(word);
            }
        }
        if !names.is_empty() {
            f.terms.push(Term::new(Field::Player, &names.join(" ")));
        }
        Ok(f)
    }

    /// `under` made absolute, from `base` (the current folder) when it is relative, as the
    /// catalog names files ([`super::walk::path_key`]).
    pub fn absolute_under(mut self, base: &std::path::Path) -> Filter {
        if let Some(u) = self.under.take() {
            let p = base.join(u);
            let abs = std::fs::canonicalize(&p)
                .or_else(|_| std::path::absolute(&p))
                .unwrap_or(p);
            self.under = Some(super::walk::path_key(&abs));
        }
        self
    }

    /// An error when the filter asks for my games and nobody is "me".
    pub fn check_me(&self) -> Result<(), String> {
        if self.me.is_some() && self.me_who().is_none() {
            return Err(
                "'me': who is me? Set `[collection] me = [\"NAME\", …]` in the config \
                 or give --me NAME"
                    .into(),
            );
        }
        Ok(())
    }
}

/// `YYYY-MM-DD` in shape (digits and `-` or `/`), whatever the numbers.
fn looks_like_date(w: &str) -> bool {
    let b = w.as_bytes();
    matches!(b.len(), 7 | 10)
        && b.iter().enumerate().all(|(i, &c)| {
            if i == 4 || i == 7 {
                c == b'-' || c == b'/'
            } else {
                c.is_ascii_digit()
            }
        })
}

/// The filter of `find`, `explore`, `games` and `report`: their options' filter (`flags`, with
/// `under` already absolute) and the typed one (`--filter TEXT`, relative `under:` taken from
/// the current folder), every condition of both holding; "me" is `me` (`--me`, repeatable),
/// else `config_me` (the config's `[collection] me`). An error names what cannot be read (or
/// asks who "me" is when the filter says `me` and nobody is).
pub fn combine(
    flags: Filter,
    text: Option<&str>,
    me: &[String],
    config_me: &[String],
) -> Result<Filter, String> {
    let mut f = flags;
    if let Some(text) = text {
        let cwd = std::env::current_dir().unwrap_or_default();
        let t = Filter::parse(text)
            .map_err(|e| format!("--filter: {e}"))?
            .absolute_under(&cwd);
        f.terms.extend(t.terms);
        f.from = match (f.from, t.from) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        // `to` compares as a prefix: the earlier end is the one whose padded text is less.
        let end = |d: &String| format!("{d}~");
        f.to = match (f.to, t.to) {
            (Some(a), Some(b)) => Some(if end(&b) < end(&a) { b } else { a }),
            (a, b) => a.or(b),
        };
        match (f.under.as_ref(), t.under) {
            (Some(a), Some(b)) if *a != b => {
                return Err(format!(
                    "--filter: under:{b}: the options ask for under {a}"
                ));
            }
            (_, Some(b)) => f.under = Some(b),
            _ => {}
        }
        match (f.result, t.result) {
            (Some(a), Some(b)) if a != b => {
                return Err(format!(
                    "--filter: result:{}: the options ask for result {}",
                    b.word(),
                    a.word()
                ));
            }
            (_, Some(b)) => f.result = Some(b),
            _ => {}
        }
        f.me = f.me.or(t.me);
    }
    f.me_names = if me.is_empty() {
        config_me.to_vec()
    } else {
        me.to_vec()
    };
    f.check_me()?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of the filter's terms on `field`, with a `-` before those excluded.
    fn values(f: &Filter, field: Field) -> Vec<String> {
        f.terms
            .iter()
            .filter(|t| t.field == field)
            .map(|t| format!("{}{}", if t.exclude { "-" } else { "" }, t.value))
            .collect()
    }

    #[test]
    fn typed_filters_read_into_the_cli_filters() {
        let f =
            Filter::parse("player:藤井 event:竜王 2020..2023 result:sente tag:四間飛車").unwrap();
        assert_eq!(values(&f, Field::Player), ["藤井"]);
        assert_eq!(values(&f, Field::Event), ["竜王"]);
        assert_eq!(
            (f.from.as_deref(), f.to.as_deref()),
            (Some("2020"), Some("2023"))
        );
        assert_eq!(f.result, Some(GameResult::Sente));
        assert_eq!(values(&f, Field::Tag), ["四間飛車"]);
        let f = Filter::parse("  羽生  ").unwrap();
        assert_eq!(values(&f, Field::Player), ["羽生"]);
        assert!(f.from.is_none());
        let f = Filter::parse("2021/04.. sente:甲 gote:乙 2019").unwrap();
        assert_eq!(
            (f.from.as_deref(), f.to.as_deref()),
            (Some("2019"), Some("2019"))
        );
        assert_eq!(values(&f, Field::Sente), ["甲"]);
        assert_eq!(values(&f, Field::Gote), ["乙"]);
        let f = Filter::parse("..2019-12 from:2018-01-02").unwrap();
        assert_eq!(
            (f.from.as_deref(), f.to.as_deref()),
            (Some("2018-01-02"), Some("2019-12"))
        );
        assert!(Filter::parse("").unwrap().is_empty());
    }

    #[test]
    fn repeated_keys_all_hold_and_a_dash_excludes() {
        // Before: the last `player:` silently replaced the first.
        let f = Filter::parse("player:羽生 player:藤井 -player:佐藤 -tag:穴熊 tag:美濃").unwrap();
        assert_eq!(values(&f, Field::Player), ["羽生", "藤井", "-佐藤"]);
        assert_eq!(values(&f, Field::Tag), ["-穴熊", "美濃"]);
        let f = Filter::parse("-羽生 木村").unwrap();
        assert_eq!(values(&f, Field::Player), ["-羽生", "木村"]);
        let e = Filter::parse("-result:sente").unwrap_err();
        assert!(e.contains("-result:sente") && e.contains("excluded"), "{e}");
        let e = Filter::parse("player:").unwrap_err();
        assert!(e.contains("needs a value"), "{e}");
    }

    #[test]
    fn me_words_and_who_me_is() {
        assert_eq!(Filter::parse("me").unwrap().me, Some(MeSide::Either));
        assert_eq!(Filter::parse("me:sente").unwrap().me, Some(MeSide::Sente));
        assert_eq!(Filter::parse("me:gote").unwrap().me, Some(MeSide::Gote));
        let e = Filter::parse("me:black").unwrap_err();
        assert!(e.contains("me:black"), "{e}");
        // `me` without a "me" is an error saying how to name oneself.
        let e = combine(Filter::default(), Some("me"), &[], &[]).unwrap_err();
        assert!(e.contains("--me") && e.contains("[collection] me"), "{e}");
        // --me wins over the config's.
        let conf = ["藤井聡太".to_string()];
        let f = combine(Filter::default(), Some("me:gote"), &[], &conf).unwrap();
        assert_eq!(
            (f.me, f.me_names.as_slice()),
            (Some(MeSide::Gote), &conf[..])
        );
        let given = ["fujii_s".to_string()];
        let f = combine(Filter::default(), None, &given, &conf).unwrap();
        assert_eq!(f.me_names, given);
        assert_eq!(f.me, None);
    }

    #[test]
    fn options_and_typed_filter_combine() {
        let flags = Filter {
            from: Some("2019".into()),
            to: Some("2023".into()),
            ..Filter::default()
        }
        .with(Term::new(Field::Player, "羽生"));
        let f = combine(flags.clone(), Some("player:藤井 2020..2023-06"), &[], &[]).unwrap();
        assert_eq!(values(&f, Field::Player), ["羽生", "藤井"]);
        assert_eq!(
            (f.from.as_deref(), f.to.as_deref()),
            (Some("2020"), Some("2023-06"))
        );
        let flags = Filter {
            result: Some(GameResult::Gote),
            ..Filter::default()
        };
        let e = combine(flags, Some("result:sente"), &[], &[]).unwrap_err();
        assert!(e.contains("--filter: result:sente"), "{e}");
        let e = combine(Filter::default(), Some("tag:"), &[], &[]).unwrap_err();
        assert!(e.starts_with("--filter: tag:"), "{e}");
    }

    #[test]
    fn names_compare_after_nfkc_case_and_spaces() {
        assert_eq!(name_key("羽生 善治竜王"), "羽生善治竜王");
        assert_eq!(name_key("羽生\u{3000}善治"), "羽生善治");
        assert_eq!(name_key("第２７期"), "第27期");
        assert_eq!(name_key("Ｆｕｊｉｉ Sota"), "fujiisota");
        assert_eq!(name_key("ｶﾂｵ"), "カツオ");
        assert!(name_key("第２７期 竜王戦").contains(&name_key("第27期")));
    }

    #[test]
    fn impossible_dates_are_errors_naming_them() {
        for (bad, why) in [
            ("2024-02-30", "month 2 of 2024 has 29 days"),
            ("2023-02-29", "month 2 of 2023 has 28 days"),
            ("2024-13", "no month 13"),
            ("2024-04-31", "has 30 days"),
            ("2024-00-10", "no month 0"),
        ] {
            let e = parse_date(bad).unwrap_err();
            assert!(e.contains(bad) && e.contains(why), "{bad}: {e}");
            let e = Filter::parse(bad).unwrap_err();
            assert!(e.contains(bad), "{e}");
            let e = Filter::parse(&format!("from:{bad}")).unwrap_err();
            assert!(e.contains(bad), "{e}");
            let e = Filter::parse(&format!("2020..{bad}")).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
        assert_eq!(parse_date("2024-02-29").unwrap(), "2024-02-29");
        assert_eq!(parse_date("2000/02/29").unwrap(), "2000-02-29");
        assert!(parse_date("1900-02-29").is_err());
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
