//! Sudoku: a one-seat table; new puzzles by size and difficulty from the engine's
//! generator, digits and pencil marks, the conflicts of the grid, the engine's explained
//! hint, the check against the solution and the puzzle's rating.

use serde_json::{Map, Value, json};
use sudoku_core::logic::generate_level::puzzle_of_level;
use sudoku_core::logic::{Difficulty, Hint, rate};
use sudoku_core::{Digits, Game, GenerateOptions, Grid, Move, Size, symbol_char};
use tabletop_play::sudoku::{self, Input, Score, Sudoku};
use tabletop_play::{Action, Seat, Table};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::table::{person_act, rng, table_methods};

/// How many grids the generator may try for a puzzle of the level asked (as the
/// terminal's `tabletop sudoku`).
const LEVEL_ATTEMPTS: u32 = 2000;

/// A sudoku table for the page.
#[wasm_bindgen]
pub struct SudokuTable {
    table: Table<Sudoku>,
}

table_methods!(SudokuTable, Sudoku);

#[wasm_bindgen]
impl SudokuTable {
    /// A new puzzle of side `side` (4, 6, 9, 16 or 25) and `difficulty` (`easy`,
    /// `medium`, `hard`, `expert`, `extreme`) from `seed`. Slow for big grids and hard
    /// levels: the page asks its worker and takes the table's bytes back.
    #[wasm_bindgen(constructor)]
    pub fn new(side: usize, difficulty: &str, seed: u64) -> Result<SudokuTable, String> {
        let size = Size::from_side(side).ok_or(format!("no sudoku of side {side}"))?;
        let level: Difficulty = difficulty.parse().map_err(|e| format!("{e}"))?;
        let options = GenerateOptions {
            size,
            ..GenerateOptions::default()
        };
        let puzzle = puzzle_of_level(level, &options, LEVEL_ATTEMPTS, &mut rng(seed)).ok_or(
            format!("no {level} {size} puzzle found: try another level or size"),
        )?;
        let game = Game::new(puzzle).map_err(|e| e.to_string())?;
        Ok(SudokuTable::wrap(sudoku::new_table(game)))
    }

    /// Writes `digit` in the cell at `row`, `col` (0-based).
    pub fn enter(&mut self, row: usize, col: usize, digit: u8) -> Result<(), String> {
        self.play(Move::Enter { row, col, digit })
    }

    /// Clears the cell's entry, or its notes when it has none.
    pub fn clear(&mut self, row: usize, col: usize) -> Result<(), String> {
        self.play(Move::Clear { row, col })
    }

    /// Switches the pencil mark `digit` of an empty cell on or off.
    pub fn toggle_note(&mut self, row: usize, col: usize, digit: u8) -> Result<(), String> {
        if digit == 0 || digit > 25 {
            return Err(format!("{digit} is not a digit of this grid"));
        }
        self.play(Move::ToggleNotes {
            row,
            col,
            digits: Digits::single(digit),
        })
    }

    /// Gives every empty cell the notes its filled peers allow.
    pub fn fill_notes(&mut self) -> Result<(), String> {
        self.play(Move::FillNotes)
    }

    /// Fills the grid with the solution (the person gives up).
    pub fn reveal(&mut self) -> Result<(), String> {
        self.play(Move::Solve)
    }

    /// Adds the time spent since the last report, in milliseconds.
    pub fn add_time(&mut self, ms: u32) -> Result<(), String> {
        person_act(&mut self.table, Action::Play(Input::Time(u64::from(ms))))
    }

    /// The engine's next hint as JSON: `{"text", "cells", "placements": [[cell, digit]],
    /// "eliminations": [[cell, digit]], "wrong": cell or null}` (cells row-major).
    pub fn hint(&self) -> Result<String, String> {
        let hint = self.table.game().game().hint().map_err(|e| e.to_string())?;
        let text = hint.to_string();
        let value = match hint {
            Hint::WrongEntry { cell, .. } | Hint::WrongMarks { cell, .. } => json!({
                "text": text, "cells": [cell], "placements": [], "eliminations": [],
                "wrong": cell,
            }),
            Hint::Step(step) => json!({
                "text": text,
                "technique": step.technique.name(),
                "cells": step.cells,
                "placements": step.placements,
                "eliminations": step.eliminations,
                "wrong": null,
            }),
            Hint::Solved => json!({
                "text": text, "cells": [], "placements": [], "eliminations": [], "wrong": null,
            }),
        };
        Ok(value.to_string())
    }

    /// The entries that differ from the solution, as JSON `[[row, col]]`.
    pub fn check(&self) -> String {
        let check = self.table.game().game().check();
        json!(check.wrong).to_string()
    }

