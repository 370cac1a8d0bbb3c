"""URI templates: `ferrymcp.shared.uri_template` (core's parser and matcher) against the
official SDK's `mcp.shared.uri_template`, and resource templates served by ferrymcp's
`MCPServer` against the official `MCPServer`, read by the official client in memory.

The first test is differential: seeded random templates (valid and not) and URIs (random,
and expansions of random values), every parse error, match and expansion compared with the
official module's. It found a panic on multi-byte URIs before it was committed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from mcp.shared import uri_template as official

from ferrymcp.shared import uri_template as ours

OPERATORS = ["", "+", "#", ".", "/", ";", "?", "&"]
LITERALS = ["x://", "/", "-", ".", "a", "?q=1", "&", ";", ",", "=", "é", "}", "#", "ab/"]
NAMES = ["a", "b", "c", "d.e", "f_1"]
URI_CHARS = "x:/-.a?q=1&;,é#%2Fb%20cd"
VALUES: list[Any] = ["", "x", "a/b", "é", "1,2", "p.q", "50%", ["x", "y z"], [], 7]


def random_template(rng: random.Random) -> str:
    out = []
    for _ in range(rng.randint(0, 4)):
        if rng.random() < 0.5:
            out.append(rng.choice(LITERALS))
            continue
        names = [n + ("*" if rng.random() < 0.2 else "") for n in rng.sample([*NAMES, "a"], rng.randint(1, 2))]
        if rng.random() < 0.03:
            names = [rng.choice(["", "a:3", "a b", "a..b"])]
        out.append("{" + rng.choice(OPERATORS) + ",".join(names) + "}")
    if rng.random() < 0.02:
        out.append("{open")
    return "".join(out)


def parsed(module: Any, template: str) -> tuple[Any, tuple[str, int | None] | None]:
    try:
        return module.UriTemplate.parse(template), None
    except module.InvalidUriTemplate as error:
        return None, (str(error), error.position)


def expanded(template: Any, values: dict[str, Any]) -> str:
    try:
        return template.expand(values)
    except TypeError as error:
        return f"TypeError: {error}"


def test_parse_match_and_expand_agree_with_the_official_sdk() -> None:
    rng = random.Random(20261126)
    compared = 0
    for _ in range(3000):
        template = random_template(rng)
        theirs, their_error = parsed(official, template)
        mine, my_error = parsed(ours, template)
        assert my_error == their_error, template
        if theirs is None:
            continue
        assert mine.variable_names == theirs.variable_names
        assert mine.variables == [ours.Variable(v.name, v.operator, v.explode) for v in theirs.variables]
        assert mine.query_variable_names == theirs.query_variable_names
        for _ in range(20):
            uri = "".join(rng.choice(URI_CHARS) for _ in range(rng.randint(0, 14)))
            if rng.random() < 0.5:
                values = {name: rng.choice(VALUES) for name in theirs.variable_names if rng.random() < 0.8}
                assert expanded(mine, values) == expanded(theirs, values), (template, values)
                if not expanded(theirs, values).startswith("TypeError"):
                    uri = theirs.expand(values)
            assert mine.match(uri) == theirs.match(uri), (template, uri)
            compared += 1
    assert compared > 10_000


def test_limits_and_helpers_agree_with_the_official_sdk() -> None:
    for template, kwargs in [("x" * 9000, {}), ("{a}/{b}/{c}", {"max_variables": 2}), ("x://{a}", {"max_length": 3})]:
        assert parsed(ours, template) == (None, parsed(official, template)[1]) or (
            parsed(ours, template)[1] == parsed(official, template)[1]
        )
        with pytest.raises(ours.InvalidUriTemplate) as mine:
            ours.UriTemplate.parse(template, **kwargs)
        with pytest.raises(official.InvalidUriTemplate) as theirs:
            official.UriTemplate.parse(template, **kwargs)
        assert str(mine.value) == str(theirs.value)
    t = ours.UriTemplate.parse("x://{a}")
    assert t.match("x://" + "b" * 100, max_uri_length=50) is None
    assert t.match("x://b") == {"a": "b"}
    for text in ["file://docs/{name}", "file://docs/readme.txt", "a}{", "{x"]:
        assert ours.UriTemplate.is_template(text) == official.UriTemplate.is_template(text)
    assert str(t) == "x://{a}" and t == ours.UriTemplate.parse("x://{a}") and hash(t) == hash("x://{a}")
    assert repr(t) == repr(official.UriTemplate.parse("x://{a}"))
    assert isinstance(ours.InvalidUriTemplate("m", template="t"), ValueError)


def bookshop(module: Any) -> Any:
    """The same resource templates on either SDK's `MCPServer`."""
    server = module.MCPServer("Bookshop")

    @server.resource("books://{isbn}")
    def book(isbn: str) -> str:
        return f"book {isbn}"

    @server.resource("orders://{order_id}")
    def order(order_id: int) -> str:
        return f"order {order_id + 1}"

    @server.resource("manuals://{+path}")
    def manual(path: str) -> str:
        return f"manual {path}"

    @server.resource("reviews://{isbn}{?limit,sort}")
    def reviews(isbn: str, limit: int = 10, sort: str = "newest") -> str:
        return f"{limit} {sort} reviews of {isbn}"

    @server.resource("shelves://browse{/path*}")
    def shelves(path: list[str]) -> str:
        return " > ".join(["catalog", *path])

    @server.resource("files://{name}{.ext}")
    def files(name: str, ext: str) -> str:
        return f"{name} as {ext}"

    return server


URIS = [
    "books://978-0441172719",
    "books://a%20b",
    "orders://12345",
    "manuals://printing/setup.md",
    "manuals://../etc/passwd",
    "reviews://978",
    "reviews://978?sort=top",
    "reviews://978?limit=3&sort=top&utm=x",
    "shelves://browse/fiction/sci-fi",
    "shelves://browse",
    "files://notes.md",
    "files://notes",
    "unknown://x",
]


async def read_all(module: Any, server: Any) -> list[Any]:
    """Every URI read through the SDK's own in-memory `Client`: texts, or the error's code
    and message."""
    answers: list[Any] = []
    async with module.Client(server) as client:
        for uri in URIS:
            try:
                result = await client.read_resource(uri)
                answers.append([c.text for c in result.contents])
            except module.MCPError as error:
                # The message is core's ("Resource not found: URI", the official Python SDK
                # says "Unknown resource: URI"); the code and the URI are compared.
                answers.append(("error", error.error.code, error.error.message.rsplit(": ", 1)[-1]))
    return answers


async def test_resource_templates_answer_as_the_official_server() -> None:
    import mcp
    import mcp.server

    import ferrymcp
    import ferrymcp.server

    theirs = await read_all(mcp, bookshop(mcp.server))
    mine = await read_all(ferrymcp, bookshop(ferrymcp.server))
    for uri, their_answer, my_answer in zip(URIS, theirs, mine, strict=True):
        assert my_answer == their_answer, uri
