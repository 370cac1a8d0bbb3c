"""Client extensions (`mcp.client.extension`): what a client declares under
`capabilities.extensions`.

`Client(extensions=[...])` takes `ClientExtension` instances: each one's `identifier` (a
`vendor-prefix/name` string) and `settings()` are declared to the server in the handshake
(either era). `advertise(identifier, settings)` makes one that only declares. Extensions
that claim result shapes (`claims()`) or observe notifications (`notifications()`) are not
supported by ferrymcp yet: a client given one raises naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ferrymcp.server.extension import validate_extension_identifier

_T = TypeVar("_T")


@dataclass(frozen=True, kw_only=True)
class ClaimContext:
    """What a result claim's resolver gets (claims are not supported by ferrymcp yet)."""

    method: str
    params: Any = None
    session: Any = None


@dataclass(frozen=True)
class ResultClaim(Generic[_T]):
    """A result shape an extension claims for a method (not supported by ferrymcp yet:
    a client given an extension that returns one raises naming it)."""

    method: str
    result_type: type[_T]
    resolve: Callable[..., Any] | None = None


@dataclass(frozen=True)
class NotificationBinding(Generic[_T]):
    """A server notification an extension observes (not supported by ferrymcp yet)."""

    method: str
    params_type: type[_T]
    handler: Callable[..., Any]


class UnexpectedClaimedResult(Exception):
    """A claimed result arrived where no claim applies."""


class ClientExtension:
    """An extension a client declares (subclass it, set `identifier`, override `settings`)."""

    identifier: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if (identifier := cls.__dict__.get("identifier")) is not None:
            validate_extension_identifier(identifier, owner=cls.__name__)

    def settings(self) -> dict[str, Any]:
        """What is declared at `capabilities.extensions[identifier]` (read when the client is made)."""
        return {}

    def claims(self) -> Sequence[Any]:
        """Result shapes this extension claims (not supported by ferrymcp)."""
        return ()

    def notifications(self) -> Sequence[Any]:
        """Server notifications this extension observes (not supported by ferrymcp)."""
        return ()


class _Advertised(ClientExtension):
    def __init__(self, identifier: str, settings: dict[str, Any]) -> None:
        self.identifier = identifier
        self._settings = settings

    def settings(self) -> dict[str, Any]:
        return self._settings


def advertise(identifier: str, settings: dict[str, Any] | None = None) -> ClientExtension:
    """An extension that only declares `identifier` (with `settings`) and does nothing else."""
    validate_extension_identifier(identifier, owner="advertise")
    return _Advertised(identifier, {} if settings is None else dict(settings))


def declared_extensions(extensions: Sequence[ClientExtension] | None) -> dict[str, dict[str, Any]]:
    """`capabilities.extensions` for `extensions`; raises on what ferrymcp cannot honour."""
    if extensions is None:
        return {}
    if isinstance(extensions, dict) or not isinstance(extensions, Sequence):
        raise TypeError("extensions= takes a sequence of ClientExtension instances (see ferrymcp.client.advertise)")
    declared: dict[str, dict[str, Any]] = {}
    for extension in extensions:
        if not isinstance(extension, ClientExtension):
            raise TypeError(f"extensions= takes ClientExtension instances, not {type(extension).__name__}")
        identifier: str = getattr(extension, "identifier", "")
        validate_extension_identifier(identifier, owner=type(extension).__name__)
        if identifier in declared:
            raise ValueError(f"extension {identifier!r} is given twice")
        if extension.claims():
            raise NotImplementedError(f"extension {identifier!r}: claims() is not supported by ferrymcp yet")
        if extension.notifications():
            raise NotImplementedError(f"extension {identifier!r}: notifications() is not supported by ferrymcp yet")
        declared[identifier] = dict(extension.settings())
    return declared


__all__ = [
    "ClaimContext",
    "ClientExtension",
    "NotificationBinding",
    "ResultClaim",
    "UnexpectedClaimedResult",
    "advertise",
]
