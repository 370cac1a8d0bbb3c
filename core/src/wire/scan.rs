//! The fast path of the envelope parse: one hand-rolled pass over a single JSON object.
//!
//! Almost every frame is one object with plain member names, and serde_json's generic
//! visitor spends more time matching names and dispatching than reading bytes. This scanner
//! walks the top-level members itself, keeps the six envelope members as raw slices and
//! validates every value it skips (strings with their escapes, numbers, literals, nesting),
//! with no allocation.
//!
//! It is deliberately stricter than serde_json, never looser: anything it does not accept
//! outright (a batch, an escaped member name, very deep nesting, and every syntax error)
//! returns `None`, and the caller parses the frame with serde_json instead, which then gives
//! the same result or names the error precisely. The tests check both parsers agree on
//! every mutation of a set of messages.

use serde_json::value::RawValue;

use super::envelope::Members;

/// The opening of nearly every message.
const VERSION_FIRST: &str = r#"{"jsonrpc":"2.0","#;

/// Values nested deeper than this are left to serde_json.
const MAX_DEPTH: u32 = 64;

/// The members of `text` when it is one well-formed JSON object this scanner can vouch for.
#[inline]
pub(super) fn members(text: &str) -> Option<Members<'_>> {
    let mut s = Scanner { text, bytes: text.as_bytes(), at: 0 };
    let mut m = Members::default();
    // Every encoder we know of starts with the version, so it is matched whole.
    if text.starts_with(VERSION_FIRST) {
        s.at = VERSION_FIRST.len() - 1;
        m.jsonrpc = Some(s.raw(VERSION_FIRST.len() - 6));
        s.at += 1;
        s.skip_ws();
        s.members(&mut m)?;
    } else {
        s.skip_ws();
        s.expect(b'{')?;
        s.skip_ws();
        if s.peek() == Some(b'}') {
            s.at += 1;
        } else {
            s.members(&mut m)?;
        }
    }
    s.skip_ws();
    (s.at == s.bytes.len()).then_some(m)
}

/// Calls `each` with the top-level members of `text` in the order written (name, value as
/// a slice of the text) when it is one well-formed JSON object whose member names have no
/// escapes; `None` otherwise, possibly after some calls (the caller then drops what it
/// gathered and asks serde_json, which gives the same members or refuses the text). What
/// [`super::members_in_order`] and [`super::object_members`] read first: serde_json's
/// visitor with a `RawValue` per member costs about three times this pass.
pub(super) fn each_member<'a>(text: &'a str, mut each: impl FnMut(&'a str, &'a RawValue)) -> Option<()> {
    let mut s = Scanner { text, bytes: text.as_bytes(), at: 0 };
    s.skip_ws();
    s.expect(b'{')?;
    s.skip_ws();
    if s.peek() == Some(b'}') {
        s.at += 1;
    } else {
        loop {
            s.expect(b'"')?;
            let key_start = s.at;
            s.plain_key()?;
            // Between two ASCII quotes, so on character boundaries.
            let key = &text[key_start..s.at - 1];
            s.skip_ws();
            s.expect(b':')?;
            s.skip_ws();
            let start = s.at;
            s.value()?;
            each(key, s.raw(start));
            s.skip_ws();
            match s.next()? {
                b',' => s.skip_ws(),
                b'}' => break,
                _ => return None,
            }
        }
    }
    s.skip_ws();
    (s.at == s.bytes.len()).then_some(())
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Scanner<'a> {
    /// The members of the top-level object up to its closing brace, from the first name.
    fn members(&mut self, m: &mut Members<'a>) -> Option<()> {
        loop {
            self.expect(b'"')?;
            let key = self.plain_key()?;
            self.skip_ws();
            self.expect(b':')?;
            self.skip_ws();
            let start = self.at;
            self.value()?;
            let value = self.raw(start);
            let mut unknown = None;
            let (slot, name) = match key {
                b"jsonrpc" => (&mut m.jsonrpc, "jsonrpc"),
                b"id" => (&mut m.id, "id"),
                b"method" => (&mut m.method, "method"),
                b"params" => (&mut m.params, "params"),
                b"result" => (&mut m.result, "result"),
                b"error" => (&mut m.error, "error"),
                _ => (&mut unknown, ""),
            };
            if slot.replace(value).is_some() {
                m.duplicate.get_or_insert(name);
            }
            self.skip_ws();
            match self.next()? {
                b',' => self.skip_ws(),
                b'}' => return Some(()),
                _ => return None,
            }
        }
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

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// The value that started at `start` and ends here, as borrowed raw JSON.
    fn raw(&self, start: usize) -> &'a RawValue {
        let text: &'a str = &self.text[start..self.at];
        // SAFETY: `RawValue` is `#[repr(transparent)]` over `str` (serde_json builds its own
        // borrowed values the same way), and `text` was just validated as one JSON value.
        unsafe { &*(text as *const str as *const RawValue) }
    }

    /// A member name without escapes (the opening quote is consumed); `None` otherwise.
    fn plain_key(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        self.at = start + plain_run(&self.bytes[start..]);
        let key = &self.bytes[start..self.at];
        self.expect(b'"')?;
        Some(key)
    }

    /// Skips one string (the opening quote is consumed), checking its escapes.
    #[inline]
    fn string(&mut self) -> Option<()> {
        loop {
            self.at += plain_run(&self.bytes[self.at..]);
            match self.next()? {
                b'"' => return Some(()),
                b'\\' => self.escape()?,
                _ => return None,
            }
        }
    }

    #[cold]
    fn escape(&mut self) -> Option<()> {
        match self.next()? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(()),
            b'u' => {
                let hex = self.bytes.get(self.at..self.at + 4)?;
                self.at += 4;
                hex.iter().all(u8::is_ascii_hexdigit).then_some(())
            }
            _ => None,
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        self.at - start
    }

    /// Skips a number (JSON's grammar: no leading zeros, digits after `.` and `e`).
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            (self.digits() > 0).then_some(())?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            (self.digits() > 0).then_some(())?;
        }
        Some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then_some(())?;
        self.at = end;
        Some(())
    }

    /// Skips one value, validating all of it. Nesting is tracked in a bit stack (1 for an
    /// object, 0 for an array).
    fn value(&mut self) -> Option<()> {
        let mut stack = 0u64;
        let mut depth = 0u32;
        loop {
            // At the start of a value.
            match self.next()? {
                b'"' => self.string()?,
                b'{' | b'[' if depth == MAX_DEPTH => return None,
                b'{' => {
                    stack = stack << 1 | 1;
                    depth += 1;
                    self.skip_ws();
                    if self.peek() != Some(b'}') {
                        self.member_name()?;
                        continue;
                    }
                    self.at += 1;
                    stack >>= 1;
                    depth -= 1;
                }
                b'[' => {
                    stack <<= 1;
                    depth += 1;
                    self.skip_ws();
                    if self.peek() != Some(b']') {
                        continue;
                    }
                    self.at += 1;
                    stack >>= 1;
                    depth -= 1;
                }
                b't' => self.literal(b"rue")?,
                b'f' => self.literal(b"alse")?,
                b'n' => self.literal(b"ull")?,
                b'-' | b'0'..=b'9' => {
                    self.at -= 1;
                    self.number()?;
                }
                _ => return None,
            }
            // After a value: the next element, or the end of one or more containers.
            loop {
                if depth == 0 {
                    return Some(());
                }
                self.skip_ws();
                let in_object = stack & 1 == 1;
                match (self.next()?, in_object) {
                    (b',', true) => {
                        self.skip_ws();
                        self.member_name()?;
                        break;
                    }
                    (b',', false) => {
                        self.skip_ws();
                        break;
                    }
                    (b'}', true) | (b']', false) => {
                        stack >>= 1;
                        depth -= 1;
                    }
                    _ => return None,
                }
            }
        }
    }

    /// `"name"` and its colon, up to the start of the member's value.
    fn member_name(&mut self) -> Option<()> {
        self.expect(b'"')?;
        self.string()?;
        self.skip_ws();
        self.expect(b':')?;
        self.skip_ws();
        Some(())
    }
}

