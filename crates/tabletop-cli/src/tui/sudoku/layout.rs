//! Where the sudoku screen's things go: the grid layouts (cell sizes, pencil marks, labels)
//! that fit an area, cell and note places, and the view the mouse reads after a draw.

use ratatui::layout::Rect;
use sudoku_core::Size;

use super::Button;

/// How a cell's pencil marks are drawn. No note ever sits where the cell's digit is drawn
/// (its middle), so that a lone note never reads as an entry, even without colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Notes {
    /// In the layout of a box: digit `d` at the place of the `d`-th cell of a box, with a
    /// space between, on the columns the digit does not use (a 9×9 cell is 3 rows of
    /// "1 2 3  ", its digit in the 4th column).
    Box,
    /// Packed in two rows of this many, the middle of the first row left free for the
    /// digit (a 9×9 cell is "12 34" over "56789").
    Rows(usize),
    /// Not drawn: a cell with notes shows `:` and the panel lists them.
    Marker,
}

/// Where the grid is drawn and how big its cells are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct GridLayout {
    pub(super) n: usize,
    pub(super) box_rows: usize,
    pub(super) box_cols: usize,
    /// The top-left corner of the grid's outer border.
    pub(super) x: usize,
    pub(super) y: usize,
    pub(super) cell_w: usize,
    pub(super) cell_h: usize,
    /// Blank columns between the cells of a box.
    pub(super) gap: usize,
    pub(super) notes: Notes,
    /// Where the row and column numbers go.
    pub(super) labels: Labels,
    /// Without the grid's top and bottom border lines (two rows less, for the 25×25 grid
    /// in a 30-row area): the box lines inside still part the boxes.
    pub(super) bare: bool,
}

/// Where a layout puts the row and column numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Labels {
    /// Row numbers on the left, column numbers on a line above the grid.
    Above,
    /// Row numbers on the left, column numbers inside the top border (a line less).
    InBorder,
    /// None.
    None,
}

impl Labels {
    /// The columns and rows the labels add to the grid.
    pub(super) fn room(self) -> (usize, usize) {
        match self {
            Labels::Above => (3, 1),
            Labels::InBorder => (3, 0),
            Labels::None => (0, 0),
        }
    }
}

impl GridLayout {
    /// The layouts for `size`, largest first, with the grid at the area's corner.
    pub(super) fn candidates(size: Size, area: Rect) -> Vec<GridLayout> {
        let n = size.side();
        let (br, bc) = (size.box_rows(), size.box_cols());
        // Two rows of notes need one slot more than the digits (the digit's own).
        let per_row = n / 2 + 1;
        let styles = [
            (br, 2 * bc + 1, 0, Notes::Box),
            (2, per_row, 1, Notes::Rows(per_row)),
            (1, 3, 0, Notes::Marker),
            (1, 2, 0, Notes::Marker),
        ];
        let variants = [
            (Labels::Above, false),
            (Labels::InBorder, false),
            (Labels::None, false),
            (Labels::None, true),
        ];
        let mut out = Vec::new();
        for (cell_h, cell_w, gap, notes) in styles {
            for (labels, bare) in variants {
                // Two-digit labels need cells at least 3 wide.
                if labels != Labels::None && cell_w < 3 {
                    continue;
                }
                let (lw, lh) = labels.room();
                out.push(GridLayout {
                    n,
                    box_rows: br,
                    box_cols: bc,
                    x: usize::from(area.x) + lw,
                    y: usize::from(area.y) + lh,
                    cell_w,
                    cell_h,
                    gap,
                    notes,
                    labels,
                    bare,
                });
            }
        }
        out
    }

    /// Width of the grid with its borders (not the labels).
    pub(super) fn width(&self) -> usize {
        let boxes = self.n / self.box_cols;
        self.n * self.cell_w + (self.n - boxes) * self.gap + boxes + 1
    }

    pub(super) fn height(&self) -> usize {
        self.framed_height() - 2 * usize::from(self.bare)
    }

    /// The height with the top and bottom border lines, drawn or not.
    pub(super) fn framed_height(&self) -> usize {
        self.n * self.cell_h + self.n / self.box_rows + 1
    }

    /// Width and height with the labels.
    pub(super) fn outer(&self) -> (usize, usize) {
        let (lw, lh) = self.labels.room();
        (self.width() + lw, self.height() + lh)
    }

    pub(super) fn box_width(&self) -> usize {
        self.box_cols * self.cell_w + (self.box_cols - 1) * self.gap + 1
    }

    pub(super) fn cell_x(&self, col: usize) -> usize {
        self.x
            + 1
            + (col / self.box_cols) * self.box_width()
            + (col % self.box_cols) * (self.cell_w + self.gap)
    }

