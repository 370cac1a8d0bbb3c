//! `NativeListedTools`: core's [`ListedTools`] for the 1.x low-level `Server`'s decorators,
//! which record each listing and check each call against it (`validate_input`, output
//! schemas). Core compiles the schemas and words the verdicts.

use ferrymcp_core::server::ListedTools;
use pyo3::prelude::*;
use serde_json::Value;

use crate::convert::from_py;

#[pyclass(frozen)]
pub struct NativeListedTools {
    tools: ListedTools,
}

#[pymethods]
impl NativeListedTools {
    #[new]
    fn new() -> Self {
        Self { tools: ListedTools::new() }
    }

    /// Records a listing: `tools`, each a tool as it goes on the wire; `replace`: the
    /// listing is the whole set.
    fn record(&self, tools: &Bound<'_, PyAny>, replace: bool) -> PyResult<()> {
        let Value::Array(tools) = from_py(tools)? else {
            return Err(pyo3::exceptions::PyTypeError::new_err("record() takes a list of tools"));
        };
        self.tools.record(&tools, replace);
        Ok(())
    }

    fn knows(&self, name: &str) -> bool {
        self.tools.knows(name)
    }

    /// `Input validation error: ...`, or `None`.
    fn check_input(&self, name: &str, arguments: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        Ok(self.tools.check_input(name, &from_py(arguments)?))
    }

    /// `Output validation error: ...`, or `None`; `structured` is `None` when the tool
    /// returned no structured content.
    fn check_output(&self, name: &str, structured: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let structured = if structured.is_none() { None } else { Some(from_py(structured)?) };
        Ok(self.tools.check_output(name, structured.as_ref()))
    }
}
