//! Building a `serde_json::Value` from JSON text that has already been checked, the way a
//! request's params are turned into what a handler receives.
//!
//! `serde_json::from_str::<Value>` is the reference, and this must give exactly its value.
//! What it does differently is the cost of long strings: serde_json gathers a string with
//! escapes into a scratch buffer that grows as it goes and then copies it into the `String`,
//! so a megabyte of text with a newline every line was copied about three times. Here a
//! string is copied once, into a `String` sized to it (runs between escapes copied whole,
//! eight bytes scanned at a time). Numbers are handed to serde_json's own parser, one at a
//! time. Anything unusual (a syntax error, a lone surrogate, very deep nesting) is left to
//! serde_json, which then gives its own value or error: this path only ever agrees with it.

use serde_json::{Map, Value};

use super::scan::plain_run;

/// Nesting deeper than this is left to serde_json (whose own limit is 128).
const MAX_DEPTH: u32 = 100;

/// `text` as a `Value`, exactly as `serde_json::from_str` gives it.
pub fn parse_value(text: &str) -> serde_json::Result<Value> {
    let mut builder = Builder { text, bytes: text.as_bytes(), at: 0, depth: 0 };
    match builder.document() {
        Some(value) => Ok(value),
        None => serde_json::from_str(text),
    }
}

struct Builder<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    depth: u32,
}

