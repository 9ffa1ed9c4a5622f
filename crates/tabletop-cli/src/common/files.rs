//! Files: saves written atomically, outputs checked before long work, inputs read from a
//! file or stdin, with the file name in every error.

use std::fs;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use super::{CliError, CliResult};

/// Writes `bytes` to `path` atomically: the data goes to a temporary file in the same
/// directory, is flushed to disk, then renamed over `path`. A crash or a full disk leaves
/// either the old file or the new one, never a half-written save.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Saves `bytes` to `path` with [`write_atomic`], with the file name in any error.
pub fn save_file(path: &Path, bytes: &[u8]) -> CliResult {
    write_atomic(path, bytes)
        .map_err(|e| CliError::new(format!("cannot save {}: {e}", path.display())))
}

/// Checks, before a long run, that `path` can be written at its end: it is not a folder,
/// its folder exists and takes a new file (tried with an empty file, removed at once).
/// Without it a run would do all its work and then fail to save.
pub fn check_output(path: &Path) -> CliResult {
    let fail = |why: String| CliError::new(format!("cannot write {}: {why}", path.display()));
    if path.is_dir() {
        return Err(fail("it is a folder".to_owned()));
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(fail(format!("there is no folder {}", dir.display())));
    }
    let mut probe_name = std::ffi::OsString::from(".");
    probe_name.push(path.file_name().unwrap_or_default());
    probe_name.push(format!(".{}.check", std::process::id()));
    let probe = dir.join(probe_name);
    match fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => fs::remove_file(&probe).map_err(|e| fail(e.to_string())),
        Err(e) => Err(fail(e.to_string())),
    }
}

/// Reads a whole file, with the file name in any error.
pub fn load_file(path: &Path) -> CliResult<Vec<u8>> {
    fs::read(path).map_err(|e| CliError::new(format!("cannot read {}: {e}", path.display())))
}

/// Opens a text input: the named file, or stdin for `None` or `-`.
pub fn open_input(path: Option<&Path>) -> CliResult<Box<dyn BufRead>> {
    match path {
        None => Ok(Box::new(io::stdin().lock())),
        Some(p) if p.as_os_str() == "-" => Ok(Box::new(io::stdin().lock())),
        Some(p) => {
            let file = fs::File::open(p)
                .map_err(|e| CliError::new(format!("cannot open {}: {e}", p.display())))?;
            Ok(Box::new(io::BufReader::new(file)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::temp_dir;

    #[test]
    fn atomic_write_replaces_the_whole_file() {
        let tmp = temp_dir("atomic");
        let dir = tmp.path();
        let path = dir.join("game.sav");
        write_atomic(&path, b"first version, long").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let leftovers: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n != "game.sav")
            .collect();
        assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    }

    #[test]
    fn atomic_write_into_a_missing_directory_fails_cleanly() {
        let tmp = temp_dir("missing");
        let path = tmp.path().join("no-such-dir").join("a.sav");
        assert!(write_atomic(&path, b"x").is_err());
        assert!(
            save_file(&path, b"x")
                .unwrap_err()
                .message()
                .contains("cannot save")
        );
    }

    #[test]
    fn outputs_are_checked_before_the_work() {
        let tmp = temp_dir("check");
        let dir = tmp.path();
        assert!(check_output(&dir.join("out.bin")).is_ok());
        assert_eq!(
            fs::read_dir(dir).unwrap().count(),
            0,
            "the probe file stays"
        );
        let missing = check_output(&dir.join("no-such-dir").join("out.bin")).unwrap_err();
        assert!(
            missing.message().contains("there is no folder"),
            "{missing}"
        );
        let folder = check_output(dir).unwrap_err();
        assert!(folder.message().contains("it is a folder"), "{folder}");
    }
}
