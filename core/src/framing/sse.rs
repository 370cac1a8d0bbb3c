//! Server-Sent Events, encoding side: one `text/event-stream` event per JSON-RPC message.
//!
//! An event is a few `field: value` lines and a blank line; the encoder is a handful of
//! byte pushes, so no crate is worth its weight here. JSON text never holds a raw newline,
//! but `data` is still split on line breaks so any text stays one event.

use bytes::Bytes;

/// A comment line that keeps an idle stream (and the proxies in front of it) alive.
pub const KEEP_ALIVE: &[u8] = b":\n\n";

/// One event: optional `id`, then `data` (split on line breaks), then the blank line.
pub fn event(id: Option<&str>, data: &[u8]) -> Bytes {
    let mut buf = Vec::with_capacity(data.len() + 32);
    if let Some(id) = id {
        push_field(&mut buf, b"id", id.as_bytes());
    }
    push_data(&mut buf, data);
    buf.push(b'\n');
    Bytes::from(buf)
}

/// The priming event of MCP 2025-11-25: an id and empty data, so a client that loses the
/// stream before any message can still resume it; with the reconnection delay to use.
pub fn priming(id: &str, retry_ms: u64) -> Bytes {
    let mut buf = Vec::with_capacity(48);
    push_field(&mut buf, b"id", id.as_bytes());
    push_field(&mut buf, b"retry", itoa::Buffer::new().format(retry_ms).as_bytes());
    buf.extend_from_slice(b"data:\n\n");
    Bytes::from(buf)
}

fn push_field(buf: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    buf.extend_from_slice(name);
    buf.extend_from_slice(b": ");
    buf.extend_from_slice(value);
    buf.push(b'\n');
}

fn push_data(buf: &mut Vec<u8>, data: &[u8]) {
    let text = data.strip_suffix(b"\n").unwrap_or(data);
    for line in text.split(|b| *b == b'\n') {
        push_field(buf, b"data", line.strip_suffix(b"\r").unwrap_or(line));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_encoded_per_the_sse_grammar() {
        assert_eq!(&event(Some("3/1"), br#"{"a":1}"#)[..], b"id: 3/1\ndata: {\"a\":1}\n\n");
        assert_eq!(&event(None, b"x\ny\r\nz")[..], b"data: x\ndata: y\ndata: z\n\n");
        assert_eq!(&priming("7/0", 1000)[..], b"id: 7/0\nretry: 1000\ndata:\n\n");
    }
}
