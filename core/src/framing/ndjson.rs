//! Newline-delimited JSON frames over any byte stream (stdio, pipes).
//!
//! The reader owns one growing buffer; `memchr` finds each newline and the frame is split
//! off as a shared `Bytes` view, never copied. `\r\n` is accepted and blank lines are
//! ignored. A frame longer than the limit is dropped as it streams in (memory stays bounded
//! by the limit) and reported once its newline arrives.

use std::future::Future;
use std::io;

use bytes::{Bytes, BytesMut};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::{FrameError, FrameSink, FrameSource, SourceEvent};
use crate::wire::{RequestId, SharedStr, recover_id};

/// The default maximum frame size: 32 MiB.
pub const DEFAULT_MAX_FRAME: usize = 32 * 1024 * 1024;

const READ_CHUNK: usize = 64 * 1024;
/// How much of a bad frame is kept to look for its id.
const RECOVERY_PREFIX: usize = 4096;

/// Where an [`NdjsonSource`] gets its bytes: any [`AsyncRead`] (read into the source's
/// buffer), or a reader that hands over whole buffers, such as the stdio thread
/// ([`crate::transport::blocking::ThreadReader`]), which the source adopts without a copy
/// when it holds no partial line.
pub trait ChunkRead: Send + Unpin + 'static {
    /// Appends what arrives next to `buf` (or replaces `buf` when it is empty) and returns
    /// how many bytes that was; 0 at the end of the stream. Must be cancel-safe.
    fn read_chunk(&mut self, buf: &mut BytesMut) -> impl Future<Output = io::Result<usize>> + Send;
}

impl<R: AsyncRead + Unpin + Send + 'static> ChunkRead for R {
    async fn read_chunk(&mut self, buf: &mut BytesMut) -> io::Result<usize> {
        buf.reserve(READ_CHUNK);
        self.read_buf(buf).await
    }
}

/// Reads newline-delimited frames from `R`.
pub struct NdjsonSource<R> {
    reader: R,
    buf: BytesMut,
    /// How far `buf` is known to hold no newline.
    scanned: usize,
    max_frame: usize,
    skipping: Option<Skipped>,
    eof: bool,
}

struct Skipped {
    size: usize,
    id: Option<RequestId>,
}

impl<R: ChunkRead> NdjsonSource<R> {
    pub fn new(reader: R) -> Self {
        Self::with_max_frame(reader, DEFAULT_MAX_FRAME)
    }

    pub fn with_max_frame(reader: R, max_frame: usize) -> Self {
        Self { reader, buf: BytesMut::with_capacity(READ_CHUNK), scanned: 0, max_frame, skipping: None, eof: false }
    }

    /// The next frame, `Ok(None)` at the end of the stream. Cancel-safe: bytes read stay
    /// buffered in `self`.
    pub async fn read_frame(&mut self) -> io::Result<Option<Result<SharedStr, FrameError>>> {
        loop {
            if let Some(item) = self.take_frame() {
                return Ok(Some(item));
            }
            if self.eof {
                return Ok(self.take_last());
            }
            if self.reader.read_chunk(&mut self.buf).await? == 0 {
                self.eof = true;
            }
        }
    }

    fn take_frame(&mut self) -> Option<Result<SharedStr, FrameError>> {
        loop {
            let Some(at) = memchr::memchr(b'\n', &self.buf[self.scanned..]) else {
                self.scanned = self.buf.len();
                self.skip_if_oversized();
                return None;
            };
            let line = self.buf.split_to(self.scanned + at + 1).freeze();
            self.scanned = 0;
            if let Some(skipped) = self.skipping.take() {
                return Some(Err(self.too_large(skipped.size + line.len(), skipped.id)));
            }
            if let Some(frame) = self.frame_of(line) {
                return Some(frame);
            }
        }
    }

    fn skip_if_oversized(&mut self) {
        if self.skipping.is_none() && self.buf.len() <= self.max_frame {
            return;
        }
        let prefix = &self.buf[..self.buf.len().min(RECOVERY_PREFIX)];
        let skipped = self.skipping.get_or_insert_with(|| Skipped { size: 0, id: recover_id(prefix) });
        skipped.size += self.buf.len();
        self.buf.clear();
        self.scanned = 0;
    }

