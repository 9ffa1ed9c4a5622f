//! Small helpers shared by the game modules.

use pyo3::prelude::*;
use pyo3::types::PyModule;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A fresh submodule of `tabletop._tabletop`.
pub(crate) fn submodule<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyModule>> {
    PyModule::new(py, name)
}

/// The generator every seeded operation uses.
pub(crate) fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The seed of item `index` of a batch started from `seed`: a SplitMix64 step, so batches
/// with nearby seeds share no item.
pub(crate) fn item_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A bot level as Python gives it: a number or a name.
#[derive(FromPyObject)]
pub(crate) enum LevelArg {
    /// The level's number.
    Number(u8),
    /// The level's name (or number as text).
    Name(String),
}

impl LevelArg {
    /// The text the engine's `Level` parser reads.
    pub(crate) fn text(&self) -> String {
        match self {
            LevelArg::Number(n) => n.to_string(),
            LevelArg::Name(s) => s.clone(),
        }
    }
}

/// The copy and pickle protocol of a game class: `copy()`, `copy.copy`, `copy.deepcopy`
/// (all plain clones: a game holds no Python object) and pickling through the engine's
/// save (`to_bytes()`, read back by the class's `from_bytes`).
macro_rules! game_copy_and_pickle {
    ($class:ident) => {
        #[pyo3::pymethods]
        impl $class {
            /// An independent copy of the game.
            fn copy(&self) -> $class {
                self.clone()
            }

            fn __copy__(&self) -> $class {
                self.clone()
            }

            fn __deepcopy__(&self, _memo: &pyo3::Bound<'_, pyo3::PyAny>) -> $class {
                self.clone()
            }

            fn __reduce__(
                &self,
                py: pyo3::Python<'_>,
            ) -> pyo3::PyResult<(pyo3::Py<pyo3::PyAny>, (pyo3::Py<pyo3::PyAny>,))> {
                let from_bytes = py.get_type::<$class>().getattr("from_bytes")?.unbind();
                let bytes = pyo3::types::PyBytes::new(py, &self.inner.to_bytes());
                Ok((from_bytes, (bytes.into_any().unbind(),)))
            }
        }
    };
}
pub(crate) use game_copy_and_pickle;

/// The copy and pickle protocol of an immutable position class: copies are clones and a
/// pickle is the position's notation, which the class's constructor parses.
macro_rules! position_copy_and_pickle {
    ($class:ident) => {
        #[pyo3::pymethods]
        impl $class {
            fn __copy__(&self) -> $class {
                self.clone()
            }

            fn __deepcopy__(&self, _memo: &pyo3::Bound<'_, pyo3::PyAny>) -> $class {
                self.clone()
            }

            fn __reduce__(
                &self,
                py: pyo3::Python<'_>,
            ) -> pyo3::PyResult<(pyo3::Py<pyo3::PyAny>, (String,))> {
                let cls = py.get_type::<$class>().into_any().unbind();
                Ok((cls, (self.inner.to_string(),)))
            }
        }
    };
}
pub(crate) use position_copy_and_pickle;
