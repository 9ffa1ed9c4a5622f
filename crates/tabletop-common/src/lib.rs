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

/// The levels of a game's bots: their numbers start at `min`, `names[i]` is the name of
/// level `min + i`, and `aliases` adds other accepted names as `(alias, level)`. Every
/// engine's `ai::Level` reads and names its levels through one of these.
///
/// ```
/// use tabletop_common::LevelNames;
/// const LEVELS: LevelNames = LevelNames::new(1, &["random", "greedy", "expert"], &[("best", 3)]);
/// assert_eq!(LEVELS.parse("2"), Ok(2));
/// assert_eq!(LEVELS.parse(" Expert "), Ok(3));
/// assert_eq!(LEVELS.parse("best"), Ok(3));
/// assert_eq!(LEVELS.name(1), "random");
/// let err = LEVELS.parse("4").unwrap_err();
/// assert_eq!(err.to_string(), "'4' is not a level: give a number from 1 to 3 or a name (random, greedy, expert)");
/// assert!(LEVELS.parse("0").is_err() && LEVELS.parse("").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelNames {
    min: u8,
    names: &'static [&'static str],
    aliases: &'static [(&'static str, u8)],
}

impl LevelNames {
    /// The levels `min ..= min + names.len() - 1` with these names and aliases.
    pub const fn new(
        min: u8,
        names: &'static [&'static str],
        aliases: &'static [(&'static str, u8)],
    ) -> LevelNames {
        LevelNames {
            min,
            names,
            aliases,
        }
    }

    /// The weakest level's number.
    pub const fn min(&self) -> u8 {
        self.min
    }

    /// The strongest level's number.
    pub const fn max(&self) -> u8 {
        self.min + self.names.len() as u8 - 1
    }

    /// The name of level `level` (`""` outside the range).
    pub const fn name(&self, level: u8) -> &'static str {
        if level < self.min || (level - self.min) as usize >= self.names.len() {
            return "";
        }
        self.names[(level - self.min) as usize]
    }

    /// Reads a level from its number (`"3"`) or its name or alias (any case, spaces
    /// around allowed) and returns its number.
    pub fn parse(&self, text: &str) -> Result<u8, ParseLevelError> {
        let trimmed = text.trim();
        let found = match trimmed.parse::<u8>() {
            Ok(n) => (self.min..=self.max()).contains(&n).then_some(n),
            Err(_) => self
                .names
                .iter()
                .zip(self.min..)
                .find(|(name, _)| name.eq_ignore_ascii_case(trimmed))
                .map(|(_, level)| level)
                .or_else(|| {
                    self.aliases
                        .iter()
                        .find(|(alias, _)| alias.eq_ignore_ascii_case(trimmed))
                        .map(|&(_, level)| level)
                }),
        };
        found.ok_or_else(|| ParseLevelError {
            text: trimmed.into(),
            levels: *self,
        })
    }
}

/// Text that names no level of a game's bots.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{text}' is not a level: give a number from {} to {} or a name ({})",
    .levels.min(),
    .levels.max(),
    .levels.names.join(", ")
)]
pub struct ParseLevelError {
    text: String,
    levels: LevelNames,
}

impl ParseLevelError {
    /// The text that was read.
    pub fn text(&self) -> &str {
        &self.text
    }
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
