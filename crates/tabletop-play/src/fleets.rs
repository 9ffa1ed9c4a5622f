//! Checking a battleship table's fleet commitments (docs/protocol.md, "Battleship fleet
//! commitments"): when a fleet is placed the server publishes SHA-256 of a secret salt
//! followed by the fleet; at the end it reveals the salts and both fleets, and anyone can
//! check that the fleets shot at are the ones committed to before the first shot. The one
//! formula and the one check of the server, the terminal client and the browser page.

use alloc::string::ToString;

use battleship_core::Fleet;
use sha2::{Digest, Sha256};

/// The commitment to a fleet: SHA-256 of the seat's salt followed by the fleet as compact
/// JSON with sorted keys (as the final view shows it).
pub fn fleet_commitment(salt: &[u8; 32], fleet: &Fleet) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(salt);
    // A fleet is ships of plain numbers and names: it always serialises.
    let json = serde_json::to_value(fleet).unwrap_or_default();
    hasher.update(json.to_string().as_bytes());
    hasher.finalize().into()
}

/// What [`check_fleets`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FleetCheck {
    /// Every fleet shown (`fleets` of them) is the one committed to, and no commitment
    /// changed since it was first seen.
    Verified {
        /// How many fleets were checked (1 or 2).
        fleets: usize,
    },
    /// No fleet was placed: nothing to check.
    NothingToCheck,
    /// The server has not revealed this seat's salt (or it does not read).
    NoSalt {
        /// The seat.
        seat: u8,
    },
    /// This seat's fleet at the end hashed with its salt is not the published commitment.
    NotCommitted {
        /// The seat.
        seat: u8,
    },
    /// This seat's published commitment is not the one first seen before the first shot.
    Changed {
        /// The seat.
        seat: u8,
    },
}

impl FleetCheck {
    /// Whether the fleets check out.
    pub fn verified(&self) -> bool {
        matches!(self, FleetCheck::Verified { .. })
    }
}

/// Checks the fleets of a finished game: `fleets` as the final view shows them,
/// `published` the commitments and `salts` the salts of the server's last table message,
/// `first_seen` the commitments the client saw before the first shot (`None` where it saw
/// none, which skips that part of the check for the seat).
pub fn check_fleets(
    fleets: &[Option<Fleet>; 2],
    published: &[Option<[u8; 32]>; 2],
    salts: &[Option<[u8; 32]>; 2],
    first_seen: &[Option<[u8; 32]>; 2],
) -> FleetCheck {
    let mut checked = 0;
    for (seat, fleet) in fleets.iter().enumerate() {
        let Some(fleet) = fleet else {
            continue;
        };
        let seat_no = seat as u8;
        let Some(salt) = salts[seat] else {
            return FleetCheck::NoSalt { seat: seat_no };
        };
        if published[seat] != Some(fleet_commitment(&salt, fleet)) {
            return FleetCheck::NotCommitted { seat: seat_no };
        }
        if first_seen[seat].is_some_and(|seen| Some(seen) != published[seat]) {
            return FleetCheck::Changed { seat: seat_no };
        }
        checked += 1;
    }
    if checked == 0 {
        FleetCheck::NothingToCheck
    } else {
        FleetCheck::Verified { fleets: checked }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fleet(seed: u64) -> Fleet {
        battleship_core::UniformFleets::new(&battleship_core::Rules::default()).sample_seeded(seed)
    }

    #[test]
    fn committed_fleets_verify_and_every_change_is_named() {
        let fleets = [Some(fleet(1)), Some(fleet(2))];
        let salts = [Some([7u8; 32]), Some([9u8; 32])];
        let published = [
            Some(fleet_commitment(&[7; 32], fleets[0].as_ref().unwrap())),
            Some(fleet_commitment(&[9; 32], fleets[1].as_ref().unwrap())),
        ];
        let good = check_fleets(&fleets, &published, &salts, &published);
        assert_eq!(good, FleetCheck::Verified { fleets: 2 });
        assert!(good.verified());
        assert_eq!(
            check_fleets(&fleets, &published, &salts, &[None, None]),
            FleetCheck::Verified { fleets: 2 }
        );
        // Another fleet at the end than the one committed to.
        let moved = [Some(fleet(3)), fleets[1].clone()];
        assert_eq!(
            check_fleets(&moved, &published, &salts, &published),
            FleetCheck::NotCommitted { seat: 0 }
        );
        // A wrong salt, a missing one, a commitment that changed in the game.
        let wrong_salt = [salts[0], Some([8; 32])];
        assert_eq!(
            check_fleets(&fleets, &published, &wrong_salt, &published),
            FleetCheck::NotCommitted { seat: 1 }
        );
        assert_eq!(
            check_fleets(&fleets, &published, &[salts[0], None], &published),
            FleetCheck::NoSalt { seat: 1 }
        );
        let earlier = [published[0], Some([0; 32])];
        assert_eq!(
            check_fleets(&fleets, &published, &salts, &earlier),
            FleetCheck::Changed { seat: 1 }
        );
        assert_eq!(
            check_fleets(&[None, None], &published, &salts, &published),
            FleetCheck::NothingToCheck
        );
    }
}
