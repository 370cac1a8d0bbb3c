//! Core's RFC 6570 parser, for the checks `MCPServer` makes when a resource is declared.
//!
//! A template's variables must be its function's parameters, and its query variables
//! need defaults; Python checks that at registration, with the same parser that later
//! matches URIs, so a template the engine would refuse fails at declaration too.

use ferrymcp_core::server::UriTemplate;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// `(variables, query_variables)` of `template`; `ValueError` when it does not parse.
#[pyfunction]
pub fn uri_template_variables(template: &str) -> PyResult<(Vec<String>, Vec<String>)> {
    let parsed =
        UriTemplate::parse(template).map_err(|e| PyValueError::new_err(format!("URI template {template:?}: {e}")))?;
    let owned = |names: Vec<&str>| names.into_iter().map(str::to_owned).collect();
    Ok((owned(parsed.variables()), owned(parsed.query_variables())))
}
