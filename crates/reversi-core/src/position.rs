//! The position: two bitboards and the side to move, its moves and its notation.

use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::bitboard;
use crate::{Color, Move, MoveList, Outcome, PlayError, Square, SquareSet, Symmetry};

/// Why two bitboards do not make a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A square holds discs of both sides.
    #[error("{0} holds a disc of each colour")]
    Overlap(Square),
}

/// Why a board string (OBF) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseBoardError {
    /// The board part does not have 64 squares.
    #[error("a board has 64 squares, this one has {0}")]
    WrongLength(usize),
    /// A character that is not a disc or an empty square.
    #[error(
        "'{found}' at {square} is not a square: use X (or *) for black, O for white, - (or .) for empty"
    )]
    BadSquare {
        /// Where the character is.
        square: Square,
        /// The character.
        found: char,
    },
    /// No side to move after the board.
    #[error("the side to move (X or O) is missing after the board")]
    MissingSide,
    /// The side to move is not `X` or `O`.
    #[error("'{0}' is not a side to move: use X (black) or O (white)")]
    BadSide(String),
    /// Extra text after the side to move that is not a `;` annotation.
    #[error("unexpected text '{0}' after the side to move (annotations start with ';')")]
    Trailing(String),
}

/// A position: the discs of the side to move, the discs of its opponent, and which
/// colour is to move.
///
/// The two bitboards are all a search needs: [`Position::player`] is always the side to
/// move, so a search can carry just the `(player, opponent)` pair (16 bytes per node;
/// the colour follows from the ply parity) and use [`bitboard::legal_moves`] and
/// [`bitboard::flips`] directly, or copy whole positions ([`Position::make_move`],
/// [`Position::play_unchecked`]). Every position value holds disjoint bitboards.
///
/// ```
/// use reversi_core::{Color, Move, Position};
///
/// let mut pos = Position::start();
/// assert_eq!(pos.side_to_move(), Color::Black);
/// let flipped = pos.play("f5".parse()?)?;
/// assert_eq!(flipped.len(), 1);
/// assert_eq!(pos.count(Color::Black), 4);
/// assert_eq!(pos.to_string(), "---------------------------OX------XXX-------------------------- O");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawPosition")]
pub struct Position {
    player: u64,
    opponent: u64,
    turn: Color,
}

/// The serialised form, validated on the way in.
#[derive(Deserialize)]
struct RawPosition {
    player: u64,
    opponent: u64,
    turn: Color,
}

impl TryFrom<RawPosition> for Position {
    type Error = PositionError;

    fn try_from(raw: RawPosition) -> Result<Position, PositionError> {
        Position::new(raw.player, raw.opponent, raw.turn)
    }
}

const START_BLACK: u64 = (1 << 28) | (1 << 35); // e4, d5
const START_WHITE: u64 = (1 << 27) | (1 << 36); // d4, e5

impl Default for Position {
    /// The standard start position, Black to move.
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The standard start position: White on d4 and e5, Black on d5 and e4, Black to
    /// move.
    pub const fn start() -> Position {
        Position::start_with(Color::Black)
    }

    /// The start position with `first` to move.
    pub const fn start_with(first: Color) -> Position {
        match first {
            Color::Black => Position::new_unchecked(START_BLACK, START_WHITE, Color::Black),
            Color::White => Position::new_unchecked(START_WHITE, START_BLACK, Color::White),
        }
    }

    /// The position where `turn` is to move with the discs `player`, against the
    /// discs `opponent`. Fails if a square is in both.
    pub const fn new(player: u64, opponent: u64, turn: Color) -> Result<Position, PositionError> {
        let both = player & opponent;
        if both != 0 {
            match Square::new(both.trailing_zeros() as u8) {
                Some(sq) => return Err(PositionError::Overlap(sq)),
                None => unreachable!(),
            }
        }
        Ok(Position::new_unchecked(player, opponent, turn))
    }

    /// [`Position::new`] without the check; the bitboards must be disjoint (checked only
    /// in debug builds). For search code that builds positions from positions.
    #[inline]
    pub const fn new_unchecked(player: u64, opponent: u64, turn: Color) -> Position {
        debug_assert!(player & opponent == 0);
        Position {
            player,
            opponent,
            turn,
        }
    }

    /// The position from the discs of each colour, `turn` to move.
    pub const fn from_colors(
        black: u64,
        white: u64,
        turn: Color,
    ) -> Result<Position, PositionError> {
        match turn {
            Color::Black => Position::new(black, white, turn),
            Color::White => Position::new(white, black, turn),
        }
    }