    fn take_last(&mut self) -> Option<Result<SharedStr, FrameError>> {
        if let Some(skipped) = self.skipping.take() {
            return Some(Err(self.too_large(skipped.size + self.buf.len(), skipped.id)));
        }
        self.scanned = 0;
        let rest = self.buf.split().freeze();
        self.frame_of(rest)
    }

    /// A frame from one line; `None` for a blank line.
    fn frame_of(&self, mut line: Bytes) -> Option<Result<SharedStr, FrameError>> {
        while let [.., b'\n' | b'\r'] = line[..] {
            line.truncate(line.len() - 1);
        }
        let prefix = &line[..line.len().min(RECOVERY_PREFIX)];
        if line.len() > self.max_frame {
            return Some(Err(self.too_large(line.len(), recover_id(prefix))));
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        Some(SharedStr::from_utf8(line.clone()).map_err(|_| FrameError::InvalidUtf8 { id: recover_id(prefix) }))
    }

    fn too_large(&self, size: usize, id: Option<RequestId>) -> FrameError {
        FrameError::TooLarge { size, limit: self.max_frame, id }
    }
}

impl<R: ChunkRead> FrameSource for NdjsonSource<R> {
    async fn next_event(&mut self) -> io::Result<SourceEvent> {
        Ok(SourceEvent::from(self.read_frame().await?))
    }
}

/// Writes batches of newline-terminated frames to `W`, flushing after each batch.
pub struct NdjsonSink<W> {
    writer: W,
}

impl<W: AsyncWrite + Unpin + Send + 'static> NdjsonSink<W> {
    pub fn new(writer: W) -> Self {
        Self { writer }
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> FrameSink for NdjsonSink<W> {
    async fn send(&mut self, batch: Bytes) -> io::Result<()> {
        self.writer.write_all(&batch).await?;
        self.writer.flush().await
    }

    async fn close(&mut self) -> io::Result<()> {
        self.writer.shutdown().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &'static [u8], max: usize) -> Vec<Result<String, FrameError>> {
        // A one-byte-at-a-time reader proves frames survive any split of the input.
        let (mut tx, rx) = tokio::io::duplex(1);
        tokio::spawn(async move {
            for b in input {
                tx.write_all(&[*b]).await.unwrap();
            }
        });
        let mut source = NdjsonSource::with_max_frame(rx, max);
        let mut out = Vec::new();
        while let Some(item) = source.read_frame().await.unwrap() {
            out.push(item.map(|f| f.to_string()));
        }
        out
    }

    #[tokio::test]
    async fn splits_lines_crlf_blank_and_tail() {
        let got = frames(b"{\"a\":1}\r\n\n  \r\n{\"b\":2}\n{\"c\":3}", 64).await;
        assert_eq!(got, vec![Ok("{\"a\":1}".into()), Ok("{\"b\":2}".into()), Ok("{\"c\":3}".into())]);
    }

    #[tokio::test]
    async fn oversized_frame_is_skipped_with_its_id_and_the_stream_goes_on() {
        let input = b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"m\",\"params\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n{\"ok\":1}\n";
        let got = frames(input, 40).await;
        assert_eq!(got.len(), 2);
        match &got[0] {
            Err(FrameError::TooLarge { id, limit: 40, size }) => {
                assert_eq!(id, &Some(RequestId::Number(5)));
                assert!(*size > 40);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(got[1], Ok("{\"ok\":1}".into()));
    }

    #[tokio::test]
    async fn non_utf8_frame_is_reported_with_its_id() {
        let got = frames(b"{\"id\":\"q\",\"method\":\"m\",\"params\":\"\xff\"}\n{}\n", 1024).await;
        assert_eq!(got[0], Err(FrameError::InvalidUtf8 { id: Some(RequestId::from("q")) }));
        assert_eq!(got[1], Ok("{}".into()));
    }
}
