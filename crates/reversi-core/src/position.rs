//! The position: two bitboards and the side to move, its moves and its notation.

use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::bitboard;
use crate::{Color, Square, Symmetry};

/// A set of squares as a bitboard (bit `i` = square index `i`), iterable as [`Square`]s
/// in index order.
///
/// ```
/// use reversi_core::{Position, Square};
///
/// let moves = Position::start().legal_moves();
/// assert_eq!(moves.len(), 4);
/// let names: Vec<String> = moves.iter().map(|sq| sq.to_string()).collect();
/// assert_eq!(names, ["d3", "c4", "f5", "e6"]);
/// assert!(moves.contains("f5".parse::<Square>()?));
/// # Ok::<(), reversi_core::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SquareSet(pub u64);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// The bitboard.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The number of squares.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }

    /// The squares in index order (`a1`, `b1`, … `h8`).
    #[inline]
    pub const fn iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareIter;

    fn into_iter(self) -> SquareIter {
        self.iter()
    }
}

/// The squares of a [`SquareSet`], in index order.
#[derive(Clone, Debug)]
pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::new(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareIter {}

/// A move: a disc placed on a square, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Move {
    /// A disc on this square.
    Place(Square),
    /// No move: allowed (and required) only when the side to move has no legal move.
    Pass,
}

impl Move {
    /// The square of a placement, `None` for a pass.
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// Whether this is a pass.
    pub const fn is_pass(self) -> bool {
        matches!(self, Move::Pass)
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Place(sq)
    }
}

impl fmt::Display for Move {
    /// The square name in lowercase (`f5`) or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a move: give a square like f5, or pass")]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads a square name (case-insensitive) or a pass: `pass`, `pa`, `ps` or `--`.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let t = s.trim();
        if ["pass", "pa", "ps", "--"]
            .iter()
            .any(|p| p.eq_ignore_ascii_case(t))
        {
            return Ok(Move::Pass);
        }
        t.parse::<Square>()
            .map(Move::Place)
            .map_err(|_| ParseMoveError(s.into()))
    }
}

/// The legal moves of a position as a list: the squares in index order, or a single
/// [`Move::Pass`] when the side to move must pass, or nothing when the game is over.
///
/// No position has more than 33 legal moves; the capacity leaves room to spare.
pub type MoveList = ArrayVec<Move, 48>;

/// Why a move was refused. The position is left unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The square already holds a disc.
    #[error("{0} is already taken")]
    Occupied(Square),
    /// The disc would not outflank any opposing line.
    #[error("{0} flips nothing: a move must outflank at least one line of opposing discs")]
    NoFlips(Square),
    /// The side to move has no legal move and must pass.
    #[error("there is no legal move: this side must pass")]
    MustPass,
    /// A pass was asked for while a legal move exists.
    #[error("passing is not allowed while a legal move exists")]
    PassNotAllowed,
    /// Neither side can move any more.
    #[error("the game is over")]
    GameOver,
}

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

/// The final count of a finished game (or the current count of any position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// Black discs.
    pub black: u8,
    /// White discs.
    pub white: u8,
}

impl GameResult {
    /// Empty squares left.
    pub const fn empties(&self) -> u8 {
        64 - self.black - self.white
    }

    /// The side with more discs, `None` for a draw.
    pub const fn winner(&self) -> Option<Color> {
        if self.black > self.white {
            Some(Color::Black)
        } else if self.white > self.black {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The raw disc difference from `color`'s point of view.
    pub const fn disc_difference(&self, color: Color) -> i32 {
        let d = self.black as i32 - self.white as i32;
        match color {
            Color::Black => d,
            Color::White => -d,
        }
    }

    /// The tournament score from `color`'s point of view: the disc difference with the
    /// empty squares given to the winner (a draw stays 0).
    pub const fn score(&self, color: Color) -> i32 {
        let d = self.disc_difference(color);
        let e = self.empties() as i32;
        if d > 0 {
            d + e
        } else if d < 0 {
            d - e
        } else {
            0
        }
    }
}

impl fmt::Display for GameResult {
    /// `Black wins 40-24 (+16)`, or `Draw 32-32`; the score in parentheses gives the
    /// empty squares to the winner.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner() {
            Some(c) => write!(
                f,
                "{c} wins {}-{} (+{})",
                self.black,
                self.white,
                self.score(c)
            ),
            None => write!(f, "Draw {}-{}", self.black, self.white),
        }
    }
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

    /// The squares where the side to move may play.
    #[inline]
    pub const fn legal_moves(&self) -> SquareSet {
        SquareSet(bitboard::legal_moves(self.player, self.opponent))
    }

    /// The legal moves as a list: the squares in index order, a lone [`Move::Pass`] if the
    /// side to move must pass, nothing if the game is over.
    pub fn move_list(&self) -> MoveList {
        let mut list = MoveList::new();
        let moves = self.legal_moves();
        if !moves.is_empty() {
            list.extend(moves.iter().map(Move::Place));
        } else if bitboard::legal_moves(self.opponent, self.player) != 0 {
            list.push(Move::Pass);
        }
        list
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Place(sq) => self.legal_moves().contains(sq),
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
    pub const fn is_game_over(&self) -> bool {
        bitboard::legal_moves(self.player, self.opponent) == 0
            && bitboard::legal_moves(self.opponent, self.player) == 0
    }

    /// The disc counts of both colours.
    pub const fn counts(&self) -> GameResult {
        GameResult {
            black: self.count(Color::Black) as u8,
            white: self.count(Color::White) as u8,
        }
    }

    /// The result if the game is over, else `None`.
    pub const fn result(&self) -> Option<GameResult> {
        if self.is_game_over() {
            Some(self.counts())
        } else {
            None
        }
    }

    /// The final score from the side to move's point of view, empties to the winner
    /// (the solver's convention). Meaningful when the game is over.
    pub const fn final_score(&self) -> i32 {
        self.counts().score(self.turn)
    }

    /// Plays a disc on `square` for the side to move, returns the flipped discs. On an
    /// illegal move the position is unchanged and the error says why.
    pub fn play(&mut self, square: Square) -> Result<SquareSet, PlayError> {
        if self.empty() & square.bit() == 0 {
            return Err(PlayError::Occupied(square));
        }
        let flipped = bitboard::flips(self.player, self.opponent, square.index());
        if flipped == 0 {
            return Err(if self.legal_moves().is_empty() {
                if self.is_game_over() {
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

    /// Passes. Allowed only when the side to move has no legal move and the game is not
    /// over.
    pub fn pass(&mut self) -> Result<(), PlayError> {
        if !self.legal_moves().is_empty() {
            return Err(PlayError::PassNotAllowed);
        }
        if self.is_game_over() {
            return Err(PlayError::GameOver);
        }
        self.pass_unchecked();
        Ok(())
    }

    /// Plays a move (a placement or a pass); see [`Position::play`] and
    /// [`Position::pass`].
    pub fn play_move(&mut self, mv: Move) -> Result<SquareSet, PlayError> {
        match mv {
            Move::Place(sq) => self.play(sq),
            Move::Pass => self.pass().map(|()| SquareSet::EMPTY),
        }
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
        next.play_move(mv)?;
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