    /// The discs of the side to move.
    #[inline]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the side not to move.
    #[inline]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The colour to move.
    #[inline]
    pub const fn side_to_move(&self) -> Color {
        self.turn
    }

    /// The discs of `color`.
    #[inline]
    pub const fn discs(&self, color: Color) -> u64 {
        if color as u8 == self.turn as u8 {
            self.player
        } else {
            self.opponent
        }
    }

    /// Black's discs.
    pub const fn black(&self) -> u64 {
        self.discs(Color::Black)
    }

    /// White's discs.
    pub const fn white(&self) -> u64 {
        self.discs(Color::White)
    }

    /// The empty squares.
    #[inline]
    pub const fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// The number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The number of discs of `color`.
    pub const fn count(&self, color: Color) -> u32 {
        self.discs(color).count_ones()
    }

    /// The disc on `square`, if any.
    pub const fn piece_at(&self, square: Square) -> Option<Color> {
        if self.player & square.bit() != 0 {
            Some(self.turn)
        } else if self.opponent & square.bit() != 0 {
            Some(self.turn.other())
        } else {
            None
        }
    }

    /// The squares where the side to move may place a disc, as a bitboard (for code that
    /// wants the set rather than the list of [`Position::legal_moves`]).
    #[inline]
    pub const fn legal_squares(&self) -> SquareSet {
        SquareSet(bitboard::legal_moves(self.player, self.opponent))
    }

    /// The legal moves: the squares in index order, a lone [`Move::Pass`] if the side to
    /// move must pass, nothing if the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let squares = self.legal_squares();
        if !squares.is_empty() {
            list.extend(squares.iter().map(Move::Place));
        } else if bitboard::legal_moves(self.opponent, self.player) != 0 {
            list.push(Move::Pass);
        }
        list
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Place(sq) => self.legal_squares().contains(sq),
            Move::Pass => self.must_pass(),
        }
    }

    /// The discs a move on `square` would flip (empty if the move is illegal).
    #[inline]
    pub const fn flips(&self, square: Square) -> SquareSet {
        if self.empty() & square.bit() == 0 {
            return SquareSet::EMPTY;
        }
        SquareSet(bitboard::flips(self.player, self.opponent, square.index()))
    }

    /// Whether the side to move has no legal move while its opponent has one.
    pub const fn must_pass(&self) -> bool {
        bitboard::legal_moves(self.player, self.opponent) == 0
            && bitboard::legal_moves(self.opponent, self.player) != 0
    }

    /// Whether neither side can move (this covers a full board and a side without discs).
    #[inline]
    pub const fn is_over(&self) -> bool {
        bitboard::legal_moves(self.player, self.opponent) == 0
            && bitboard::legal_moves(self.opponent, self.player) == 0
    }

    /// The final disc count if the game is over, else `None`.
    pub const fn outcome(&self) -> Option<Outcome> {
        if self.is_over() {
            Some(Outcome {
                black: self.count(Color::Black) as u8,
                white: self.count(Color::White) as u8,
            })
        } else {
            None
        }
    }

    /// The score from the side to move's point of view with the empty squares given to
    /// the side with more discs (the solver's convention, [`Outcome::score`]); it is the
    /// final score when the game is over.
    pub const fn final_score(&self) -> i32 {
        Outcome {
            black: self.count(Color::Black) as u8,
            white: self.count(Color::White) as u8,
        }
        .score(self.turn)
    }

    /// Plays `mv` for the side to move: a disc on a square, or a pass (allowed only when
    /// the side to move has no legal move and the game is not over). Returns the flipped
    /// discs (none for a pass). On an illegal move the position is unchanged and the
    /// error says why.
    pub fn play(&mut self, mv: Move) -> Result<SquareSet, PlayError> {
        let Move::Place(square) = mv else {
            if !self.legal_squares().is_empty() {
                return Err(PlayError::PassNotAllowed);
            }
            if self.is_over() {
                return Err(PlayError::GameOver);
            }
            self.pass_unchecked();
            return Ok(SquareSet::EMPTY);
        };
        if self.empty() & square.bit() == 0 {
            return Err(PlayError::Occupied(square));
        }
        let flipped = bitboard::flips(self.player, self.opponent, square.index());
        if flipped == 0 {
            return Err(if self.legal_squares().is_empty() {
                if self.is_over() {
                    PlayError::GameOver
                } else {
                    PlayError::MustPass
                }
            } else {
                PlayError::NoFlips(square)
            });
        }
        self.make_move(square, flipped);
        Ok(SquareSet(flipped))
    }

    /// Plays `square` with its precomputed `flipped` discs (from
    /// [`bitboard::flips`]), without any check: for search code. The move must be legal.
    #[inline]
    pub const fn make_move(&mut self, square: Square, flipped: u64) {
        debug_assert!(flipped != 0 && self.empty() & square.bit() != 0);
        let player = self.player | flipped | square.bit();
        self.player = self.opponent ^ flipped;
        self.opponent = player;
        self.turn = self.turn.other();
    }

    /// Plays `square` without checking it is legal (checked in debug builds only):
    /// computes the flips and applies them. For search code.
    #[inline]
    pub const fn play_unchecked(&mut self, square: Square) {
        let flipped = bitboard::flips(self.player, self.opponent, square.index());
        self.make_move(square, flipped);
    }

    /// Passes without checking that the side to move has no move: for search code.
    #[inline]
    pub const fn pass_unchecked(&mut self) {
        let player = self.player;
        self.player = self.opponent;
        self.opponent = player;
        self.turn = self.turn.other();
    }

    /// The position after `mv`, leaving `self` untouched.
    pub fn after(&self, mv: Move) -> Result<Position, PlayError> {
        let mut next = *self;
        next.play(mv)?;
        Ok(next)
    }

    /// The position seen through one of the 8 board symmetries.
    pub const fn transformed(&self, symmetry: Symmetry) -> Position {
        Position::new_unchecked(
            symmetry.apply(self.player),
            symmetry.apply(self.opponent),
            self.turn,
        )
    }

    /// The representative of this position's symmetry class, and the symmetry that maps
    /// `self` onto it: the image with the smallest `(player, opponent)` pair. Positions
    /// that are rotations or mirrors of each other have the same canonical form (for
    /// opening books and hash tables).
    ///
    /// ```
    /// use reversi_core::{Position, Symmetry};
    ///
    /// let mut a = Position::start();
    /// a.play("f5".parse()?)?;
    /// let mut b = Position::start();
    /// b.play("c4".parse()?)?; // f5 turned a half turn
    /// assert_eq!(a.canonical().0, b.canonical().0);
    /// let (canon, sym) = a.canonical();
    /// assert_eq!(a.transformed(sym), canon);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn canonical(&self) -> (Position, Symmetry) {
        let mut best = (*self, Symmetry::Identity);
        for s in Symmetry::ALL {
            let image = self.transformed(s);
            if (image.player, image.opponent) < (best.0.player, best.0.opponent) {
                best = (image, s);
            }
        }
        best
    }
}

