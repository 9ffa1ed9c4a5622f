//! Named accounts: a guest may take a name and a password, then log in with them from
//! anywhere. Passwords are hashed with Argon2id (the `argon2` crate's defaults: 19 MiB,
//! 2 passes), on the bot pool so no hash blocks the event loop; only the hash (a PHC
//! string with its random salt) is stored.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use serde::{Deserialize, Serialize};

use crate::identity::random_bytes;

/// A password as it travels in a message: never printed by `Debug`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Password(pub String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(***)")
    }
}

/// Why a name or a password is refused, in words for the person.
pub fn check(name: &str, password: &Password) -> Result<(), String> {
    let name_ok = (3..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !name_ok {
        return Err("a name has 3 to 32 letters, digits, '_' or '-'".into());
    }
    if !(8..=256).contains(&password.0.chars().count()) {
        return Err("a password has 8 to 256 characters".into());
    }
    Ok(())
}

/// The Argon2id hash of a password, as a PHC string (`$argon2id$v=19$…`).
pub fn hash(password: &Password) -> Option<String> {
    let salt = SaltString::encode_b64(&random_bytes::<16>()).ok()?;
    Argon2::default()
        .hash_password(password.0.as_bytes(), &salt)
        .ok()
        .map(|h| h.to_string())
}

/// Whether `password` matches a stored hash (`None`: no such account, checked against a
/// fixed hash all the same, so an unknown name takes as long as a wrong password).
pub fn verify(password: &Password, stored: Option<&str>) -> bool {
    const UNKNOWN: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$\
        1b2VFnHqWn6yPZsR9cB/3hV2Y2G7fbKkQZkq5J2f1aI";
    let Ok(parsed) = PasswordHash::new(stored.unwrap_or(UNKNOWN)) else {
        return false;
    };
    let ok = Argon2::default()
        .verify_password(password.0.as_bytes(), &parsed)
        .is_ok();
    ok && stored.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_hide() {
        let pw = Password("correct horse".into());
        let stored = hash(&pw).unwrap();
        assert!(stored.starts_with("$argon2id$"));
        assert!(!stored.contains("correct"));
        assert!(verify(&pw, Some(&stored)));
        assert!(!verify(&Password("wrong horse".into()), Some(&stored)));
        assert!(!verify(&pw, None));
        assert_eq!(format!("{pw:?}"), "Password(***)");
        assert!(check("ann_1", &pw).is_ok());
        assert!(check("a", &pw).is_err());
        assert!(check("ann smith", &pw).is_err());
        assert!(check("ann", &Password("short".into())).is_err());
    }
}
