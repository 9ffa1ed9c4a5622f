//! Identities: random guest tokens, stored only as their SHA-256 hash, and random ids.
//!
//! A token is 32 random bytes from the operating system, sent once in `welcome` and then
//! by the client in `hello`. The server keeps only its hash, so a copy of the database
//! lets no one act as a player; tokens never appear in a URL or a log line.

use sha2::{Digest, Sha256};

/// `n` random bytes from the operating system's generator.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // The OS generator fails only on a broken system; the server cannot run safely then.
    getrandom::fill(&mut bytes).expect("the operating system's random generator");
    bytes
}

/// A fresh secret token, as the client keeps it (64 hex digits).
pub fn new_token() -> String {
    hex(&random_bytes::<32>())
}

/// The hash of a token, as the database keeps it.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// A fresh id with a prefix (`p` for players, `t` for tables): 16 hex digits.
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}{}", hex(&random_bytes::<8>()))
}

/// The letters of invite codes: no 0/O nor 1/I to misread.
const INVITE_ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// A fresh invite code: 10 letters of 32 (50 bits), far beyond guessing at the rate
/// limit the server allows.
pub fn new_invite() -> String {
    random_bytes::<10>()
        .iter()
        .map(|b| INVITE_ALPHABET[usize::from(b % 32)] as char)
        .collect()
}

/// A random 64-bit seed.
pub fn new_seed() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// Hex (either case) as bytes; `None` if it is not hex.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashed() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(token_hash(&a), token_hash(&a));
        assert_ne!(token_hash(&a), a);
        assert_eq!(unhex(&hex(&[0, 1, 254, 255])), Some(vec![0, 1, 254, 255]));
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("abc"), None);
        assert_eq!(new_invite().len(), 10);
    }
}