    /// The puzzle's rating as JSON: `{"rating": "3.4", "difficulty", "hardest"}`.
    pub fn rating(&self) -> Result<String, String> {
        let r = rate(self.table.game().game().puzzle()).map_err(|e| e.to_string())?;
        Ok(json!({
            "rating": format!("{}.{}", r.tenths / 10, r.tenths % 10),
            "difficulty": r.difficulty.name(),
            "hardest": r.hardest.map(|t| t.name()),
        })
        .to_string())
    }
}

impl SudokuTable {
    fn wrap(table: Table<Sudoku>) -> SudokuTable {
        SudokuTable { table }
    }

    fn play(&mut self, mv: Move) -> Result<(), String> {
        person_act(&mut self.table, Action::Play(Input::Move(mv)))
    }

    fn bot_choice(
        &self,
        _seat: Seat,
        _level: u8,
        _seed: u64,
    ) -> Result<Option<Action<Input>>, String> {
        Ok(None)
    }

    fn describe(&self, map: &mut Map<String, Value>) {
        let game = self.table.game().game();
        let n = game.size().side();
        let notes: Vec<u32> = (0..n * n)
            .map(|i| game.notes(i / n, i % n).bits())
            .collect();
        grid_fields(
            map,
            game.puzzle(),
            game.grid(),
            &notes,
            game.mistakes(),
            game.elapsed().as_millis() as u64,
        );
        if let Some(e) = self.table.ending() {
            map.insert("result".into(), result_text(&e.score).into());
        }
    }
}

/// The grid's part of a sudoku view, offline or online: side, boxes, symbols, the
/// puzzle, the entries, the notes, the cells in conflict, mistakes and time.
pub(crate) fn grid_fields(
    map: &mut Map<String, Value>,
    puzzle: &Grid,
    grid: &Grid,
    notes: &[u32],
    mistakes: u32,
    elapsed_ms: u64,
) {
    let size = grid.size();
    let n = size.side();
    let mut conflicts: Vec<usize> = grid
        .conflicts()
        .iter()
        .flat_map(|c| c.cells.iter().map(|&(r, c)| r * n + c))
        .collect();
    conflicts.sort_unstable();
    conflicts.dedup();
    let symbols: String = (1..=n as u8).map(symbol_char).collect();
    map.insert("side".into(), n.into());
    map.insert("box_rows".into(), size.box_rows().into());
    map.insert("box_cols".into(), size.box_cols().into());
    map.insert("symbols".into(), symbols.into());
    map.insert("puzzle".into(), json!(puzzle.cells()));
    map.insert("grid".into(), json!(grid.cells()));
    map.insert("notes".into(), json!(notes));
    map.insert("conflicts".into(), json!(conflicts));
    map.insert("mistakes".into(), mistakes.into());
    map.insert("elapsed_ms".into(), elapsed_ms.into());
}

/// How a finished puzzle ended, in words.
pub(crate) fn result_text(score: &Score) -> String {
    let secs = score.elapsed_ms / 1000;
    if score.revealed {
        "The solution was revealed".to_string()
    } else {
        format!(
            "Solved in {}:{:02} with {} mistake(s)",
            secs / 60,
            secs % 60,
            score.mistakes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(t: &SudokuTable) -> Value {
        serde_json::from_str(&t.view()).unwrap()
    }

    #[test]
    fn hints_solve_a_small_puzzle_and_mistakes_are_counted() {
        let mut t = SudokuTable::new(4, "easy", 3).unwrap();
        let v = view(&t);
        assert_eq!(v["side"], 4);
        let empty = v["grid"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c == 0)
            .unwrap();
        t.toggle_note(empty / 4, empty % 4, 2).unwrap();
        assert_ne!(view(&t)["notes"][empty], 0);
        let rating: Value = serde_json::from_str(&t.rating().unwrap()).unwrap();
        assert_eq!(rating["difficulty"], "easy");
        while view(&t)["ending"].is_null() {
            let hint: Value = serde_json::from_str(&t.hint().unwrap()).unwrap();
            if let Some(cell) = hint["wrong"].as_u64() {
                t.clear(cell as usize / 4, cell as usize % 4).unwrap();
            }
            for p in hint["placements"].as_array().unwrap() {
                let (cell, digit) = (p[0].as_u64().unwrap() as usize, p[1].as_u64().unwrap());
                t.enter(cell / 4, cell % 4, digit as u8).unwrap();
            }
        }
        assert!(view(&t)["result"].as_str().unwrap().starts_with("Solved"));
        assert_eq!(t.check(), "[]");
        let copy = SudokuTable::load(&t.to_bytes()).unwrap();
        assert_eq!(copy.view(), t.view());
    }
}
