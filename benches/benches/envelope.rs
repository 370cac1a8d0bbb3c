//! Parsing the JSON-RPC envelope: ferrymcp's borrowed serde_json path against simd-json and
//! sonic-rs, on three messages (a 170-byte tools/call, a ~25 KB tools/list result and a
//! 1 MiB text result).
//!
//! Every variant must deliver the same thing, a borrowed envelope ([`Lite`]): the id, the
//! method (decoded, borrowed when it has no escapes) and the *unparsed text* of
//! `params`/`result`, and every variant validates the whole message (the skipped values
//! included). The setup checks that all variants agree on each message before timing them.
//!
//! - `ferrymcp`: `ferrymcp_core::wire::parse`, what the engine runs on every frame (a
//!   hand-rolled scan of the members, serde_json for what it will not vouch for, then the
//!   full classification).
//! - `serde_json_derive`: a plain `#[derive(Deserialize)]` of `Option<&RawValue>` members,
//!   the floor of what serde_json can do here (shows the cost of ferrymcp's own checks).
//! - `simd_json_tape`: copy of the frame into a reused padded buffer (counted: simd-json
//!   parses in place and needs `&mut [u8]`), `fill_tape_padded` with reused buffers and
//!   tape (stage 1 + stage 2: the fastest borrowed simd-json API, the serde and value APIs
//!   are built on the tape), id and method read from the tape, and the raw params/result
//!   text cut out of the original frame with simd-json's structural indexes.
//! - `sonic_rs_derive`: `sonic_rs::from_str` into a derived struct of `LazyValue` members
//!   (validated skip, borrowed raw text).
//! - `sonic_rs_iter`: `sonic_rs::to_object_iter`, the lazy member iterator.

use std::borrow::Cow;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ferrymcp_core::wire::{self, Envelope, Id, Parsed};
use serde::Deserialize;
use serde_json::json;
use serde_json::value::RawValue;
use simd_json::prelude::*;

// ---------------------------------------------------------------------------------------
// The messages.

/// A tools/call request of exactly 170 bytes.
fn tools_call() -> String {
    const TARGET: usize = 170;
    let make = |text: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{text}"}},"_meta":{{"progressToken":42}}}}}}"#
        )
    };
    let base = "hello world, this is a benchmark";
    let filler = " of the JSON-RPC envelope parser in ferrymcp, padded to size";
    let pad = TARGET - make(base).len();
    let text = format!("{base}{}", &filler[..pad]);
    let message = make(&text);
    assert_eq!(message.len(), TARGET);
    message
}

/// A tools/list result of ~25 KB: 60 tool definitions with titles, descriptions, input
/// schemas and annotations (25,905 bytes).
fn tools_list() -> String {
    const VERBS: [&str; 10] = ["get", "list", "create", "update", "delete", "search", "read", "write", "move", "sync"];
    const NOUNS: [&str; 6] = ["issue", "file", "calendar_event", "message", "document", "user"];
    let tools: Vec<_> = (0..60)
        .map(|i| {
            let (verb, noun) = (VERBS[i % VERBS.len()], NOUNS[i / VERBS.len()]);
            let spaced = noun.replace('_', " ");
            let capital = format!("{}{}", verb[..1].to_uppercase(), &verb[1..]);
            json!({
                "name": format!("{verb}_{noun}"),
                "title": format!("{capital} {spaced}"),
                "description": format!("{capital} a {spaced} in the workspace; fails when the caller lacks access."),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "workspace": {"type": "string", "description": "Workspace slug, e.g. \"acme\""},
                        "id": {"type": "string", "description": format!("The {spaced} id")},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                    },
                    "required": ["workspace", "id"]
                },
                "annotations": {"readOnlyHint": matches!(verb, "get" | "list" | "search" | "read")}
            })
        })
        .collect();
    let message = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}});
    let message = serde_json::to_string(&message).unwrap();
    assert_eq!(message.len(), 25_905);
    message
}

