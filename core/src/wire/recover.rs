//! Recovering a request id from a frame that cannot be parsed.
//!
//! An oversized frame, a frame that is not UTF-8, or broken JSON still deserves an error
//! answer the sender can match to its request, or the sender waits for its timeout. This
//! lenient scanner walks the top-level members of whatever prefix it has and picks up an
//! `"id"` whose value is complete in it. It never trusts anything nested.

use super::id::RequestId;

/// What a scan of a damaged frame found.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Recovered {
    pub id: Option<RequestId>,
    /// A top-level `result` or `error` member was seen: the frame was a response.
    pub response_like: bool,
}

/// The id of a damaged request, when the prefix shows one and the frame is not a response.
pub fn recover_id(prefix: &[u8]) -> Option<RequestId> {
    let found = recover(prefix);
    if found.response_like { None } else { found.id }
}

pub(crate) fn recover(prefix: &[u8]) -> Recovered {
    let mut scan = Scanner { bytes: prefix, pos: 0 };
    let mut found = Recovered::default();
    scan.members(&mut found);
    found
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Scanner<'a> {
    /// Walks `{ "key": value, ... }`, stopping quietly wherever the text breaks off.
    fn members(&mut self, found: &mut Recovered) -> Option<()> {
        self.expect(b'{')?;
        loop {
            self.skip_ws();
            if self.peek()? == b'}' {
                return Some(());
            }
            let key = self.string()?;
            self.skip_ws();
            self.expect(b':')?;
            self.skip_ws();
            match key {
                b"id" => found.id = self.id(),
                b"result" | b"error" => found.response_like = true,
                _ => {}
            }
            if key != b"id" {
                self.skip_value()?;
            }
            self.skip_ws();
            if self.peek()? == b',' {
                self.pos += 1;
            }
        }
    }

    fn id(&mut self) -> Option<RequestId> {
        let start = self.pos;
        match self.peek()? {
            b'"' => {
                let raw = self.string_with_quotes()?;
                let text = std::str::from_utf8(raw).ok()?;
                serde_json::from_str::<String>(text).ok().map(|s| RequestId::from(s.as_str()))
            }
            b'-' | b'0'..=b'9' => {
                while matches!(self.peek(), Some(b'-' | b'0'..=b'9')) {
                    self.pos += 1;
                }
                // A number cut off by the end of the prefix is not trusted.
                let next = self.peek()?;
                if !matches!(next, b',' | b'}' | b' ' | b'\t' | b'\r' | b'\n') {
                    self.skip_value();
                    return None;
                }
                let digits = std::str::from_utf8(&self.bytes[start..self.pos]).ok()?;
                digits.parse().ok().map(RequestId::Number)
            }
            _ => {
                self.skip_value();
                None
            }
        }
    }

    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.string_with_quotes()?;
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    self.pos += 1;
                }
                b',' | b'}' | b']' => return Some(()),
                _ => self.pos += 1,
            }
            if depth == 0 && matches!(self.peek(), Some(b',' | b'}')) {
                return Some(());
            }
        }
    }

    fn string(&mut self) -> Option<&'a [u8]> {
        let raw = self.string_with_quotes()?;
        Some(&raw[1..raw.len() - 1])
    }

    fn string_with_quotes(&mut self) -> Option<&'a [u8]> {
        let start = self.pos;
        self.expect(b'"')?;
        loop {
            match self.peek()? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    let bytes: &'a [u8] = self.bytes;
                    return bytes.get(start..self.pos);
                }
                _ => self.pos += 1,
            }
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_id_in_a_truncated_request() {
        let text = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"arguments":{"t":"xxxx"#;
        assert_eq!(recover_id(text), Some(RequestId::Number(42)));
        let text = br#"{"method":"m","params":{"id":1},"id":"abc\"d","x":"#;
        assert_eq!(recover_id(text), Some(RequestId::from("abc\"d")));
    }

    #[test]
    fn ignores_nested_ids_cut_numbers_and_responses() {
        assert_eq!(recover_id(br#"{"params":{"id":5},"method":"m""#), None);
        assert_eq!(recover_id(br#"{"jsonrpc":"2.0","id":12"#), None);
        assert_eq!(recover_id(br#"{"id":3,"result":{"#), None);
        assert_eq!(recover_id(b"\xff\xfe garbage"), None);
    }

    #[test]
    fn survives_non_utf8_outside_the_id() {
        let mut text = br#"{"jsonrpc":"2.0","id":7,"method":"m","params":{"t":""#.to_vec();
        text.extend_from_slice(b"\xff\xfe\"}}");
        assert_eq!(recover_id(&text), Some(RequestId::Number(7)));
    }
}
