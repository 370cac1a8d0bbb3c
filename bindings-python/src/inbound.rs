//! `ferrymcp.shared.inbound`'s native half: core's copy of the official inbound ladder
//! (`ferrymcp_core::protocol::inbound`), with values converted and nothing decided here.

use ferrymcp_core::protocol::headers::{METHOD_HEADER, NAME_HEADER, PROTOCOL_VERSION_HEADER};
use ferrymcp_core::protocol::inbound;
use ferrymcp_core::wire::ErrorObject;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::convert::{from_py, to_py};

type Rejection = (i64, String, Py<PyAny>);

fn rejection(py: Python<'_>, error: &ErrorObject) -> PyResult<Rejection> {
    let data = match &error.data {
        Some(data) => data.parse_owned::<Value>().unwrap_or(Value::Null),
        None => Value::Null,
    };
    Ok((error.code, error.message.clone(), to_py(py, &data)?.unbind()))
}

/// `classify_inbound_request`: `(True, (protocol_version, client_info, client_capabilities))`
/// for a request that passed every rung, `(False, (code, message, data))` for the first
/// rung that failed.
#[pyfunction]
#[pyo3(signature = (body, headers, supported))]
pub fn classify_inbound_request(
    py: Python<'_>,
    body: &Bound<'_, PyAny>,
    headers: Option<&Bound<'_, PyAny>>,
    supported: Vec<String>,
) -> PyResult<(bool, Py<PyAny>)> {
    let body = from_py(body)?;
    let headers = match headers {
        Some(headers) => match from_py(headers)? {
            Value::Object(map) => Some(map),
            _ => return Err(pyo3::exceptions::PyTypeError::new_err("headers must be a mapping of str to str")),
        },
        None => None,
    };
    match inbound::classify_inbound_request(&body, headers.as_ref(), &supported) {
        Ok(route) => {
            let fields =
                (route.protocol_version, to_py(py, &route.client_info)?, to_py(py, &route.client_capabilities)?);
            Ok((true, fields.into_pyobject(py)?.into_any().unbind()))
        }
        Err(error) => Ok((false, rejection(py, &error)?.into_pyobject(py)?.into_any().unbind())),
    }
}

/// `unsupported_protocol_version_rejection`: `(code, message, data)`, or `None` when served.
#[pyfunction]
pub fn unsupported_protocol_version_rejection(
    py: Python<'_>,
    requested: &str,
    supported: Vec<String>,
) -> PyResult<Option<Rejection>> {
    inbound::unsupported_protocol_version_rejection(requested, &supported).map(|e| rejection(py, &e)).transpose()
}

/// `encode_header_value`.
#[pyfunction]
pub fn encode_header_value(value: &str) -> String {
    inbound::encode_header_value(value)
}

/// `decode_header_value` (`None` in, `None` out).
#[pyfunction]
#[pyo3(signature = (value))]
pub fn decode_header_value(value: Option<&str>) -> Option<String> {
    inbound::decode_header_value(value?)
}

/// `find_duplicated_routing_header` over raw header names.
#[pyfunction]
pub fn find_duplicated_routing_header(names: Vec<String>) -> Option<&'static str> {
    inbound::find_duplicated_routing_header(names.iter().map(String::as_str))
}

/// `find_invalid_x_mcp_header`: why an annotation of the schema is invalid, or `None`.
#[pyfunction]
pub fn find_invalid_x_mcp_header(input_schema: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    Ok(inbound::find_invalid_x_mcp_header(&from_py(input_schema)?))
}

/// `x_mcp_header_map` as `(path, token)` pairs, in the official walk's order.
#[pyfunction]
pub fn x_mcp_header_map(input_schema: &Bound<'_, PyAny>) -> PyResult<Vec<(Vec<String>, String)>> {
    Ok(inbound::x_mcp_header_map(&from_py(input_schema)?))
}

/// `mcp_param_headers` over `(path, token)` pairs: `(header name, value)` pairs.
#[pyfunction]
pub fn mcp_param_headers(
    header_map: Vec<(Vec<String>, String)>,
    arguments: &Bound<'_, PyAny>,
) -> PyResult<Vec<(String, String)>> {
    Ok(inbound::mcp_param_headers(&header_map, &from_py(arguments)?))
}

/// `validate_mcp_param_headers` over raw `(name, value)` header pairs: the rejection's
/// `(code, message, data)`, or `None`.
#[pyfunction]
pub fn validate_mcp_param_headers(
    py: Python<'_>,
    input_schema: &Bound<'_, PyAny>,
    arguments: &Bound<'_, PyAny>,
    headers: Vec<(String, String)>,
) -> PyResult<Option<Rejection>> {
    let (schema, arguments) = (from_py(input_schema)?, from_py(arguments)?);
    let pairs = headers.iter().map(|(name, value)| (name.as_str(), value.as_str()));
    inbound::validate_mcp_param_headers(&schema, &arguments, pairs).map(|m| rejection(py, &m.official())).transpose()
}

/// The official tables: `(ERROR_CODE_HTTP_STATUS, NAME_BEARING_METHODS, routing header
/// names)` as dicts.
#[pyfunction]
pub fn inbound_tables(py: Python<'_>) -> PyResult<(Bound<'_, PyDict>, Bound<'_, PyDict>, Bound<'_, PyDict>)> {
    let statuses = PyDict::new(py);
    for (code, status) in inbound::ERROR_CODE_HTTP_STATUS {
        statuses.set_item(code, status)?;
    }
    let names = PyDict::new(py);
    for (method, key) in inbound::NAME_BEARING_METHODS {
        names.set_item(method, key)?;
    }
    let headers = PyDict::new(py);
    headers.set_item("MCP_PROTOCOL_VERSION_HEADER", PROTOCOL_VERSION_HEADER)?;
    headers.set_item("MCP_METHOD_HEADER", METHOD_HEADER)?;
    headers.set_item("MCP_NAME_HEADER", NAME_HEADER)?;
    headers.set_item("MCP_PARAM_HEADER_PREFIX", inbound::MCP_PARAM_HEADER_PREFIX)?;
    headers.set_item("X_MCP_HEADER_KEY", inbound::X_MCP_HEADER_KEY)?;
    Ok((statuses, names, headers))
}

pub fn add(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(classify_inbound_request, module)?)?;
    module.add_function(wrap_pyfunction!(unsupported_protocol_version_rejection, module)?)?;
    module.add_function(wrap_pyfunction!(encode_header_value, module)?)?;
    module.add_function(wrap_pyfunction!(decode_header_value, module)?)?;
    module.add_function(wrap_pyfunction!(find_duplicated_routing_header, module)?)?;
    module.add_function(wrap_pyfunction!(inbound_tables, module)?)?;
    module.add_function(wrap_pyfunction!(find_invalid_x_mcp_header, module)?)?;
    module.add_function(wrap_pyfunction!(x_mcp_header_map, module)?)?;
    module.add_function(wrap_pyfunction!(mcp_param_headers, module)?)?;
    module.add_function(wrap_pyfunction!(validate_mcp_param_headers, module)?)?;
    Ok(())
}
