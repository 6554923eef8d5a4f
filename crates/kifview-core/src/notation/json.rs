//! A JSON reader without recursion, for JKF: values are kept in one arena (children before
//! their container), parsed with an explicit stack and dropped as a flat vector, so a record
//! whose variations nest 100,000 deep reads like any other. (serde_json stops at 128 levels,
//! about 40 levels of JKF forks; its `unbounded_depth` would parse deeper on a grown stack but
//! still drop a deep `Value` recursively.)

use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Null,
    Bool(bool),
    /// The number and its text as written.
    Num(f64, String),
    Str(String),
    Arr(Vec<u32>),
    Obj(Vec<(String, u32)>),
}

/// A parsed JSON document.
#[derive(Debug)]
pub(crate) struct Doc {
    nodes: Vec<Node>,
}

/// A value in a [`Doc`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Value<'a> {
    doc: &'a Doc,
    index: u32,
}

/// Why text is not JSON, and where (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JsonError {
    pub line: usize,
    pub column: usize,
    pub message: &'static str,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl Doc {
    pub fn root(&self) -> Value<'_> {
        Value {
            doc: self,
            index: (self.nodes.len() - 1) as u32,
        }
    }
}

impl<'a> Value<'a> {
    fn node(&self) -> &'a Node {
        &self.doc.nodes[self.index as usize]
    }
    fn at(&self, index: u32) -> Value<'a> {
        Value {
            doc: self.doc,
            index,
        }
    }
    /// The value of `key` in an object (the last one when a key repeats).
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        match self.node() {
            Node::Obj(fields) => fields
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|&(_, i)| self.at(i)),
            _ => None,
        }
    }
    /// The fields of an object in file order.
    pub fn fields(&self) -> Option<impl Iterator<Item = (&'a str, Value<'a>)> + use<'a>> {
        let this = *self;
        match self.node() {
            Node::Obj(fields) => Some(fields.iter().map(move |(k, i)| (k.as_str(), this.at(*i)))),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<impl Iterator<Item = Value<'a>> + use<'a>> {
        let this = *self;
        match self.node() {
            Node::Arr(items) => Some(items.iter().map(move |&i| this.at(i))),
            _ => None,
        }
    }
    pub fn is_array(&self) -> bool {
        matches!(self.node(), Node::Arr(_))
    }
    pub fn is_object(&self) -> bool {
        matches!(self.node(), Node::Obj(_))
    }
    pub fn is_null(&self) -> bool {
        matches!(self.node(), Node::Null)
    }
    pub fn as_str(&self) -> Option<&'a str> {
        match self.node() {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self.node() {
            Node::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self.node() {
            Node::Num(n, _) => Some(*n),
            _ => None,
        }
    }
    /// A non-negative integer written without a fraction or exponent.
    pub fn as_u64(&self) -> Option<u64> {
        match self.node() {
            Node::Num(_, text) => text.parse().ok(),
            _ => None,
        }
    }
    /// The value as compact JSON text (for header values that are not strings).
    pub fn to_json(self) -> String {
        let mut out = String::new();
        // (value, fields written so far) on an explicit stack.
        let mut stack = vec![(self, 0usize)];
        while let Some((v, k)) = stack.pop() {
            match v.node() {
                Node::Null => out.push_str("null"),
                Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Node::Num(_, t) => out.push_str(t),
                Node::Str(s) => push_str_json(&mut out, s),
                Node::Arr(items) => {
                    out.push(if k == 0 { '[' } else { ',' });
                    match items.get(k) {
                        Some(&i) => {
                            stack.push((v, k + 1));
                            stack.push((v.at(i), 0));
                        }
                        None => {
                            if k == 0 {
                                out.push(']');
                            } else {
                                out.pop();
                                out.push(']');
                            }
                        }
                    }
                }
                Node::Obj(fields) => {
                    out.push(if k == 0 { '{' } else { ',' });
                    match fields.get(k) {
                        Some((key, i)) => {
                            push_str_json(&mut out, key);
                            out.push(':');
                            stack.push((v, k + 1));
                            stack.push((v.at(*i), 0));
                        }
                        None => {
                            if k == 0 {
                                out.push('}');
                            } else {
                                out.pop();
                                out.push('}');
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

fn push_str_json(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A container being read.
enum Open {
    Arr(Vec<u32>),
    /// The fields so far and the key of the value being read.
    Obj(Vec<(String, u32)>, Option<String>),
}

struct Parser<'t> {
    b: &'t [u8],
    text: &'t str,
    i: usize,
}

impl Parser<'_> {
    fn error(&self, message: &'static str) -> JsonError {
        let upto = &self.text.as_bytes()[..self.i.min(self.b.len())];
        let line = upto.iter().filter(|&&c| c == b'\n').count() + 1;
        let start = upto.iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(&upto[start..]).chars().count() + 1;
        JsonError {
            line,
            column,
            message,
        }
    }
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }
    fn eof_or(&self, message: &'static str) -> JsonError {
        if self.i >= self.b.len() {
            self.error("EOF while parsing a value")
        } else {
            self.error(message)
        }
    }
    fn string(&mut self) -> Result<String, JsonError> {
        // At the opening quote.
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&c) = self.b.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&self.text[start..self.i]);
            match self.b.get(self.i) {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = self.b.get(self.i).copied();
                    self.i += 1;
                    match c {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi) {
                                if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
                                    return Err(self.error("lone leading surrogate in hex escape"));
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.error("invalid unicode code point"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            out.push(
                                char::from_u32(c)
                                    .ok_or_else(|| self.error("invalid unicode code point"))?,
                            );
                        }
                        _ => return Err(self.error("invalid escape")),
                    }
                }
                Some(_) => return Err(self.error("control character in a string")),
            }
        }
    }
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self
            .text
            .get(self.i..self.i + 4)
            .ok_or_else(|| self.error("EOF while parsing a string"))?;
        let n = u32::from_str_radix(digits, 16).map_err(|_| self.error("invalid escape"))?;
        self.i += 4;
        Ok(n)
    }
    /// A scalar (not a container) at `i`.
    fn scalar(&mut self) -> Result<Node, JsonError> {
        let rest = &self.b[self.i..];
        for (word, node) in [
            (&b"null"[..], Node::Null),
            (b"true", Node::Bool(true)),
            (b"false", Node::Bool(false)),
        ] {
            if rest.starts_with(word) {
                self.i += word.len();
                return Ok(node);
            }
        }
        if rest.first() == Some(&b'"') {
            return self.string().map(Node::Str);
        }
        let len = rest
            .iter()
            .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
            .unwrap_or(rest.len());
        let text = &self.text[self.i..self.i + len];
        let first_ok = text.starts_with(|c: char| c == '-' || c.is_ascii_digit());
        match text.parse::<f64>() {
            Ok(n) if first_ok && n.is_finite() => {
                self.i += len;
                Ok(Node::Num(n, text.to_string()))
            }
            _ => Err(self.eof_or("expected value")),
        }
    }
}

/// Parses JSON text (one value, white space around it).
pub(crate) fn parse(text: &str) -> Result<Doc, JsonError> {
    let mut p = Parser {
        b: text.as_bytes(),
        text,
        i: 0,
    };
    let mut nodes: Vec<Node> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    loop {
        // Expecting a value (or, in a container, its end).
        p.skip_ws();
        let closes_empty = match (stack.last(), p.b.get(p.i)) {
            (Some(Open::Arr(items)), Some(b']')) if items.is_empty() => true,
            (Some(Open::Obj(fields, None)), Some(b'}')) if fields.is_empty() => true,
            _ => false,
        };
        let done: Option<Node>;
        if closes_empty {
            p.i += 1;
            done = Some(match stack.pop() {
                Some(Open::Arr(items)) => Node::Arr(items),
                Some(Open::Obj(fields, _)) => Node::Obj(fields),
                None => unreachable!("checked above"),
            });
        } else if let Some(Open::Obj(_, key @ None)) = stack.last_mut() {
            if p.b.get(p.i) != Some(&b'"') {
                return Err(p.eof_or("key must be a string"));
            }
            *key = Some(p.string()?);
            p.skip_ws();
            if p.b.get(p.i) != Some(&b':') {
                return Err(p.eof_or("expected `:`"));
            }
            p.i += 1;
            continue;
        } else {
            match p.b.get(p.i) {
                Some(b'[') => {
                    p.i += 1;
                    stack.push(Open::Arr(Vec::new()));
                    continue;
                }
                Some(b'{') => {
                    p.i += 1;
                    stack.push(Open::Obj(Vec::new(), None));
                    continue;
                }
                _ => done = Some(p.scalar()?),
            }
        }
        // A value is complete: add it to its container, and close containers that end here.
        let mut value = done.expect("a value");
        loop {
            nodes.push(value);
            let index = (nodes.len() - 1) as u32;
            match stack.last_mut() {
                None => {
                    p.skip_ws();
                    if p.i < p.b.len() {
                        return Err(p.error("trailing characters"));
                    }
                    return Ok(Doc { nodes });
                }
                Some(Open::Arr(items)) => items.push(index),
                Some(Open::Obj(fields, key)) => {
                    fields.push((key.take().unwrap_or_default(), index));
                }
            }
            p.skip_ws();
            let close = match (stack.last(), p.b.get(p.i)) {
                (_, Some(b',')) => {
                    p.i += 1;
                    break;
                }
                (Some(Open::Arr(_)), Some(b']')) | (Some(Open::Obj(..)), Some(b'}')) => true,
                (Some(Open::Arr(_)), _) => return Err(p.eof_or("expected `,` or `]`")),
                _ => return Err(p.eof_or("expected `,` or `}`")),
            };
            debug_assert!(close);
            p.i += 1;
            value = match stack.pop() {
                Some(Open::Arr(items)) => Node::Arr(items),
                Some(Open::Obj(fields, _)) => Node::Obj(fields),
                None => unreachable!("a container was open"),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_values_and_says_where_it_stops() {
        let d = parse(r#" {"a": [1, 2.5, -3e2, "x\u00e9\ud83d\ude00\n"], "b": {}, "c": [], "a": true, "n": null} "#)
            .unwrap();
        let r = d.root();
        assert_eq!(r.get("a").and_then(|v| v.as_bool()), Some(true));
        assert!(r.get("n").unwrap().is_null());
        assert_eq!(r.fields().unwrap().count(), 5);
        let a = r.fields().unwrap().next().unwrap().1;
        let items: Vec<Value> = a.as_array().unwrap().collect();
        assert_eq!(items[0].as_u64(), Some(1));
        assert_eq!(items[1].as_u64(), None);
        assert_eq!(items[2].as_f64(), Some(-300.0));
        assert_eq!(items[3].as_str(), Some("xé😀\n"));
        assert_eq!(a.to_json(), r#"[1,2.5,-3e2,"xé😀\n"]"#);
        assert_eq!(r.get("b").unwrap().to_json(), "{}");
        for (text, line, column) in [
            ("{\"header\":", 1, 11),
            ("{\n  \"a\": [1,\n  2", 3, 4),
            ("[1] x", 1, 5),
            ("{1:2}", 1, 2),
            ("", 1, 1),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
        }
    }

    #[test]
    fn nesting_has_no_limit() {
        let depth = 200_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let d = parse(&text).unwrap();
        assert!(d.root().is_array());
        let mut v = d.root();
        let mut n = 1;
        while let Some(first) = v.as_array().unwrap().next() {
            v = first;
            n += 1;
        }
        assert_eq!(n, depth);
    }
}
