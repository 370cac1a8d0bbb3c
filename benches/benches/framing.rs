//! Framing throughput: `NdjsonSource` splitting an in-memory stream of 170-byte frames.
//!
//! The stream is a 16 MiB buffer read through `&[u8]` (tokio's `AsyncRead` for slices, so
//! every read copies up to 64 KiB into the source's buffer, as a pipe read would). Each
//! frame is found with `memchr`, split off as a shared `Bytes` view and checked for UTF-8.
//! Reported in bytes/s; frames/s is that divided by 171 (170 bytes + newline).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ferrymcp_core::framing::NdjsonSource;

const FRAME: usize = 170;
const STREAM: usize = 16 << 20;

/// `STREAM` bytes of 170-byte tools/call frames with increasing ids, newline-terminated.
fn stream() -> Vec<u8> {
    let mut out = Vec::with_capacity(STREAM + 256);
    let mut id = 0u64;
    while out.len() + FRAME < STREAM {
        let head = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":""#
        );
        let tail = r#""}}}"#;
        let pad = FRAME - head.len() - tail.len();
        out.extend_from_slice(head.as_bytes());
        out.extend(std::iter::repeat_n(b'x', pad));
        out.extend_from_slice(tail.as_bytes());
        out.push(b'\n');
        id += 1;
    }
    out
}

fn framing(c: &mut Criterion) {
    let input: &'static [u8] = Box::leak(stream().into_boxed_slice());
    let frames = input.iter().filter(|b| **b == b'\n').count();
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();

    let split = |input: &'static [u8]| async move {
        let mut source = NdjsonSource::new(input);
        let (mut count, mut bytes) = (0usize, 0usize);
        while let Some(frame) = source.read_frame().await.unwrap() {
            let frame = frame.unwrap();
            bytes += black_box(frame.len());
            count += 1;
        }
        (count, bytes)
    };
    let (count, bytes) = rt.block_on(split(input));
    assert_eq!((count, bytes), (frames, frames * FRAME));

    let mut group = c.benchmark_group("framing");
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.sample_size(20);
    group.bench_function(format!("ndjson_{FRAME}B_frames_16MiB"), |b| {
        b.iter(|| black_box(rt.block_on(split(black_box(input)))))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = framing
}
criterion_main!(benches);
