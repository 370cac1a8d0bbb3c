"""`Image` and `Audio`: the official SDK's helpers for returning media from a tool.

A tool returns `Image(path=...)` or `Image(data=..., format="png")` and the result
carries an `image` content block; the MIME type comes from `format` or the file suffix,
as the official helpers decide it.
"""

from __future__ import annotations

import base64
from pathlib import Path

from ferrymcp.types import AudioContent, ImageContent

_IMAGE_SUFFIXES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}
_AUDIO_SUFFIXES = {
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".ogg": "audio/ogg",
    ".flac": "audio/flac",
    ".aac": "audio/aac",
    ".m4a": "audio/mp4",
}


class _Media:
    _kind: str
    _suffixes: dict[str, str]
    _default: str

    def __init__(self, path: str | Path | None = None, data: bytes | None = None, format: str | None = None) -> None:
        if (path is None) == (data is None):
            raise ValueError("Either path or data must be provided, and not both")
        self.path = Path(path) if path is not None else None
        self.data = data
        self._format = format
        self._mime_type = self._guess_mime_type()

    def _guess_mime_type(self) -> str:
        if self._format:
            return f"{self._kind}/{self._format.lower()}"
        if self.path is not None:
            return self._suffixes.get(self.path.suffix.lower(), "application/octet-stream")
        return self._default

    @property
    def mime_type(self) -> str:
        return self._mime_type

    def _base64(self) -> str:
        raw = self.path.read_bytes() if self.path is not None else self.data
        assert raw is not None
        return base64.b64encode(raw).decode()


class Image(_Media):
    """An image a tool returns: from a file (`path`) or from bytes (`data`, PNG unless
    `format` says otherwise)."""

    _kind = "image"
    _suffixes = _IMAGE_SUFFIXES
    _default = "image/png"

    def to_image_content(self) -> ImageContent:
        """The image as an `ImageContent` block (the file is read now)."""
        return ImageContent(type="image", data=self._base64(), mime_type=self._mime_type)


class Audio(_Media):
    """A sound a tool returns: from a file (`path`) or from bytes (`data`, WAV unless
    `format` says otherwise)."""

    _kind = "audio"
    _suffixes = _AUDIO_SUFFIXES
    _default = "audio/wav"

    def to_audio_content(self) -> AudioContent:
        """The sound as an `AudioContent` block (the file is read now)."""
        return AudioContent(type="audio", data=self._base64(), mime_type=self._mime_type)