/// The length of the leading run of string bytes that need no attention: no quote, no
/// backslash, no control character. Blocks of 32 bytes are tested whole (a branch-free
/// fold the compiler turns into vector compares: about 0.85 instructions a byte against
/// 2.3 for the word loop alone on a 1 MiB text), then eight bytes at a time inside the block
/// that holds the hit.
pub(super) fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const BLOCK: usize = 32;
    let mut at = 0;
    while let Some(block) = bytes.get(at..at + BLOCK) {
        let block: &[u8; BLOCK] = block.try_into().expect("a block");
        let hit =
            block.iter().fold(0u8, |hit, &b| hit | u8::from(b == b'"') | u8::from(b == b'\\') | u8::from(b < 0x20));
        if hit != 0 {
            break;
        }
        at += BLOCK;
    }
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        // A byte is flagged when it is zero after the XOR (a quote or a backslash), or below
        // 0x20. Only bytes after a true hit can be flagged falsely, so the lowest is right.
        let hits = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | word.wrapping_sub(ONES * 0x20) & !word)
            & HIGH;
        if hits != 0 {
            return at + (hits.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while let Some(&byte) = bytes.get(at) {
        if byte == b'"' || byte == b'\\' || byte < 0x20 {
            return at;
        }
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::plain_run;

    /// The block test, the word loop and the byte tail together find the first byte that
    /// needs attention wherever it sits: every special byte at every offset of texts on
    /// both sides of the 32-byte block and the 8-byte word, and texts with none.
    #[test]
    fn plain_run_stops_at_the_first_special_byte_at_every_offset() {
        let naive =
            |bytes: &[u8]| bytes.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(bytes.len());
        for len in 0..100 {
            let plain: Vec<u8> = (0..len).map(|i| b"az09 ~\x7f\xc3\xa9"[i % 9]).collect();
            assert_eq!(plain_run(&plain), len);
            for at in 0..len {
                for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                    let mut text = plain.clone();
                    text[at] = special;
                    if at + 1 < len {
                        text[len - 1] = b'"';
                    }
                    assert_eq!(plain_run(&text), naive(&text), "len {len}, {special:#x} at {at}");
                    assert_eq!(plain_run(&text), at);
                }
            }
        }
    }
}
