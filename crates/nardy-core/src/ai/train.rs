//! Self-play training of the [`Network`] with TD(λ), without I/O: the caller saves the
//! checkpoints.

use alloc::sync::Arc;
use alloc::vec::Vec;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use tabletop_common::{Format, LoadError, decode_body};

use crate::ai::bearoff::{BearoffDb, WithBearoff};
use crate::ai::equity::Probabilities;
use crate::ai::eval::{Evaluator, terminal_probabilities};
use crate::ai::network::{INPUTS, Inputs, MAX_HIDDEN, Network, OUTPUTS};
use crate::ai::search::{Search, SearchConfig};
use crate::dice::{Dice, RollOff};
use crate::movegen::Generator;
use crate::position::Position;
use crate::rules::{Opening, Rules};

/// The checkpoint format: magic `TTNC`, version 3, a postcard [`Trainer`] state. Older
/// versions are read too: version 2 had no [`TrainConfig::target_plies`] (its runs
/// bootstrapped at 0 plies), version 1 no [`TrainConfig::inputs`] either (its networks
/// read [`INPUTS`]).
pub const CHECKPOINT_FORMAT: Format = Format::new(*b"TTNC", 3, "Long Nardy training checkpoint");

/// The settings of a training run. Everything that changes the weights is here, so a
/// checkpoint carries it and a resumed run goes on exactly as the first would have.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// Seeds the initial weights and the dice of every game.
    pub seed: u64,
    /// Hidden units of the network.
    pub hidden: u16,
    /// Learning rate of the gradient steps (cross-entropy on each output).
    pub alpha: f32,
    /// The λ of TD(λ): how far the target of a position looks down the game.
    pub lambda: f32,
    /// The network's input set: [`INPUTS`] (the shipped network's) or
    /// [`INPUTS_V2`](crate::ai::INPUTS_V2) (with the blocking inputs).
    pub inputs: u16,
    /// How deep the values a target bootstraps from are searched: 0, the network's own
    /// value of each position (plain TD(λ)); 1, the average over the 21 rolls of the
    /// best turn at 0 plies, which teaches the network what one more ply would see
    /// (about six times the time per game).
    pub target_plies: u8,
}

/// A version 2 checkpoint: the settings had no target depth.
#[derive(Deserialize)]
struct TrainerV2 {
    seed: u64,
    hidden: u16,
    alpha: f32,
    lambda: f32,
    inputs: u16,
    games: u64,
    network: Network,
}

impl From<TrainerV1> for TrainerV2 {
    /// A version 1 network reads the first input set.
    fn from(v1: TrainerV1) -> TrainerV2 {
        TrainerV2 {
            seed: v1.seed,
            hidden: v1.hidden,
            alpha: v1.alpha,
            lambda: v1.lambda,
            inputs: INPUTS as u16,
            games: v1.games,
            network: v1.network,
        }
    }
}

/// A version 1 checkpoint: the settings had no input set.
#[derive(Deserialize)]
struct TrainerV1 {
    seed: u64,
    hidden: u16,
    alpha: f32,
    lambda: f32,
    games: u64,
    network: Network,
}

impl Default for TrainConfig {
    /// Seed 1, 80 hidden units, α 0.02, λ 0.7, the first input set, targets from the
    /// network's own values.
    fn default() -> TrainConfig {
        TrainConfig {
            seed: 1,
            hidden: 80,
            alpha: 0.02,
            lambda: 0.7,
            inputs: INPUTS as u16,
            target_plies: 0,
        }
    }
}

/// Self-play training by TD(λ) in its forward view (the "λ-return" of each position),
/// which is what TD(λ) with eligibility traces computes when the weights change only
/// between games: each game is played by the current network at 0 plies under the
/// federation rules; after it, every position's target is
/// `G_t = (1 - λ) V(s_{t+1}) + λ G_{t+1}` (seen from the side to move at `t`), ending at
/// the game's exact result, and the network takes one gradient step towards each target
/// in order. A game stops as soon as both sides are bearing off, with the exact race
/// probabilities of the bear-off database as its result, so the network learns the
/// positions the database cannot answer.
///
/// With [`TrainConfig::target_plies`] 1, `V(s)` is not the network's value of `s` but
/// its 1-ply search (every roll, the best turn at 0 plies, exact where the database or
/// the rules know the result), computed with the weights the game was played with.
///
/// Game `g` throws its dice from `ChaCha8Rng::seed_from_u64(seed + g * 0x9E37_79B9_7F4A_7C15)`,
/// and every computation is done in a fixed order in `f32` (with `libm`'s `expf`), so the
/// same settings and number of games give the same weights bit for bit, on any machine,
/// however often the run was stopped and resumed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Trainer {
    config: TrainConfig,
    games: u64,
    network: Network,
    #[serde(skip)]
    db: Option<Arc<BearoffDb>>,
}

