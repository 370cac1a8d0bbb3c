//! The HTTP headers of MCP's Streamable HTTP transport, and the one table of which request
//! field feeds `Mcp-Name` (SEP-2243).
//!
//! 2026-07-28 mirrors body fields into headers so intermediaries can route without
//! parsing the body. The client writes them and the server checks them, so both read this
//! table: when each side kept its own, ferrymcp's client sent no `Mcp-Name` on the task
//! methods while its server required one.

/// `MCP-Protocol-Version` (from 2025-06-18; on 2026-07-28 equal to `_meta`'s).
pub const PROTOCOL_VERSION_HEADER: &str = "mcp-protocol-version";
/// `Mcp-Session-Id`: the legacy session a request belongs to.
pub const SESSION_ID_HEADER: &str = "mcp-session-id";
/// `Mcp-Method`: the request's method (2026-07-28).
pub const METHOD_HEADER: &str = "mcp-method";
/// `Mcp-Name`: the request's target, from the field [`name_field`] names (2026-07-28).
pub const NAME_HEADER: &str = "mcp-name";
/// `Mcp-Param-{Name}`: a tool argument its input schema marks with `x-mcp-header`.
pub const PARAM_HEADER_PREFIX: &str = "mcp-param-";

/// Method -> the request field whose value `Mcp-Name` carries. The tasks extension
/// (SEP-2663) routes a task's requests by its id, so a replica holding the task gets them.
pub const NAME_FIELDS: [(&str, &str); 6] = [
    ("tools/call", "name"),
    ("prompts/get", "name"),
    ("resources/read", "uri"),
    ("tasks/get", "taskId"),
    ("tasks/update", "taskId"),
    ("tasks/cancel", "taskId"),
];

/// The request field whose value `Mcp-Name` carries for `method`, if it has one.
pub fn name_field(method: &str) -> Option<&'static str> {
    NAME_FIELDS.iter().find(|(m, _)| *m == method).map(|(_, field)| *field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_routed_method_has_its_field() {
        assert_eq!(name_field("tools/call"), Some("name"));
        assert_eq!(name_field("resources/read"), Some("uri"));
        assert_eq!(name_field("tasks/update"), Some("taskId"));
        assert_eq!(name_field("tools/list"), None);
    }
}
