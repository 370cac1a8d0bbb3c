"""`mcp.shared` at ferrymcp's path: the modules of it that user code imports.

`exceptions` (the error classes), `context` (`RequestContext`), `message`
(`SessionMessage`, for user-made streams), `path_security` (checks for values that become
file paths), `metadata_utils` (`get_display_name`), `uri_template` (RFC 6570 templates that
match as well as expand, on core's matcher) and `version` (the protocol revisions the engine
speaks). Submodules load on first use, so `import ferrymcp` pays for none.
"""