impl Trainer {
    /// A fresh run: random weights from the seed.
    pub fn new(config: TrainConfig, db: Arc<BearoffDb>) -> Trainer {
        let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
        Trainer {
            config,
            games: 0,
            network: Network::random_with(
                usize::from(config.inputs),
                usize::from(config.hidden),
                &mut rng,
            ),
            db: Some(db),
        }
    }

    /// The settings.
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// Changes the learning rate of the games still to come (a schedule: a run trained
    /// at 0.02 and then at a smaller rate learns finer differences). The checkpoint keeps
    /// the new rate, so a resumed run goes on with it.
    pub fn set_alpha(&mut self, alpha: f32) {
        self.config.alpha = alpha;
    }

    /// Changes how deep the bootstrap values of the games still to come are searched
    /// (0 or 1, see [`TrainConfig::target_plies`]) and their λ: a network trained by plain
    /// TD(λ) can go on learning from 1-ply values. The checkpoint keeps the new settings.
    pub fn set_targets(&mut self, target_plies: u8, lambda: f32) {
        self.config.target_plies = target_plies.min(1);
        self.config.lambda = lambda;
    }

    /// Games trained so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The current network.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The checkpoint: settings, games played and weights, in [`CHECKPOINT_FORMAT`].
    pub fn to_bytes(&self) -> Vec<u8> {
        CHECKPOINT_FORMAT.encode(self)
    }

    /// Resumes from a checkpoint written by [`Trainer::to_bytes`].
    pub fn from_bytes(bytes: &[u8], db: Arc<BearoffDb>) -> Result<Trainer, LoadError> {
        let (version, body) = CHECKPOINT_FORMAT.read_header(bytes)?;
        let mut t: Trainer = match version {
            1 | 2 => {
                let old: TrainerV2 = if version == 1 {
                    decode_body::<TrainerV1>(body)?.into()
                } else {
                    decode_body(body)?
                };
                Trainer {
                    config: TrainConfig {
                        seed: old.seed,
                        hidden: old.hidden,
                        alpha: old.alpha,
                        lambda: old.lambda,
                        inputs: old.inputs,
                        target_plies: 0,
                    },
                    games: old.games,
                    network: old.network,
                    db: None,
                }
            }
            _ => decode_body(body)?,
        };
        // Re-check the network as a weights file would be.
        t.network = Network::from_bytes(&t.network.to_bytes())?;
        if t.network.hidden() != usize::from(t.config.hidden)
            || t.network.inputs() != usize::from(t.config.inputs)
        {
            return Err(LoadError::Illegal(
                "the network does not match its settings".into(),
            ));
        }
        t.db = Some(db);
        Ok(t)
    }

    fn db(&self) -> &BearoffDb {
        self.db
            .as_deref()
            .expect("a trainer always has its database")
    }