/// A CallToolResult whose one text content is 1 MiB of text: lines of 81 characters, so the
/// JSON has a `\n` escape every 81 bytes, and two escaped quotes per line (1,087,500 bytes).
fn big_text() -> String {
    const SIZE: usize = 1 << 20;
    let line = "The quick brown fox jumps over the lazy dog; \"pack my box\" with five dozen jugs.\n";
    let mut text = line.repeat(SIZE / line.len() + 1);
    text.truncate(SIZE);
    let message = json!({
        "jsonrpc": "2.0",
        "id": 3,
        "result": {"content": [{"type": "text", "text": text}], "isError": false}
    });
    let message = serde_json::to_string(&message).unwrap();
    assert_eq!(message.len(), 1_087_500);
    message
}

// ---------------------------------------------------------------------------------------
// What every variant produces.

#[derive(Debug, PartialEq, Eq)]
struct Lite<'a> {
    id: Option<Id<'a>>,
    method: Option<Cow<'a, str>>,
    /// The unparsed text of `params` (requests, notifications) or `result` (responses).
    body: Option<&'a str>,
}

fn lite_of_envelope(envelope: Envelope<'_>) -> Lite<'_> {
    match envelope {
        Envelope::Request { id, method, params } => {
            Lite { id: Some(id), method: Some(method), body: params.map(RawValue::get) }
        }
        Envelope::Notification { method, params } => {
            Lite { id: None, method: Some(method), body: params.map(RawValue::get) }
        }
        Envelope::Result { id, result } => Lite { id: Some(id), method: None, body: Some(result.get()) },
        Envelope::Error { .. } => panic!("no error responses in these messages"),
    }
}

/// The envelope from the raw text of its members: the same checks as ferrymcp's
/// classification for the shapes benchmarked here (version, id type, method a string,
/// params structured or null, a result with an id).
fn finish<'a>(
    jsonrpc: Option<&'a str>,
    id: Option<&'a str>,
    method: Option<&'a str>,
    params: Option<&'a str>,
    result: Option<&'a str>,
    unescape: fn(&str) -> Option<String>,
) -> Option<Lite<'a>> {
    let jsonrpc = jsonrpc?;
    if jsonrpc != "\"2.0\"" && (!jsonrpc.starts_with('"') || json_string(jsonrpc, unescape)? != "2.0") {
        return None;
    }
    let id = match id {
        None => None,
        Some(raw) => Some(match raw.as_bytes()[0] {
            b'"' => Id::String(json_string(raw, unescape)?),
            b'-' | b'0'..=b'9' => Id::Number(raw.parse().ok()?),
            _ => return None,
        }),
    };
    if let Some(method) = method {
        if !method.starts_with('"') || result.is_some() {
            return None;
        }
        let body = match params {
            Some("null") | None => None,
            Some(p) if p.starts_with(['{', '[']) => Some(p),
            Some(_) => return None,
        };
        return Some(Lite { id, method: Some(json_string(method, unescape)?), body });
    }
    Some(Lite { id: Some(id?), method: None, body: Some(result?) })
}

/// The text of a JSON string value: borrowed when it has no escapes, decoded otherwise.
fn json_string(raw: &str, unescape: fn(&str) -> Option<String>) -> Option<Cow<'_, str>> {
    let inner = &raw[1..raw.len() - 1];
    if memchr_backslash(inner) { unescape(raw).map(Cow::Owned) } else { Some(Cow::Borrowed(inner)) }
}

fn memchr_backslash(text: &str) -> bool {
    text.as_bytes().contains(&b'\\')
}

// ---------------------------------------------------------------------------------------
// The variants.

fn ferrymcp(text: &str) -> Envelope<'_> {
    match wire::parse(text) {
        Ok(Parsed::Single(envelope)) => envelope,
        other => panic!("not a single message: {other:?}"),
    }
}

#[derive(Deserialize)]
struct SerdeJsonMembers<'a> {
    #[serde(borrow)]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<&'a RawValue>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
    #[serde(borrow)]
    result: Option<&'a RawValue>,
    #[serde(borrow)]
    #[allow(dead_code)]
    error: Option<&'a RawValue>,
}

fn raw_text(raw: Option<&RawValue>) -> Option<&str> {
    raw.map(RawValue::get)
}

fn serde_json_derive(text: &str) -> Lite<'_> {
    let m: SerdeJsonMembers<'_> = serde_json::from_str(text).unwrap();
    let get = raw_text;
    let unescape = |raw: &str| serde_json::from_str(raw).ok();
    finish(get(m.jsonrpc), get(m.id), get(m.method), get(m.params), get(m.result), unescape).unwrap()
}

