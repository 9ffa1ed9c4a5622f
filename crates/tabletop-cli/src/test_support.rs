//! What the unit tests share: a private temporary folder that goes away with the test.

/// A new private folder `tabletop-NAME-XXXXXX` in the system's temporary directory,
/// removed with everything in it when the value is dropped: at the end of the test,
/// passed or failed.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("tabletop-{name}-"))
        .tempdir()
        .expect("a temporary folder")
}