impl fmt::Display for Position {
    /// The OBF board string: 64 characters `X`, `O`, `-` from a1 to h8, a space, the side
    /// to move `X` or `O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for sq in Square::ALL {
            f.write_char(match self.piece_at(sq) {
                Some(c) => c.letter(),
                None => '-',
            })?;
        }
        write!(f, " {}", self.turn.letter())
    }
}

impl FromStr for Position {
    type Err = ParseBoardError;

    /// Reads an OBF board string: 64 characters from a1 to h8 (`X` or `*` black, `O`
    /// white, `-` or `.` empty; letters in either case), whitespace, then `X` or `O` to
    /// move. Anything after a `;` is an annotation and is ignored.
    fn from_str(s: &str) -> Result<Position, ParseBoardError> {
        let body = s.split(';').next().unwrap_or("");
        let mut parts = body.split_whitespace();
        let board = parts.next().unwrap_or("");
        let n = board.chars().count();
        if n != 64 {
            return Err(ParseBoardError::WrongLength(n));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (sq, ch) in Square::ALL.into_iter().zip(board.chars()) {
            match ch {
                'X' | 'x' | '*' => black |= sq.bit(),
                'O' | 'o' => white |= sq.bit(),
                '-' | '.' => {}
                found => return Err(ParseBoardError::BadSquare { square: sq, found }),
            }
        }
        let side = parts.next().ok_or(ParseBoardError::MissingSide)?;
        let turn = match side {
            "X" | "x" | "*" => Color::Black,
            "O" | "o" => Color::White,
            other => return Err(ParseBoardError::BadSide(other.into())),
        };
        if let Some(extra) = parts.next() {
            return Err(ParseBoardError::Trailing(extra.into()));
        }
        // Each square was read once, so the two bitboards are disjoint.
        Ok(match turn {
            Color::Black => Position::new_unchecked(black, white, turn),
            Color::White => Position::new_unchecked(white, black, turn),
        })
    }
}