#[derive(Deserialize)]
struct SonicMembers<'a> {
    #[serde(borrow)]
    jsonrpc: Option<sonic_rs::LazyValue<'a>>,
    #[serde(borrow)]
    id: Option<sonic_rs::LazyValue<'a>>,
    #[serde(borrow)]
    method: Option<sonic_rs::LazyValue<'a>>,
    #[serde(borrow)]
    params: Option<sonic_rs::LazyValue<'a>>,
    #[serde(borrow)]
    result: Option<sonic_rs::LazyValue<'a>>,
    #[serde(borrow)]
    #[allow(dead_code)]
    error: Option<sonic_rs::LazyValue<'a>>,
}

/// The raw text of a lazy value, borrowed from the input. (sonic-rs copies a string that
/// has escapes into an owned buffer; such a string member is decoded from that copy.)
fn sonic_raw<'a>(value: &sonic_rs::LazyValue<'a>) -> Option<&'a str> {
    match value.as_raw_cow() {
        Cow::Borrowed(raw) => Some(raw),
        Cow::Owned(_) => None,
    }
}

fn sonic_unescape(raw: &str) -> Option<String> {
    sonic_rs::from_str(raw).ok()
}

fn sonic_rs_derive(text: &str) -> Lite<'_> {
    let m: SonicMembers<'_> = sonic_rs::from_str(text).unwrap();
    fn get<'a>(raw: &Option<sonic_rs::LazyValue<'a>>) -> Option<&'a str> {
        raw.as_ref().map(|raw| sonic_raw(raw).unwrap())
    }
    let (jsonrpc, id, method) = (get(&m.jsonrpc), get(&m.id), get(&m.method));
    finish(jsonrpc, id, method, get(&m.params), get(&m.result), sonic_unescape).unwrap()
}

fn sonic_rs_iter(text: &str) -> Lite<'_> {
    let (mut jsonrpc, mut id, mut method, mut params, mut result) = (None, None, None, None, None);
    for member in sonic_rs::to_object_iter(text) {
        let (key, value) = member.unwrap();
        let slot = match key.as_ref() {
            "jsonrpc" => &mut jsonrpc,
            "id" => &mut id,
            "method" => &mut method,
            "params" => &mut params,
            "result" => &mut result,
            _ => continue,
        };
        *slot = Some(sonic_raw(&value).unwrap());
    }
    finish(jsonrpc, id, method, params, result, sonic_unescape).unwrap()
}

/// What a simd-json reader keeps from one frame to the next: the padded copy of the frame,
/// the parser's buffers and the tape's allocation.
struct SimdJson {
    scratch: Vec<u8>,
    buffers: simd_json::Buffers,
    tape: simd_json::Tape<'static>,
}

impl SimdJson {
    fn new() -> Self {
        Self { scratch: Vec::new(), buffers: simd_json::Buffers::default(), tape: simd_json::Tape(Vec::new()) }
    }

