//! Python bindings of the Tabletop engines: the extension module `tabletop._tabletop`,
//! which the pure-Python package `tabletop` (in `python/`) re-exports.
//!
//! No rules logic lives here: every function parses its arguments, calls an engine and
//! converts the answer. Engine errors become the Python exceptions of the `errors` module, with the
//! engine's own message.

use pyo3::prelude::*;

mod battleship;
mod envs;
mod errors;
mod nardy;
mod reversi;
mod sudoku;
mod util;

/// The extension module: one submodule per game, the exceptions, and the environment
/// states that `tabletop.envs` wraps.
#[pymodule]
fn _tabletop(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    errors::register(m)?;
    m.add_submodule(&reversi::module(py)?)?;
    m.add_submodule(&nardy::module(py)?)?;
    m.add_submodule(&battleship::module(py)?)?;
    m.add_submodule(&sudoku::module(py)?)?;
    m.add_submodule(&envs::module(py)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
