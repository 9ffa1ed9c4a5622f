//! What a game played full screen gives the host ([`GameScreen`]) and what the host lends
//! it during a call ([`Ctx`]): the contract between `tui::app` and the games, in a module of
//! its own so neither imports the other.

use std::time::Instant;

use crossterm::event::Event;
use ratatui::Frame;
use ratatui::layout::Rect;

use super::theme::Theme;

/// Whether a screen should act on `key`: a press or repeat without Ctrl or Alt (those
/// combinations are the host's).
pub fn plain_key(key: &crossterm::event::KeyEvent) -> bool {
    use crossterm::event::{KeyEventKind, KeyModifiers};
    key.kind != KeyEventKind::Release
        && !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

/// Whether an event was used by the screen or should go to the host's own keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handled {
    /// The screen acted on the event (the host redraws).
    Yes,
    /// The screen has no use for it; the host tries its own keys.
    No,
}

/// One setting of a game's menu (level, colour, rules variant …) and its possible values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// What the setting is, e.g. "White".
    pub label: &'static str,
    /// The values, e.g. ["human", "bot: beginner", …].
    pub values: Vec<String>,
    /// Index of the value in force.
    pub current: usize,
}

/// What the host lends a screen during one call: a way to show a message on the status
/// line.
#[derive(Debug, Default)]
pub struct Ctx {
    message: Option<String>,
}

impl Ctx {
    /// Shows `text` on the status line until the next message or key.
    pub fn say(&mut self, text: impl Into<String>) {
        self.message = Some(text.into());
    }

    /// The message set during this call, if any (taken by the host).
    pub fn take_message(&mut self) -> Option<String> {
        self.message.take()
    }
}

/// A game played full screen. The host calls `draw` after every event and tick that
/// changed something.
pub trait GameScreen {
    /// The title line, e.g. "Reversi · Black: you · White: bot (strong)".
    fn title(&self) -> String;
    /// Draws the game into `area` (the screen minus the host's title and status lines).
    /// Remember the rectangles drawn here for mouse hit-testing.
    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme);
    /// Acts on one key or mouse event.
    fn handle(&mut self, event: &Event, ctx: &mut Ctx) -> Handled;
    /// Called about 20 times a second; plays bot moves at a readable pace. Returns true
    /// when the screen must be redrawn.
    fn tick(&mut self, now: Instant, ctx: &mut Ctx) -> bool;
    /// The status line: whose turn, the last move, the score or the clock.
    fn status(&self) -> String;
    /// The game's own keys for the help overlay, as (keys, what they do).
    fn keys(&self) -> Vec<(&'static str, &'static str)>;
    /// The game's settings for the menu.
    fn choices(&self) -> Vec<Choice>;
    /// Sets setting `choice` to value `value` (indices into [`GameScreen::choices`]); says
    /// through `ctx` whether it applies now or from the next game.
    fn choose(&mut self, choice: usize, value: usize, ctx: &mut Ctx);
    /// Starts a new game with the current settings.
    fn new_game(&mut self, ctx: &mut Ctx);
    /// Takes back the last move (or turn) where the game allows it.
    fn undo(&mut self, ctx: &mut Ctx);
    /// Replays the move taken back last.
    fn redo(&mut self, ctx: &mut Ctx);
    /// The game as a save file (the engine's save format).
    fn save(&self) -> Vec<u8>;
    /// Replaces the game by a loaded save; on error the game is unchanged.
    fn load(&mut self, bytes: &[u8]) -> Result<(), String>;
    /// Whether a game is under way that quitting or a new game would throw away (the host
    /// then asks y/n first). The default asks always.
    fn in_progress(&self) -> bool {
        true
    }
    /// Whether the game is played at a server: the host then offers no new game, save,
    /// load or settings (the server keeps the game).
    fn online(&self) -> bool {
        false
    }

    /// The file name the save and load dialogs offer first, in the current folder. The
    /// default is the first word of the title in lower case plus `.save`.
    fn save_name(&self) -> String {
        let title = self.title();
        let word: String = title
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        if word.is_empty() {
            "tabletop.save".to_owned()
        } else {
            format!("{word}.save")
        }
    }
}

/// A screen for a game whose full-screen mode is not built yet.
#[derive(Debug)]
pub struct Placeholder(pub &'static str);

impl GameScreen for Placeholder {
    fn title(&self) -> String {
        self.0.to_owned()
    }
    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let text = ratatui::widgets::Paragraph::new(format!(
            "{}: the full-screen mode is coming; run with --plain",
            self.0
        ))
        .style(theme.dim);
        frame.render_widget(text, area);
    }
    fn handle(&mut self, _event: &Event, _ctx: &mut Ctx) -> Handled {
        Handled::No
    }
    fn tick(&mut self, _now: Instant, _ctx: &mut Ctx) -> bool {
        false
    }
    fn status(&self) -> String {
        String::new()
    }
    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
    fn choices(&self) -> Vec<Choice> {
        Vec::new()
    }
    fn choose(&mut self, _choice: usize, _value: usize, _ctx: &mut Ctx) {}
    fn new_game(&mut self, _ctx: &mut Ctx) {}
    fn undo(&mut self, _ctx: &mut Ctx) {}
    fn redo(&mut self, _ctx: &mut Ctx) {}
    fn save(&self) -> Vec<u8> {
        Vec::new()
    }
    fn load(&mut self, _bytes: &[u8]) -> Result<(), String> {
        Err("not built yet".to_owned())
    }
}