    /// Parses `text` and hands its envelope to `f`: id and method from the tape (they point
    /// into the mutated copy), the params/result text cut from `text` itself.
    fn parse<R>(&mut self, text: &str, f: impl FnOnce(Lite<'_>) -> R) -> R {
        let len = text.len();
        self.scratch.clear();
        self.scratch.reserve(len + simd_json::INPUT_PADDING);
        self.scratch.extend_from_slice(text.as_bytes());
        self.scratch.resize(len + simd_json::INPUT_PADDING, b' ');
        let mut tape = std::mem::replace(&mut self.tape, simd_json::Tape(Vec::new())).reset();
        simd_json::fill_tape_padded(&mut self.scratch, len, &mut self.buffers, &mut tape).unwrap();
        let lite = simd_envelope(&tape, self.buffers.structural_indexes(), text).unwrap();
        let out = f(lite);
        self.tape = tape.reset();
        out
    }
}

fn simd_envelope<'a>(tape: &'a simd_json::Tape<'a>, structurals: &[u32], text: &'a str) -> Option<Lite<'a>> {
    let bytes = text.as_bytes();
    let object = tape.as_value().as_object()?;
    let members = object.len();
    let (mut jsonrpc_ok, mut id, mut method, mut params, mut result) = (false, None, None, None, None);
    // structurals: `{`, then per member: key, `:`, the value's own structurals, `,` or `}`.
    let mut at = 1;
    for (n, (key, value)) in object.iter().enumerate() {
        let start = structurals[at + 2] as usize;
        let last = n + 1 == members;
        // The structural after the value (`,` or `}`), where its text ends. The last
        // member's is the root's closing brace, the last structural of all; any other
        // container is skipped by matching brackets.
        let after = if last {
            structurals.len() - 1
        } else if matches!(bytes[start], b'{' | b'[') {
            let mut depth = 0usize;
            let mut j = at + 2;
            loop {
                match bytes[structurals[j] as usize] {
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            break j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        } else {
            at + 3
        };
        let raw = || text[start..structurals[after] as usize].trim_end();
        match key {
            "jsonrpc" => jsonrpc_ok = value.into_string() == Some("2.0"),
            "id" => {
                id = Some(match value.into_string() {
                    Some(id) => Id::String(Cow::Borrowed(id)),
                    None => Id::Number(value.as_i64()?),
                })
            }
            "method" => method = Some(Cow::Borrowed(value.into_string()?)),
            "params" if !value.is_null() => params = Some(raw()),
            "result" => result = Some(raw()),
            _ => {}
        }
        if last {
            break;
        }
        at = after + 1;
    }
    if !jsonrpc_ok {
        return None;
    }
    match method {
        Some(method) => Some(Lite { id, method: Some(method), body: params }),
        None => Some(Lite { id: Some(id?), method: None, body: Some(result?) }),
    }
}

// ---------------------------------------------------------------------------------------

fn envelope(c: &mut Criterion) {
    let messages =
        [("tools_call_170B", tools_call()), ("tools_list_25KB", tools_list()), ("text_result_1MiB", big_text())];
    let mut simd = SimdJson::new();
    for (name, text) in &messages {
        // All variants must agree before any is timed.
        let expected = lite_of_envelope(ferrymcp(text));
        assert!(expected.body.is_some());
        assert_eq!(serde_json_derive(text), expected, "serde_json_derive on {name}");
        assert_eq!(sonic_rs_derive(text), expected, "sonic_rs_derive on {name}");
        assert_eq!(sonic_rs_iter(text), expected, "sonic_rs_iter on {name}");
        simd.parse(text, |lite| assert_eq!(lite, expected, "simd_json_tape on {name}"));
        // And all must refuse a broken copy (so none skips validation of the body).
        let at = text.rfind("\":").unwrap() + 1;
        let broken = format!("{};{}", &text[..at], &text[at + 1..]);
        assert!(wire::parse(&broken).is_err());
        assert!(serde_json::from_str::<SerdeJsonMembers<'_>>(&broken).is_err());
        assert!(sonic_rs::from_str::<SonicMembers<'_>>(&broken).is_err());
        assert!(sonic_rs::to_object_iter(broken.as_str()).any(|m| m.is_err()));
        let mut copy = broken.clone().into_bytes();
        assert!(simd_json::to_tape(&mut copy).is_err());

        let mut group = c.benchmark_group(format!("envelope/{name}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        if text.len() > 100_000 {
            group.sample_size(20);
        }
        group.bench_function(BenchmarkId::from_parameter("ferrymcp_serde_json"), |b| {
            b.iter(|| black_box(ferrymcp(black_box(text))))
        });
        group.bench_function(BenchmarkId::from_parameter("serde_json_derive"), |b| {
            b.iter(|| black_box(serde_json_derive(black_box(text))))
        });
        group.bench_function(BenchmarkId::from_parameter("simd_json_tape"), |b| {
            b.iter(|| simd.parse(black_box(text), |lite| drop(black_box(lite))))
        });
        group.bench_function(BenchmarkId::from_parameter("sonic_rs_derive"), |b| {
            b.iter(|| black_box(sonic_rs_derive(black_box(text))))
        });
        group.bench_function(BenchmarkId::from_parameter("sonic_rs_iter"), |b| {
            b.iter(|| black_box(sonic_rs_iter(black_box(text))))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = envelope
}
criterion_main!(benches);
