#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A game's binary save format: a 4-byte magic, a little-endian `u16` version, then the
/// body in postcard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    magic: [u8; 4],
    version: u16,
    game: &'static str,
}

/// Why a save could not be loaded. Every engine's `Game::from_bytes` returns this one
/// shape.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The data does not start with the game's magic bytes: another file, or a save of
    /// another game.
    #[error("this is not a Tabletop {game} save")]
    NotASave {
        /// The game whose save was expected.
        game: &'static str,
    },
    /// The save was written by a newer version of the engine.
    #[error(
        "this {game} save has format version {found}, newer than this program reads ({supported})"
    )]
    NewerVersion {
        /// The game.
        game: &'static str,
        /// The version in the file.
        found: u16,
        /// The newest version this program reads.
        supported: u16,
    },
    /// The data is damaged or truncated, or has bytes after the end of the save.
    #[error("the save is damaged or truncated")]
    Corrupt,
    /// The data reads, but describes something the rules do not allow.
    #[error("the save holds an impossible game: {0}")]
    Illegal(String),
}

impl Format {
    /// The format with `magic`, writing `version` (and reading 1 to `version`); `game`
    /// names the game in error messages.
    pub const fn new(magic: [u8; 4], version: u16, game: &'static str) -> Format {
        Format {
            magic,
            version,
            game,
        }
    }

    /// The magic bytes.
    pub const fn magic(&self) -> [u8; 4] {
        self.magic
    }

    /// The version this format writes, and the newest it reads.
    pub const fn version(&self) -> u16 {
        self.version
    }

    /// The game's name, as error messages give it.
    pub const fn game(&self) -> &'static str {
        self.game
    }

    /// The header followed by `body` in postcard.
    ///
    /// # Panics
    ///
    /// Only if `body`'s `Serialize` implementation itself fails, which derived
    /// implementations of plain data never do: postcard writing to memory has no other
    /// failure. A failure is never turned into an empty body.
    pub fn encode<T: Serialize + ?Sized>(&self, body: &T) -> Vec<u8> {
        let mut out = Vec::with_capacity(64);
        out.extend_from_slice(&self.magic);
        out.extend_from_slice(&self.version.to_le_bytes());
        match postcard::to_extend(body, out) {
            Ok(out) => out,
            Err(err) => panic!("a {} save could not be encoded: {err}", self.game),
        }
    }

    /// Checks the header and returns the version found and the body after it.
    pub fn read_header<'a>(&self, bytes: &'a [u8]) -> Result<(u16, &'a [u8]), LoadError> {
        let Some(rest) = bytes.strip_prefix(&self.magic) else {
            return Err(LoadError::NotASave { game: self.game });
        };
        let [v0, v1, body @ ..] = rest else {
            return Err(LoadError::Corrupt);
        };
        let version = u16::from_le_bytes([*v0, *v1]);
        if version > self.version {
            return Err(LoadError::NewerVersion {
                game: self.game,
                found: version,
                supported: self.version,
            });
        }
        if version == 0 {
            return Err(LoadError::Corrupt);
        }
        Ok((version, body))
    }

    /// Reads a whole save: the header, then a body that must decode exactly, with no byte
    /// left over. Returns the version found with the body, for formats that read older
    /// versions differently.
    pub fn decode<T: DeserializeOwned>(&self, bytes: &[u8]) -> Result<(u16, T), LoadError> {
        let (version, body) = self.read_header(bytes)?;
        Ok((version, decode_body(body)?))
    }
}

/// Decodes a postcard body that must use every byte.
pub fn decode_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, LoadError> {
    match postcard::take_from_bytes::<T>(body) {
        Ok((value, [])) => Ok(value),
        _ => Err(LoadError::Corrupt),
    }
}

/// Reads a level from its number (`"3"`) or its name (`"hunt"`, any case): `names[i]` is
/// the name of level `min + i`, and `aliases` adds other accepted names as
/// `(alias, level)`. Returns the level's number.
///
/// ```
/// use tabletop_common::parse_level;
/// let names = ["random", "greedy", "expert"];
/// assert_eq!(parse_level("2", 1, &names, &[]), Some(2));
/// assert_eq!(parse_level(" Expert ", 1, &names, &[]), Some(3));
/// assert_eq!(parse_level("best", 1, &names, &[("best", 3)]), Some(3));
/// assert_eq!(parse_level("4", 1, &names, &[]), None);
/// assert_eq!(parse_level("0", 1, &names, &[]), None);
/// ```
pub fn parse_level(text: &str, min: u8, names: &[&str], aliases: &[(&str, u8)]) -> Option<u8> {
    let text = text.trim();
    let max = usize::from(min) + names.len();
    if let Ok(n) = text.parse::<u8>() {
        return (usize::from(n) >= usize::from(min) && usize::from(n) < max).then_some(n);
    }
    let by_name = names
        .iter()
        .position(|name| name.eq_ignore_ascii_case(text))
        .and_then(|i| u8::try_from(i).ok())
        .map(|i| min + i);
    by_name.or_else(|| {
        aliases
            .iter()
            .find(|(alias, _)| alias.eq_ignore_ascii_case(text))
            .map(|&(_, level)| level)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    const F: Format = Format::new(*b"TTXX", 2, "Test");

    #[test]
    fn round_trip_and_strictness() {
        let body = (7u32, vec![1u8, 2, 3]);
        let bytes = F.encode(&body);
        assert_eq!(&bytes[..6], b"TTXX\x02\x00");
        assert_eq!(
            F.decode::<(u32, alloc::vec::Vec<u8>)>(&bytes),
            Ok((2, body.clone()))
        );
        let mut extra = bytes.clone();
        extra.push(9);
        assert_eq!(F.decode::<(u32, Vec<u8>)>(&extra), Err(LoadError::Corrupt));
        for cut in 0..bytes.len() {
            assert!(
                F.decode::<(u32, Vec<u8>)>(&bytes[..cut]).is_err(),
                "cut {cut}"
            );
        }
    }

    #[test]
    fn header_errors() {
        assert_eq!(
            F.read_header(b"TTYY\x01\x00"),
            Err(LoadError::NotASave { game: "Test" })
        );
        assert_eq!(
            F.read_header(b"TTXX\x03\x00"),
            Err(LoadError::NewerVersion {
                game: "Test",
                found: 3,
                supported: 2
            })
        );
        assert_eq!(F.read_header(b"TTXX\x00\x00"), Err(LoadError::Corrupt));
        assert_eq!(F.read_header(b"TTXX\x01"), Err(LoadError::Corrupt));
        assert_eq!(F.read_header(b"TTXX\x01\x00rest"), Ok((1, &b"rest"[..])));
        let msg = alloc::format!(
            "{}",
            LoadError::NewerVersion {
                game: "Test",
                found: 3,
                supported: 2
            }
        );
        assert_eq!(
            msg,
            "this Test save has format version 3, newer than this program reads (2)"
        );
    }
}
