//! The player's identity on servers: the guest token each server gave, kept in a small
//! JSON file (`{"ws://host:port": "token"}`) readable by its owner only. The token is
//! never printed nor put in a URL.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{CliError, CliResult, write_atomic};

/// The identity file: `--identity`/`$TABLETOP_IDENTITY`, else
/// `DATA/tabletop/identity.json` in the data folder the server uses for its database.
pub fn path(chosen: Option<&Path>) -> PathBuf {
    let from_env = std::env::var_os("TABLETOP_IDENTITY").filter(|v| !v.is_empty());
    match (chosen, from_env) {
        (Some(path), _) => path.to_owned(),
        (None, Some(path)) => PathBuf::from(path),
        (None, None) => tabletop_server::config::data_dir()
            .join("tabletop")
            .join("identity.json"),
    }
}

/// The tokens of the file, by server; none when it does not exist yet.
fn read(path: &Path) -> CliResult<BTreeMap<String, String>> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            CliError::new(format!(
                "{}: not an identity file ({e}); move it away to start as a new guest",
                path.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
        Err(e) => Err(CliError::new(format!("{}: {e}", path.display()))),
    }
}

/// The token kept for `server`, if any.
pub fn token(path: &Path, server: &str) -> CliResult<Option<String>> {
    Ok(read(path)?.remove(server))
}

/// Keeps `token` for `server` (the other servers' tokens stay).
pub fn keep(path: &Path, server: &str, token: &str) -> CliResult {
    let mut tokens = read(path)?;
    tokens.insert(server.to_owned(), token.to_owned());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::new(format!("{}: {e}", dir.display())))?;
    }
    let text = serde_json::to_vec_pretty(&tokens)?;
    write_atomic(path, &text).map_err(|e| CliError::new(format!("{}: {e}", path.display())))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_kept_per_server() {
        let dir = crate::test_support::temp_dir("identity");
        // In a folder not made yet: `keep` makes it.
        let file = dir.path().join("config").join("id.json");
        assert_eq!(token(&file, "ws://a").unwrap(), None);
        keep(&file, "ws://a", "aa").unwrap();
        keep(&file, "ws://b", "bb").unwrap();
        assert_eq!(token(&file, "ws://a").unwrap().as_deref(), Some("aa"));
        assert_eq!(token(&file, "ws://b").unwrap().as_deref(), Some("bb"));
        std::fs::write(&file, "nonsense").unwrap();
        assert!(token(&file, "ws://a").is_err());
    }
}
