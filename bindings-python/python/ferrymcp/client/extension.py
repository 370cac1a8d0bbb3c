"""Client extensions (`mcp.client.extension`): what a client declares under
`capabilities.extensions`, and the result shapes it claims.

`Client(extensions=[...])` takes `ClientExtension` instances: each one's `identifier` (a
`vendor-prefix/name` string) and `settings()` are declared to the server. `advertise(identifier,
settings)` makes one that only declares. An extension's `claims()` are `ResultClaim`s: a
`tools/call` result tagged with the claim's `resultType` is parsed as its `model` and
finished by its `resolve`, which returns the call's `CallToolResult`
(`client.session.call_tool(..., allow_claimed=True)` returns the claimed shape itself). The
engine decides what the protocol says of claims: which tags and revisions a claim may name,
at which revision one is active (2026-07-28 only), and that an extension whose claims are
all inactive is not declared (never in the legacy handshake). Extensions that observe
notifications (`notifications()`) are not supported by ferrymcp yet: a client given one
raises naming it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, get_args

from ferrymcp.server.extension import validate_extension_identifier
from ferrymcp.types import CallToolResult, InputRequiredResult, Result

if TYPE_CHECKING:
    from ferrymcp.client.session import ClientSession

_T = TypeVar("_T")
ClaimedT = TypeVar("ClaimedT", bound=Result)

# Members every result is first read with (an `input_required` result's): a claim model
# that reads or writes one of them would have its value taken as theirs.
_RESERVED_WIRE_NAMES = frozenset({"requestState", "inputRequests"})


def _wire_names(name: str, field: Any) -> set[str]:
    """The top-level member names `field` (attribute `name`, a ferrymcp wire field or a
    pydantic one) reads from or writes to."""
    names = {getattr(field, "alias", None) or name}
    serialization_alias = getattr(field, "serialization_alias", None)
    if isinstance(serialization_alias, str):
        names.add(serialization_alias)
    alias = getattr(field, "validation_alias", None)
    if alias is None:
        return names
    # Only a pydantic field has a validation alias; pydantic is not a dependency of
    # ferrymcp, so it is imported here, never when `ferrymcp.client` loads.
    from pydantic import AliasChoices, AliasPath

    for choice in alias.choices if isinstance(alias, AliasChoices) else [alias]:
        first = choice.path[0] if isinstance(choice, AliasPath) else choice
        if isinstance(first, str):
            names.add(first)
    return names


@dataclass(frozen=True, kw_only=True)
class ClaimContext:
    """What a claim's `resolve` gets with the claimed result: the session to send
    follow-ups through, the called tool, and the call's read timeout."""

    session: ClientSession
    tool_name: str
    read_timeout_seconds: float | None


@dataclass(frozen=True, kw_only=True)
class ResultClaim(Generic[ClaimedT]):
    """One result shape an extension claims on one method, keyed by its wire `resultType`.

    `model` (a `Result` subclass whose `result_type` is `Literal[<result_type>]`) parses
    it; `resolve(claimed, ClaimContext)` finishes it and returns the call's
    `CallToolResult`. Active at the modern revisions `protocol_versions` names (`None`:
    every modern one). Checked as it is made: the engine checks the tag, method and
    revisions, this class the model."""

    result_type: str
    model: type[ClaimedT]
    resolve: Callable[[ClaimedT, ClaimContext], Awaitable[CallToolResult]]
    method: Literal["tools/call"] = "tools/call"
    protocol_versions: frozenset[str] | None = None

    def __post_init__(self) -> None:
        from ferrymcp._native import check_result_claim

        versions = sorted(self.protocol_versions) if self.protocol_versions is not None else None
        check_result_claim(self.result_type, self.method, versions)
        model = self.model
        if not isinstance(model, type) or Result not in model.__mro__:
            raise ValueError(f"{getattr(model, '__name__', model)} must subclass ferrymcp.types.Result")
        if issubclass(model, CallToolResult | InputRequiredResult):
            raise ValueError("claim models must not subclass core result types")
        for name, field in model.model_fields.items():
            for reserved in sorted(_wire_names(name, field) & _RESERVED_WIRE_NAMES):
                raise ValueError(
                    f"{model.__name__}.{name} aliases {reserved!r}, a typed field of the core result surface; "
                    "a colliding value would fail core validation before the claim adapter runs"
                )
        pinned = model.model_fields.get("result_type")
        if pinned is None or get_args(pinned.annotation) != (self.result_type,):
            raise ValueError(f"{model.__name__}.result_type must be Literal[{self.result_type!r}]")


