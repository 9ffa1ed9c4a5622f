//! Game analysis: every turn of a game compared with the best turn a search finds.

use alloc::vec::Vec;

use crate::ai::eval::Evaluator;
use crate::ai::search::Search;
use crate::dice::Dice;
use crate::game::Game;
use crate::movegen::Move;
use crate::position::{Color, Position};

/// One turn of an analysed game.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysedTurn {
    /// The turn's number in the game, from 1.
    pub number: usize,
    /// Who played.
    pub color: Color,
    /// The position before the turn.
    pub position: Position,
    /// The dice.
    pub dice: Dice,
    /// The turn played.
    pub played: Move,
    /// The best turn the search found.
    pub best: Move,
    /// The equity of the turn played, for its player.
    pub played_equity: f32,
    /// The equity of the best turn.
    pub best_equity: f32,
    /// Equity lost by the turn played (0 when it was the best; never negative).
    pub loss: f32,
    /// How many legal turns there were (1: the turn was forced).
    pub choices: usize,
}

/// A whole game, turn by turn.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GameAnalysis {
    /// Every turn, in order.
    pub turns: Vec<AnalysedTurn>,
}

impl GameAnalysis {
    /// The total equity lost by `color`.
    pub fn lost(&self, color: Color) -> f32 {
        self.turns
            .iter()
            .filter(|t| t.color == color)
            .map(|t| t.loss)
            .sum()
    }

    /// The turns of `color` that were not forced.
    pub fn decisions(&self, color: Color) -> usize {
        self.turns
            .iter()
            .filter(|t| t.color == color && t.choices > 1)
            .count()
    }

    /// The turns that lost equity, the worst first (ties in game order).
    pub fn worst(&self) -> Vec<&AnalysedTurn> {
        let mut v: Vec<&AnalysedTurn> = self.turns.iter().filter(|t| t.loss > 0.0).collect();
        v.sort_by(|a, b| b.loss.total_cmp(&a.loss));
        v
    }
}

/// Analyses every turn of `game` (from its saved history) with `search`: the best turn
/// at the search's depth, and the turn played valued at the same depth, so the loss
/// compares like with like.
pub fn analyse_game<E: Evaluator>(game: &Game, search: &mut Search<E>) -> GameAnalysis {
    let mut position = *game.initial_position();
    let rules = *game.rules();
    let mut turns = Vec::new();
    for (i, record) in game.history().iter().enumerate() {
        let ranked = search.rank(&position, record.dice);
        let mut after = position;
        after
            .play(record.dice, &record.mv, &rules)
            .expect("a game's history is legal");
        let best = ranked.first().expect("a roll always has a turn");
        let played_equity = match ranked.iter().find(|r| r.position == after) {
            Some(r) if r.plies == best.plies => r.equity,
            _ => search.value_of_move(&after, best.plies).equity(&rules),
        };
        let loss = (best.equity - played_equity).max(0.0);
        turns.push(AnalysedTurn {
            number: i + 1,
            color: record.color,
            position,
            dice: record.dice,
            played: record.mv.clone(),
            best: best.mv.clone(),
            played_equity,
            best_equity: best.equity,
            loss,
            choices: ranked.len(),
        });
        position = after;
    }
    GameAnalysis { turns }
}
