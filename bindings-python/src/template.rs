//! Core's RFC 6570 URI templates, for `ferrymcp.shared.uri_template` and for the checks
//! `MCPServer` makes when a resource is declared (with the same parser that later matches
//! URIs, so a template the engine would refuse fails at declaration too).

use ferrymcp_core::server::UriTemplate;
use ferrymcp_core::server::template::{DEFAULT_MAX_TEMPLATE_LENGTH, DEFAULT_MAX_URI_LENGTH, DEFAULT_MAX_VARIABLES};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{from_py, object_to_py};

/// A parsed template. A template that does not parse raises `ValueError(message,
/// position)`; the Python layer turns it into `InvalidUriTemplate`.
#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeUriTemplate {
    inner: UriTemplate,
}

#[pymethods]
impl NativeUriTemplate {
    #[new]
    #[pyo3(signature = (template, max_length = DEFAULT_MAX_TEMPLATE_LENGTH, max_variables = DEFAULT_MAX_VARIABLES))]
    fn new(template: &str, max_length: usize, max_variables: usize) -> PyResult<Self> {
        UriTemplate::parse_with_limits(template, max_length, max_variables)
            .map(|inner| Self { inner })
            .map_err(|e| PyValueError::new_err((e.message, e.position)))
    }

    /// `(name, operator, explode)` of every variable, in order.
    fn variables(&self) -> Vec<(String, &'static str, bool)> {
        self.inner.variables().iter().map(|v| (v.name.clone(), v.operator.as_str(), v.explode)).collect()
    }

    /// The variables a URI may leave out (a trailing `{?...}` run).
    fn query_variables(&self) -> Vec<String> {
        self.inner.query_variables().into_iter().map(str::to_owned).collect()
    }

    /// The URI for `values` (str, or a list of str, per variable); `TypeError` names a
    /// variable whose value is neither.
    fn expand(&self, values: &Bound<'_, PyDict>) -> PyResult<String> {
        let serde_json::Value::Object(values) = from_py(values.as_any())? else {
            return Err(PyTypeError::new_err("the values must be a dict"));
        };
        self.inner.expand(&values).map_err(|e| PyTypeError::new_err(e.to_string()))
    }

    /// The variables if `uri` fits, else None.
    #[pyo3(name = "match", signature = (uri, max_uri_length = DEFAULT_MAX_URI_LENGTH))]
    fn match_uri<'py>(
        &self,
        py: Python<'py>,
        uri: &str,
        max_uri_length: usize,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.inner.matches_with_limit(uri, max_uri_length).map(|found| object_to_py(py, &found)).transpose()
    }
}