impl Builder<'_> {
    fn document(&mut self) -> Option<Value> {
        self.skip_ws();
        let value = self.value()?;
        self.skip_ws();
        (self.at == self.bytes.len()).then_some(value)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.next()? == byte).then_some(())
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Option<Value> {
        match self.peek()? {
            b'"' => {
                self.at += 1;
                self.string().map(Value::String)
            }
            b'{' => self.object(),
            b'[' => self.array(),
            b't' => self.literal(b"true", Value::Bool(true)),
            b'f' => self.literal(b"false", Value::Bool(false)),
            b'n' => self.literal(b"null", Value::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Option<Value> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then(|| {
            self.at = end;
            value
        })
    }

    /// The number's text goes to serde_json, so integers, floats and their edge cases come
    /// out as its parser makes them.
    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        match serde_json::from_str::<Value>(&self.text[start..self.at]).ok()? {
            number @ Value::Number(_) => Some(number),
            _ => None,
        }
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    fn object(&mut self) -> Option<Value> {
        self.enter()?;
        self.at += 1;
        let mut map = Map::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
        } else {
            loop {
                self.expect(b'"')?;
                let key = self.string()?;
                self.skip_ws();
                self.expect(b':')?;
                self.skip_ws();
                let value = self.value()?;
                // A repeated name keeps its first place and takes the last value, as in
                // serde_json's `Map`.
                map.insert(key, value);
                self.skip_ws();
                match self.next()? {
                    b',' => self.skip_ws(),
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(Value::Object(map))
    }

    fn array(&mut self) -> Option<Value> {
        self.enter()?;
        self.at += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.at += 1;
        } else {
            loop {
                items.push(self.value()?);
                self.skip_ws();
                match self.next()? {
                    b',' => self.skip_ws(),
                    b']' => break,
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(Value::Array(items))
    }

    /// One string, its opening quote consumed.
    fn string(&mut self) -> Option<String> {
        let start = self.at;
        let run = plain_run(&self.bytes[start..]);
        self.at += run;
        match self.next()? {
            b'"' => return Some(self.text[start..start + run].to_owned()),
            b'\\' => {}
            _ => return None,
        }
        // Escapes: find the end first, so the string is allocated once at its size.
        self.at -= 1;
        let end = self.string_end()?;
        let mut out = String::with_capacity(end - start);
        out.push_str(&self.text[start..start + run]);
        loop {
            match self.next()? {
                b'"' => return Some(out),
                b'\\' => self.escape(&mut out)?,
                _ => return None,
            }
            let from = self.at;
            self.at += plain_run(&self.bytes[from..]);
            out.push_str(&self.text[from..self.at]);
        }
    }

    /// Where the string that continues at `self.at` ends (its closing quote), without moving.
    fn string_end(&self) -> Option<usize> {
        let mut at = self.at;
        loop {
            at += plain_run(&self.bytes[at..]);
            match self.bytes.get(at)? {
                b'"' => return Some(at),
                b'\\' => at += 2,
                _ => return None,
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Option<()> {
        let c = match self.next()? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4()?;
                let code = match high {
                    0xD800..=0xDBFF => {
                        // Only a proper pair is decoded here; serde_json decides the rest.
                        if self.next()? != b'\\' || self.next()? != b'u' {
                            return None;
                        }
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return None;
                        }
                        0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    }
                    0xDC00..=0xDFFF => return None,
                    code => code,
                };
                char::from_u32(code)?
            }
            _ => return None,
        };
        out.push(c);
        Some(())
    }

    fn hex4(&mut self) -> Option<u32> {
        let hex = self.bytes.get(self.at..self.at + 4)?;
        self.at += 4;
        hex.iter().try_fold(0, |code, &digit| Some(code * 16 + char::from(digit).to_digit(16)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each text gives what serde_json gives: the same value (member order included) or an
    /// error where serde_json has one.
    fn agrees(text: &str) {
        let ours = parse_value(text);
        let theirs = serde_json::from_str::<Value>(text);
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{text}");
                assert_eq!(serde_json::to_string(a).unwrap(), serde_json::to_string(b).unwrap(), "{text}");
            }
            (Err(_), Err(_)) => {}
            _ => panic!("{text}: {ours:?} against {theirs:?}"),
        }
    }

    #[test]
    fn agrees_with_serde_json() {
        let texts = [
            r#"{"name":"echo","arguments":{"text":"hello"}}"#,
            r#" { "b" : 1 , "a" : [ 1 , -2.5e3 , true , false , null , { } , [ ] ] } "#,
            r#"{"a":1,"b":2,"a":3}"#,
            r#"{"t":"line\nnext \"quoted\" \\ \/ \b\f\r\t \u00e9 \u20AC \ud83d\ude00 end"}"#,
            r#"{"lone":"\ud83d"}"#,
            r#"{"lone":"\ude00x"}"#,
            r#"{"bad":"\ud83d\u0041"}"#,
            r#"{"n":[0,-0,1.0,1e400,-1e-400,18446744073709551615,18446744073709551616,-9223372036854775808,0.1,123456789012345678901234567890]}"#,
            r#"{"n":01}"#,
            r#"{"n":1.}"#,
            r#"{"n":-}"#,
            r#"{"s":"tab	inside"}"#,
            r#"{"a":1,}"#,
            r#"[1,2"#,
            r#"{"a":1} x"#,
            r#""just a string""#,
            r#"{"é":"ü","\u0041":"key escaped"}"#,
            "",
            "   ",
            r#"{"x":"\u12"}"#,
            r#"{"x":"\q"}"#,
        ];
        for text in texts {
            agrees(text);
        }
        let deep = format!("{}{}", "[".repeat(150), "]".repeat(150));
        agrees(&deep);
        let deep = format!("{}1{}", "[".repeat(120), "]".repeat(120));
        agrees(&deep);
    }

    #[test]
    fn escapes_at_every_offset_of_a_long_string() {
        for escape in [r#"\n"#, r#"\""#, r#"\\"#, r#"\u00e9"#, r#"\ud83d\ude00"#, "é", "€"] {
            for at in 0..20 {
                let text = format!(r#"{{"t":"{}{escape}{}"}}"#, "a".repeat(at), "b".repeat(19 - at));
                agrees(&text);
            }
        }
        let long = "the quick brown fox \"jumps\"\n".repeat(40_000);
        let text = serde_json::to_string(&serde_json::json!({"text": long})).unwrap();
        assert_eq!(parse_value(&text).unwrap()["text"], long.as_str());
    }
}