    /// Plays one self-play game and learns from it; returns the number of positions
    /// learnt.
    pub fn train_game(&mut self) -> usize {
        let rules = Rules::default();
        let mut rng = ChaCha8Rng::seed_from_u64(
            self.config
                .seed
                .wrapping_add(self.games.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        );
        let roll = RollOff::roll(&mut rng);
        let mut position = Position::start().with_side_to_move(roll.winner());
        let mut dice = match rules.opening {
            Opening::RollOff => roll.dice(),
            Opening::Reroll => Dice::roll(&mut rng),
        };
        let mut states: Vec<(Inputs, [f32; OUTPUTS])> = Vec::new();
        let mut positions = Vec::new();
        let mut generator = Generator::new();
        let mut kids = Vec::new();
        let result = loop {
            if let Some(r) = self.db().race_probabilities(&position) {
                break r;
            }
            let x = self.network.encode(&position);
            let v = self.network.forward(&x);
            states.push((x, v));
            if self.config.target_plies > 0 {
                positions.push(position);
            }
            kids.clear();
            generator.children(&position, dice, &rules, &mut kids);
            let mut best = (f32::NEG_INFINITY, 0);
            for (i, k) in kids.iter().enumerate() {
                let e = self.value(k).flip().equity(&rules);
                if e > best.0 {
                    best = (e, i);
                }
            }
            position = kids[best.1];
            dice = Dice::roll(&mut rng);
        };
        if self.config.target_plies > 0 {
            // The values to bootstrap from, searched with the weights the game was played
            // with (the steps come after).
            let db = self.db.clone().expect("a trainer always has its database");
            let evaluator = WithBearoff {
                db,
                inner: &self.network,
            };
            let mut search = Search::new(evaluator, rules, SearchConfig::plies(1));
            for ((_, v), p) in states.iter_mut().zip(&positions) {
                *v = search.value_of_position(p, 1).to_array();
            }
        }
        // λ-returns, from the last position back; each seen from its own side to move.
        let lambda = self.config.lambda;
        let mut next_value = result.to_array();
        let mut next_return = next_value;
        let mut targets = Vec::with_capacity(states.len());
        for (_, v) in states.iter().rev() {
            let mut g = [0f32; OUTPUTS];
            for o in 0..OUTPUTS {
                g[o] = (1.0 - lambda) * next_value[o] + lambda * next_return[o];
            }
            let g = Probabilities::from_array(g).flip().to_array();
            targets.push(g);
            next_value = *v;
            next_return = g;
        }
        targets.reverse();
        for ((x, _), t) in states.iter().zip(&targets) {
            self.step(x, t);
        }
        self.games += 1;
        states.len()
    }

    /// The value the player sees for a position: exact where known, else the network.
    fn value(&self, p: &Position) -> Probabilities {
        terminal_probabilities(p)
            .or_else(|| self.db().race_probabilities(p))
            .unwrap_or_else(|| self.network.evaluate(p))
    }

    /// One gradient step of the cross-entropy of every output towards `target`.
    fn step(&mut self, x: &Inputs, target: &[f32; OUTPUTS]) {
        let net = &mut self.network;
        let n = net.hidden();
        let alpha = self.config.alpha;
        let mut h = [0f32; MAX_HIDDEN];
        net.hidden_layer(x, &mut h);
        let y = net.output_layer(&h);
        let mut delta_out = [0f32; OUTPUTS];
        for o in 0..OUTPUTS {
            delta_out[o] = target[o] - y[o];
        }
        let mut delta_h = [0f32; MAX_HIDDEN];
        for j in 0..n {
            let mut s = 0.0;
            for (o, d) in delta_out.iter().enumerate() {
                s += d * net.w2[o * n + j];
            }
            delta_h[j] = s * h[j] * (1.0 - h[j]);
        }
        for (o, d) in delta_out.iter().enumerate() {
            let row = &mut net.w2[o * n..(o + 1) * n];
            for (w, a) in row.iter_mut().zip(&h[..n]) {
                *w += alpha * d * a;
            }
            net.b2[o] += alpha * d;
        }
        for &(i, v) in x {
            let row = &mut net.w1[usize::from(i) * n..(usize::from(i) + 1) * n];
            for (w, d) in row.iter_mut().zip(&delta_h[..n]) {
                *w += alpha * d * v;
            }
        }
        for (b, d) in net.b1.iter_mut().zip(&delta_h[..n]) {
            *b += alpha * d;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::bearoff::tests::db;

    #[test]
    fn training_is_reproducible_and_resumable() {
        let config = TrainConfig {
            hidden: 8,
            ..TrainConfig::default()
        };
        let mut a = Trainer::new(config, db().clone());
        for _ in 0..3 {
            assert!(a.train_game() > 10);
        }
        let mut b = Trainer::new(config, db().clone());
        b.train_game();
        let saved = b.to_bytes();
        let mut c = Trainer::from_bytes(&saved, db().clone()).unwrap();
        c.train_game();
        c.train_game();
        assert_eq!(c.games(), 3);
        assert_eq!(c.network(), a.network());
        assert!(Trainer::from_bytes(&saved[..saved.len() - 2], db().clone()).is_err());
    }

    #[test]
    fn one_ply_targets_train_reproducibly_and_resume_and_differ_from_td() {
        let config = TrainConfig {
            hidden: 8,
            ..TrainConfig::default()
        };
        let mut td = Trainer::new(config, db().clone());
        let mut searched = Trainer::new(config, db().clone());
        searched.set_targets(1, 0.0);
        assert_eq!(searched.config().target_plies, 1);
        td.train_game();
        searched.train_game();
        assert_ne!(searched.network(), td.network());
        // the settings travel in the checkpoint: a resumed run goes on as the first
        let mut resumed = Trainer::from_bytes(&searched.to_bytes(), db().clone()).unwrap();
        assert_eq!(resumed.config(), searched.config());
        searched.train_game();
        resumed.train_game();
        assert_eq!(resumed.network(), searched.network());
        // a depth above 1 is taken as 1
        searched.set_targets(5, 0.5);
        assert_eq!(
            (searched.config().target_plies, searched.config().lambda),
            (1, 0.5)
        );
    }

    #[test]
    fn a_version_2_checkpoint_resumes_with_td_targets() {
        #[derive(Serialize)]
        struct V2<'a> {
            seed: u64,
            hidden: u16,
            alpha: f32,
            lambda: f32,
            inputs: u16,
            games: u64,
            network: &'a Network,
        }
        let config = TrainConfig {
            hidden: 8,
            inputs: crate::ai::INPUTS_V2 as u16,
            ..TrainConfig::default()
        };
        let mut a = Trainer::new(config, db().clone());
        a.train_game();
        let v2 = V2 {
            seed: config.seed,
            hidden: config.hidden,
            alpha: config.alpha,
            lambda: config.lambda,
            inputs: config.inputs,
            games: a.games(),
            network: a.network(),
        };
        let bytes = Format::new(*b"TTNC", 2, "Long Nardy training checkpoint").encode(&v2);
        let mut b = Trainer::from_bytes(&bytes, db().clone()).unwrap();
        assert_eq!(b.config(), a.config());
        assert_eq!(b.config().target_plies, 0);
        a.train_game();
        b.train_game();
        assert_eq!(a.network(), b.network());
    }

    #[test]
    fn the_second_input_set_trains_and_resumes_and_old_checkpoints_still_load() {
        let config = TrainConfig {
            hidden: 8,
            inputs: crate::ai::INPUTS_V2 as u16,
            ..TrainConfig::default()
        };
        let mut a = Trainer::new(config, db().clone());
        a.train_game();
        assert_eq!(a.network().inputs(), crate::ai::INPUTS_V2);
        let mut b = Trainer::from_bytes(&a.to_bytes(), db().clone()).unwrap();
        a.train_game();
        b.train_game();
        assert_eq!(a.network(), b.network());

        // a version 1 checkpoint: the same body without the input set
        #[derive(Serialize)]
        struct V1<'a> {
            seed: u64,
            hidden: u16,
            alpha: f32,
            lambda: f32,
            games: u64,
            network: &'a Network,
        }
        let old = Trainer::new(
            TrainConfig {
                hidden: 8,
                ..TrainConfig::default()
            },
            db().clone(),
        );
        let c = old.config;
        let v1 = V1 {
            seed: c.seed,
            hidden: c.hidden,
            alpha: c.alpha,
            lambda: c.lambda,
            games: 7,
            network: old.network(),
        };
        let bytes = Format::new(*b"TTNC", 1, "Long Nardy training checkpoint").encode(&v1);
        let read = Trainer::from_bytes(&bytes, db().clone()).unwrap();
        assert_eq!(read.games(), 7);
        assert_eq!(read.config(), &old.config);
        assert_eq!(read.network(), old.network());
        // a v2 network under v1 settings does not match them
        let mismatched = V1 {
            network: a.network(),
            ..v1
        };
        let bytes = Format::new(*b"TTNC", 1, "Long Nardy training checkpoint").encode(&mismatched);
        assert!(Trainer::from_bytes(&bytes, db().clone()).is_err());
    }
}
