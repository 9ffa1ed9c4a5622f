//! Colour themes: every screen draws with these roles, never with raw colours, so that
//! `NO_COLOR` (and the monochrome theme) work everywhere.

use ratatui::style::{Color, Modifier, Style};

/// The styles of the drawing roles shared by the four games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Plain text and empty cells.
    pub normal: Style,
    /// Secondary text: coordinates, borders, hints of keys.
    pub dim: Style,
    /// Titles and emphasis.
    pub accent: Style,
    /// The cursor cell.
    pub cursor: Style,
    /// The selected piece or cell.
    pub selected: Style,
    /// Legal targets of the selection (destinations, legal squares).
    pub target: Style,
    /// The last move and what it changed.
    pub last: Style,
    /// Errors, conflicts, illegal placements.
    pub bad: Style,
    /// Success: a solved grid, a sunk ship, a won game.
    pub good: Style,
    /// The first player's pieces (nardy white, reversi black, your fleet).
    pub first: Style,
    /// The second player's pieces.
    pub second: Style,
    /// A light background for marked areas (the row, column and box of sudoku's
    /// cursor); text of any role stays readable on it.
    pub shade: Style,
}

impl Theme {
    /// Colours on a dark terminal background (the default).
    pub fn dark() -> Theme {
        Theme {
            normal: Style::new(),
            dim: Style::new().fg(Color::DarkGray),
            accent: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            cursor: Style::new().bg(Color::Blue).fg(Color::White),
            selected: Style::new().bg(Color::Yellow).fg(Color::Black),
            target: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            last: Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
            bad: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            good: Style::new().fg(Color::Green),
            first: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            second: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            shade: Style::new().bg(Color::DarkGray),
        }
    }

    /// Colours on a light terminal background.
    pub fn light() -> Theme {
        Theme {
            normal: Style::new(),
            dim: Style::new().fg(Color::Gray),
            accent: Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
            cursor: Style::new().bg(Color::Cyan).fg(Color::Black),
            selected: Style::new().bg(Color::Yellow).fg(Color::Black),
            target: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            last: Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
            bad: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            good: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            first: Style::new().fg(Color::Black).add_modifier(Modifier::BOLD),
            second: Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
            shade: Style::new().bg(Color::Gray),
        }
    }

    /// No colours, only bold/reverse/underline: for `NO_COLOR` and monochrome terminals.
    pub fn mono() -> Theme {
        Theme {
            normal: Style::new(),
            dim: Style::new(),
            accent: Style::new().add_modifier(Modifier::BOLD),
            cursor: Style::new().add_modifier(Modifier::REVERSED),
            selected: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            target: Style::new().add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
            last: Style::new().add_modifier(Modifier::BOLD),
            bad: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            good: Style::new().add_modifier(Modifier::BOLD),
            first: Style::new().add_modifier(Modifier::BOLD),
            second: Style::new(),
            // Without colours a shaded area is not drawn differently.
            shade: Style::new(),
        }
    }
}

/// The themes the menu offers, in menu order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeKind {
    /// [`Theme::dark`].
    Dark,
    /// [`Theme::light`].
    Light,
    /// [`Theme::mono`].
    Mono,
}

impl ThemeKind {
    /// Every theme, in menu order.
    pub const ALL: [ThemeKind; 3] = [ThemeKind::Dark, ThemeKind::Light, ThemeKind::Mono];

    /// The theme to start with: monochrome when `NO_COLOR` is set, dark otherwise.
    pub fn from_env() -> ThemeKind {
        if crate::common::no_color() {
            ThemeKind::Mono
        } else {
            ThemeKind::Dark
        }
    }

    /// The styles of this theme.
    pub fn theme(self) -> Theme {
        match self {
            ThemeKind::Dark => Theme::dark(),
            ThemeKind::Light => Theme::light(),
            ThemeKind::Mono => Theme::mono(),
        }
    }

    /// The menu's word for it.
    pub fn name(self) -> &'static str {
        match self {
            ThemeKind::Dark => "dark",
            ThemeKind::Light => "light",
            ThemeKind::Mono => "mono",
        }
    }
}

/// How a line of text in a panel is coloured: one of the theme's text styles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Plain text.
    Normal,
    /// Secondary text.
    Dim,
    /// What asks for attention.
    Accent,
    /// Good news.
    Good,
    /// Bad news.
    Bad,
}

impl Tone {
    /// The style of this tone in `theme`.
    pub fn style(self, theme: &Theme) -> Style {
        match self {
            Tone::Normal => theme.normal,
            Tone::Dim => theme.dim,
            Tone::Accent => theme.accent,
            Tone::Good => theme.good,
            Tone::Bad => theme.bad,
        }
    }
}
