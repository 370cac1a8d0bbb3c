//! The official Python SDK (`mcp`, installed into `.venv` by `scripts/test.sh`) serving
//! streamable-http.
