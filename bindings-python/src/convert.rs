//! JSON values to Python objects and back: dicts, lists, str, int, float, bool, None.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => object_to_py(py, map)?.into_any(),
    })
}

pub fn object_to_py<'py>(py: Python<'py>, map: &Map<String, Value>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in map {
        dict.set_item(key, to_py(py, value)?)?;
    }
    Ok(dict)
}

pub fn from_py(object: &Bound<'_, PyAny>) -> PyResult<Value> {
    if object.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = object.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if object.is_instance_of::<PyInt>() {
        if let Ok(i) = object.extract::<i64>() {
            return Ok(Value::from(i));
        }
        return Ok(Value::from(object.extract::<u64>()?));
    }
    if let Ok(f) = object.cast::<PyFloat>() {
        let value = f.value();
        return Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| PyTypeError::new_err(format!("{value} is not a JSON number")));
    }
    if let Ok(s) = object.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_owned()));
    }
    if let Ok(dict) = object.cast::<PyDict>() {
        let mut map = Map::with_capacity(dict.len());
        for (key, value) in dict.iter() {
            let key = key
                .cast::<PyString>()
                .map_err(|_| PyTypeError::new_err(format!("a JSON object key must be a str, not {key:?}")))?;
            map.insert(key.to_str()?.to_owned(), from_py(&value)?);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(list) = object.cast::<PyList>() {
        return list.iter().map(|item| from_py(&item)).collect::<PyResult<_>>().map(Value::Array);
    }
    if let Ok(tuple) = object.cast::<PyTuple>() {
        return tuple.iter().map(|item| from_py(&item)).collect::<PyResult<_>>().map(Value::Array);
    }
    Err(PyTypeError::new_err(format!("cannot convert {} to JSON", object.get_type().name()?)))
}
