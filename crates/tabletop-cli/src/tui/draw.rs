//! Small drawing helpers shared by the host and the screens: they clip to the area, so a
//! drawing never panics at any size.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Clear};

use super::theme::Theme;

/// Writes `text` from (`x`, `y`) in `style`, one character a cell, clipped to `area` (and
/// to the buffer) on every side: the characters outside are skipped, the others drawn
/// where they would be. Returns the column after the text, drawn whole or not. The one
/// text-drawing helper of the host and the screens.
pub fn put(buf: &mut Buffer, area: Rect, x: u16, y: u16, text: &str, style: Style) -> u16 {
    let end = x.saturating_add(width(text));
    let area = area.intersection(buf.area);
    if y < area.top() || y >= area.bottom() || end <= area.left() || x >= area.right() {
        return end;
    }
    let skip = usize::from(area.left().saturating_sub(x));
    let start = x.max(area.left());
    let shown: String = text.chars().skip(skip).collect();
    buf.set_stringn(start, y, shown, usize::from(area.right() - start), style);
    end
}

/// Paints the style of every cell of `rect` that lies inside `area`.
pub fn paint(buf: &mut Buffer, area: Rect, rect: Rect, style: Style) {
    buf.set_style(rect.intersection(area).intersection(buf.area), style);
}

/// A `width`×`height` rectangle centred in `area`, shrunk to fit.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// Whether the cell (`column`, `row`) of the screen lies in `rect`.
pub fn hit(rect: Rect, column: u16, row: u16) -> bool {
    rect.contains(Position::new(column, row))
}

/// The number of terminal cells `text` takes (characters; the games draw no wide ones).
pub fn width(text: &str) -> u16 {
    u16::try_from(text.chars().count()).unwrap_or(u16::MAX)
}

/// Clears `rect` and draws a dim border round it with `title` in the accent style (the
/// host's menus, help and dialogs); returns the inside, `side` cells in from the left and
/// right edges and `top` and `bottom` rows in.
pub fn framed(
    frame: &mut Frame,
    rect: Rect,
    title: &str,
    theme: &Theme,
    (side, top, bottom): (u16, u16, u16),
) -> Rect {
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Block::default()
            .borders(Borders::ALL)
            .title(title)
            .border_style(theme.dim)
            .title_style(theme.accent),
        rect,
    );
    Rect::new(
        rect.x + side.min(rect.width),
        rect.y + top.min(rect.height),
        rect.width.saturating_sub(2 * side),
        rect.height.saturating_sub(top + bottom),
    )
}

/// `text` in lines of at most `width` characters, broken between words (a word longer
/// than a line is cut); one empty line for empty text.
pub fn wrap(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let last = lines.last_mut().expect("a line");
        let used = last.chars().count();
        if used > 0 && used + 1 + word.chars().count() > width {
            lines.push(word.chars().take(width).collect());
        } else {
            if used > 0 {
                last.push(' ');
            }
            last.extend(word.chars().take(width - used.min(width)));
        }
    }
    lines
}

/// `text` (a message) on at most `rows` lines of `width` characters, broken between
/// words. Text that needs more lines loses words from its middle, shown as `…`: its first
/// word and its end (the cause an error names) stay. Only a word longer than the room is
/// cut, and then the text ends in `…`.
pub fn fit(text: &str, width: u16, rows: usize) -> Vec<String> {
    let rows = rows.max(1);
    let lines = wrap(text, width);
    if lines.len() <= rows && !cut_a_word(text, &lines) {
        return lines;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    // Keep words[..head] and words[tail..]: as much of the end as can be kept with the first
    // word, then as much of the start as fits with it.
    for tail in 2..words.len() {
        for head in (1..tail).rev() {
            let kept: Vec<&str> = words[..head]
                .iter()
                .chain(std::iter::once(&"…"))
                .chain(&words[tail..])
                .copied()
                .collect();
            let short = kept.join(" ");
            let lines = wrap(&short, width);
            if lines.len() <= rows && !cut_a_word(&short, &lines) {
                return lines;
            }
        }
    }
    // One word longer than all the room: cut it, and say so.
    let mut lines = wrap(text, width);
    lines.truncate(rows);
    if let Some(last) = lines.last_mut() {
        let room = usize::from(width.max(1)) - 1;
        *last = last.chars().take(room).chain(['…']).collect();
    }
    lines
}

/// Whether `wrap` had to cut a word of `text` to make `lines`.
fn cut_a_word(text: &str, lines: &[String]) -> bool {
    let words = |s: &str| s.split_whitespace().map(str::len).sum::<usize>();
    lines.iter().map(|l| words(l)).sum::<usize>() < words(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_clips_on_every_side_and_returns_the_end_of_the_text() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 2));
        let area = Rect::new(2, 0, 5, 1);
        assert_eq!(
            put(&mut buf, area, 0, 0, "abcdefghij", Style::default()),
            10
        );
        assert_eq!(put(&mut buf, area, 3, 1, "xyz", Style::default()), 6);
        let row: String = (0..10).map(|x| buf[(x, 0)].symbol()).collect();
        assert_eq!(row, "  cdefg   ");
        let below: String = (0..10).map(|x| buf[(x, 1)].symbol()).collect();
        assert_eq!(below.trim(), "");
    }

    #[test]
    fn help_descriptions_wrap_between_words() {
        assert_eq!(wrap("take back the step", 9), ["take back", "the step"]);
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(wrap("abcdefgh ij", 4), ["abcd", "ij"]);
    }

    #[test]
    fn fit_never_cuts_a_word_and_keeps_both_ends() {
        let error = "cannot read some/deep/folder/missing.save: No such file or directory \
                     (os error 2)";
        assert_eq!(fit(error, 90, 1), [error]);
        let two = fit(error, 45, 2);
        assert_eq!(two.len(), 2);
        assert_eq!(two.join(" "), error);
        let one = fit(error, 56, 1);
        assert_eq!(one.len(), 1);
        assert!(one[0].chars().count() <= 56, "{one:?}");
        assert!(one[0].starts_with("cannot read"), "{one:?}");
        assert!(
            one[0].ends_with("No such file or directory (os error 2)"),
            "{one:?}"
        );
        for line in fit(error, 20, 2) {
            assert!(line.chars().count() <= 20, "{line}");
            for word in line.split_whitespace() {
                assert!(
                    word == "…" || error.split_whitespace().any(|w| w == word),
                    "{word}"
                );
            }
        }
        assert_eq!(fit("abcdefghij", 5, 1), ["abcd…"]);
    }
}