@dataclass(frozen=True)
class NotificationBinding(Generic[_T]):
    """A server notification an extension observes (not supported by ferrymcp yet)."""

    method: str
    params_type: type[_T]
    handler: Callable[..., Any]


class UnexpectedClaimedResult(RuntimeError):
    """A claimed result arrived on a `call_tool` that did not opt in to claimed shapes
    (`allow_claimed=True`); `result` is the parsed claim model (the server may hold state
    it references)."""

    def __init__(self, result: Result) -> None:
        super().__init__(
            f"Server returned a claimed result ({type(result).__name__}); pass the owning extension to "
            "Client(extensions=[...]) for transparent resolution, or call with allow_claimed=True "
            "and handle the shape. The carried result may reference server-side state needing cleanup."
        )
        self.result = result


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

    def claims(self) -> Sequence[ResultClaim[Any]]:
        """Result shapes this extension claims, with what finishes them."""
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


@dataclass(frozen=True)
class Declared:
    """What a client's `extensions=` declares: `capabilities.extensions`, and the claims
    by wire tag with their extension."""

    extensions: dict[str, dict[str, Any]]
    claims: dict[str, tuple[str, ResultClaim[Any]]]

    def native(self) -> list[dict[str, Any]]:
        """The claims as the engine takes them (`result_claims`)."""
        return [_native_claim(extension, claim) for extension, claim in self.claims.values()]


def declared_extensions(extensions: Sequence[ClientExtension] | None) -> Declared:
    """What `extensions` declare; raises on what ferrymcp cannot honour."""
    declared = Declared({}, {})
    claims: list[tuple[str, ResultClaim[Any]]] = []
    if extensions is None:
        return declared
    if isinstance(extensions, dict) or not isinstance(extensions, Sequence):
        raise TypeError("extensions= takes a sequence of ClientExtension instances (see ferrymcp.client.advertise)")
    for extension in extensions:
        if not isinstance(extension, ClientExtension):
            raise TypeError(f"extensions= takes ClientExtension instances, not {type(extension).__name__}")
        identifier: str = getattr(extension, "identifier", "")
        validate_extension_identifier(identifier, owner=type(extension).__name__)
        if identifier in declared.extensions:
            raise ValueError(f"extension {identifier!r} is given twice")
        if extension.notifications():
            raise NotImplementedError(f"extension {identifier!r}: notifications() is not supported by ferrymcp yet")
        declared.extensions[identifier] = dict(extension.settings())
        for claim in extension.claims():
            if not isinstance(claim, ResultClaim):
                raise TypeError(f"extension {identifier!r}: claims() returns ResultClaim instances")
            claims.append((identifier, claim))
    if claims:
        # The engine's check of the claims together (a tag claimed once), here as the
        # client is made, as the official one checks.
        from ferrymcp._native import check_result_claims

        check_result_claims([_native_claim(*owned) for owned in claims], {"extensions": declared.extensions})
        declared.claims.update({claim.result_type: (identifier, claim) for identifier, claim in claims})
    return declared


def _native_claim(extension: str, claim: ResultClaim[Any]) -> dict[str, Any]:
    versions = sorted(claim.protocol_versions) if claim.protocol_versions is not None else None
    return {
        "extension": extension,
        "result_type": claim.result_type,
        "method": claim.method,
        "protocol_versions": versions,
    }


__all__ = [
    "ClaimContext",
    "ClientExtension",
    "NotificationBinding",
    "ResultClaim",
    "UnexpectedClaimedResult",
    "advertise",
]
