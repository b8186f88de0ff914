//! Binding a call's arguments to the function's parameters, as Python
//! binds them: positional arguments in order, keywords by name, defaults
//! filled, extra positionals as a tuple for `*args` and extra keywords as a
//! dict for `**kwargs`.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

/// How a parameter takes its argument (`inspect.Parameter.kind`'s values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    PositionalOnly,
    PositionalOrKeyword,
    VarPositional,
    KeywordOnly,
    VarKeyword,
}

impl Kind {
    fn from_code(code: u8) -> PyResult<Kind> {
        Ok(match code {
            0 => Kind::PositionalOnly,
            1 => Kind::PositionalOrKeyword,
            2 => Kind::VarPositional,
            3 => Kind::KeywordOnly,
            4 => Kind::VarKeyword,
            _ => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "rxt_tf: unknown parameter kind {code}"
                )))
            }
        })
    }

    fn positional(self) -> bool {
        matches!(self, Kind::PositionalOnly | Kind::PositionalOrKeyword)
    }

    fn by_keyword(self) -> bool {
        matches!(self, Kind::PositionalOrKeyword | Kind::KeywordOnly)
    }
}

/// One parameter of the function.
struct Parameter {
    name: String,
    kind: Kind,
    default: Option<Py<PyAny>>,
}

/// The function's parameters, in order.
pub(crate) struct Parameters {
    parameters: Vec<Parameter>,
}

impl Parameters {
    /// Reads `(name, kind, has_default, default)` tuples (see
    /// `rxt_tf._trace.parameters`).
    pub(crate) fn from_python(list: &Bound<'_, PyAny>) -> PyResult<Parameters> {
        let mut parameters = Vec::new();
        for item in list.try_iter()? {
            let (name, kind, has_default, default): (String, u8, bool, Py<PyAny>) =
                item?.extract()?;
            parameters.push(Parameter {
                name,
                kind: Kind::from_code(kind)?,
                default: has_default.then_some(default),
            });
        }
        Ok(Parameters { parameters })
    }

    /// The value of every parameter, in order, or `None` when the arguments
    /// do not bind (TensorFlow then raises its own error).
    pub(crate) fn bind<'py>(
        &self,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
        let py = args.py();
        let mut values: Vec<Option<Bound<'py, PyAny>>> = vec![None; self.parameters.len()];
        let mut positional = self
            .parameters
            .iter()
            .enumerate()
            .filter(|(_, parameter)| parameter.kind.positional())
            .map(|(index, _)| index);
        let var_positional = self.position(|parameter| parameter.kind == Kind::VarPositional);
        let mut extra = Vec::new();
        for arg in args.iter() {
            match (positional.next(), var_positional) {
                (Some(index), _) => values[index] = Some(arg),
                (None, Some(_)) => extra.push(arg),
                (None, None) => return Ok(None),
            }
        }
        if let Some(index) = var_positional {
            values[index] = Some(PyTuple::new(py, extra)?.into_any());
        }
        let var_keyword = self.position(|parameter| parameter.kind == Kind::VarKeyword);
        let rest = PyDict::new(py);
        for (key, value) in kwargs.into_iter().flat_map(|kwargs| kwargs.iter()) {
            let Some(name) = key
                .cast::<PyString>()
                .ok()
                .and_then(|name| name.to_str().ok())
            else {
                return Ok(None);
            };
            let named =
                self.position(|parameter| parameter.kind.by_keyword() && parameter.name == name);
            match (named, var_keyword) {
                (Some(index), _) if values[index].is_some() => return Ok(None),
                (Some(index), _) => values[index] = Some(value),
                (None, Some(_)) => rest.set_item(key, value)?,
                (None, None) => return Ok(None),
            }
        }
        if let Some(index) = var_keyword {
            values[index] = Some(rest.into_any());
        }
        let mut bound = Vec::with_capacity(values.len());
        for (value, parameter) in values.into_iter().zip(&self.parameters) {
            match (value, &parameter.default) {
                (Some(value), _) => bound.push(value),
                (None, Some(default)) => bound.push(default.bind(py).clone()),
                (None, None) => return Ok(None),
            }
        }
        Ok(Some(bound))
    }

    fn position(&self, wanted: impl Fn(&Parameter) -> bool) -> Option<usize> {
        self.parameters.iter().position(wanted)
    }
}