    pub(super) fn cell_y(&self, row: usize) -> usize {
        self.y
            + usize::from(!self.bare)
            + (row / self.box_rows) * (self.box_rows * self.cell_h + 1)
            + (row % self.box_rows) * self.cell_h
    }

    /// The cell drawn at a screen position.
    pub(super) fn cell_at(&self, x: usize, y: usize) -> Option<(usize, usize)> {
        let row =
            (0..self.n).find(|&r| (self.cell_y(r)..self.cell_y(r) + self.cell_h).contains(&y))?;
        let col =
            (0..self.n).find(|&c| (self.cell_x(c)..self.cell_x(c) + self.cell_w).contains(&x))?;
        Some((row, col))
    }

    /// The top-left corner of a cell on the screen (tests read the cell there).
    #[cfg(test)]
    pub(super) fn cell_origin(&self, row: usize, col: usize) -> (usize, usize) {
        (self.cell_x(col), self.cell_y(row))
    }

    /// A cell's width and height.
    #[cfg(test)]
    pub(super) fn cell_size(&self) -> (usize, usize) {
        (self.cell_w, self.cell_h)
    }

    /// Where a cell's digit goes inside it (tests).
    #[cfg(test)]
    pub(super) fn digit_offset(&self) -> (usize, usize) {
        self.digit_place()
    }

    /// Where a cell's digit goes inside it (its middle): (row, column).
    pub(super) fn digit_place(&self) -> (usize, usize) {
        ((self.cell_h - 1) / 2, (self.cell_w - 1) / 2)
    }

    /// Where digit `d`'s note goes inside a cell: (row, column), never the digit's place.
    pub(super) fn note_place(&self, d: u8) -> Option<(usize, usize)> {
        let k = usize::from(d) - 1;
        match self.notes {
            Notes::Box => {
                // The digit is in the middle column, `box_cols`: the notes take the
                // columns of the other parity.
                let first = usize::from(self.box_cols.is_multiple_of(2));
                Some((k / self.box_cols, first + 2 * (k % self.box_cols)))
            }
            Notes::Rows(per_row) => {
                // The slots in reading order, the digit's one skipped.
                let (_, mid) = self.digit_place();
                let slot = if k < mid { k } else { k + 1 };
                Some((slot / per_row, slot % per_row))
            }
            Notes::Marker => None,
        }
    }
}

/// What the last draw put where, for the mouse.
#[derive(Debug, Default)]
pub(super) struct View {
    pub(super) grid: Option<GridLayout>,
    pub(super) buttons: Vec<(Rect, Button)>,
}

impl View {
    /// The cell at a screen position.
    pub(super) fn cell_at(&self, x: u16, y: u16) -> Option<(usize, usize)> {
        self.grid?.cell_at(usize::from(x), usize::from(y))
    }

    /// The button at a screen position.
    pub(super) fn button_at(&self, x: u16, y: u16) -> Option<Button> {
        let p = ratatui::layout::Position::new(x, y);
        self.buttons
            .iter()
            .find(|(r, _)| r.contains(p))
            .map(|&(_, b)| b)
    }

    /// The screen position of the middle of a cell (tests click there).
    #[cfg(test)]
    pub(super) fn cell_point(&self, row: usize, col: usize) -> Option<(u16, u16)> {
        let g = self.grid?;
        let x = g.cell_x(col) + g.cell_w / 2;
        let y = g.cell_y(row) + g.cell_h / 2;
        Some((u16::try_from(x).ok()?, u16::try_from(y).ok()?))
    }

    /// The screen position of a button (tests click there).
    #[cfg(test)]
    pub(super) fn button_point(&self, button: Button) -> Option<(u16, u16)> {
        self.buttons
            .iter()
            .find(|(_, b)| *b == button)
            .map(|(r, _)| (r.x + r.width / 2, r.y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In every layout of every size, no note has the place of the cell's digit, and the
    /// notes of a cell have a place each, inside the cell.
    #[test]
    fn no_note_sits_at_the_digit_place() {
        for size in Size::ALL {
            for g in GridLayout::candidates(size, Rect::new(0, 0, 300, 200)) {
                let mut places = Vec::new();
                for d in 1..=size.side() as u8 {
                    let Some(place) = g.note_place(d) else {
                        continue;
                    };
                    assert_ne!(place, g.digit_place(), "{size} {g:?}: note {d}");
                    assert!(
                        place.0 < g.cell_h && place.1 < g.cell_w,
                        "{size} {g:?}: {d}"
                    );
                    assert!(!places.contains(&place), "{size} {g:?}: {d}");
                    places.push(place);
                }
            }
        }
    }
}
