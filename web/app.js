// The page: loads the WebAssembly bindings, keeps the running game (and saves it in
// localStorage so a reload resumes it), asks the worker for the bots' actions and the
// slow hints, and hands drawing and clicks to the module of the game on show.
import init, * as wasm from './pkg/tabletop_wasm.js';
import { h } from './svg.js';
import reversi from './games/reversi.js';
import nardy from './games/nardy.js';
import battleship from './games/battleship.js';
import sudoku from './games/sudoku.js';

const GAMES = { reversi, nardy, battleship, sudoku };
const CLASSES = {
  reversi: wasm.ReversiTable, nardy: wasm.NardyTable,
  battleship: wasm.BattleshipTable, sudoku: wasm.SudokuTable,
};
const $ = (id) => document.getElementById(id);

// Bytes to base64 and back, for localStorage.
function toBase64(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}
function fromBase64(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// The worker and its pending requests.
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const pending = new Map();
let nextId = 1;
worker.onmessage = (e) => {
  const { id, ok, result, error } = e.data;
  const p = pending.get(id);
  if (!p) return;
  pending.delete(id);
  if (ok) p.resolve(result); else p.reject(error);
};

export const app = {
  wasm,
  name: null, // the game on show
  module: null,
  table: null,
  view: null,
  hints: null, // {version, list} of the game on show
  thinking: null, // the table version a bot thinks about
  botError: null, // {version, seat, text}: the bot that could not act on that version
  settings: JSON.parse(localStorage.getItem('tabletop.settings') || '{}'),

  // A seed for the engines, from the browser's cryptographic generator.
  seed() {
    return crypto.getRandomValues(new BigUint64Array(1))[0];
  },

  // Asks the worker: op 'bot', 'hints' (with the table's bytes) or 'new'.
  ask(op, args = [], bytes = null) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, game: this.name, op, args, bytes });
    });
  },

  // A message for the person (an error unless ok).
  say(text, ok = false) {
    const m = $('message');
    m.textContent = text || '';
    m.className = ok ? 'ok' : '';
  },

  // Runs an action of the person on the table; a refusal is shown, then all is drawn.
  act(fn) {
    if (!this.table) return;
    try {
      fn(this.table);
      this.say('');
    } catch (e) {
      this.say(String(e?.message ?? e));
    }
    this.refresh();
  },

  setting(key, fallback) {
    const v = this.settings[`${this.name}.${key}`];
    return v === undefined ? fallback : v;
  },

  // Draws everything again from the table's view, saves, and lets a bot act.
  refresh() {
    if (!this.table || document.body.dataset.mode === 'online') return;
    this.view = JSON.parse(this.table.view());
    localStorage.setItem(`tabletop.save.${this.name}`, toBase64(this.table.to_bytes()));
    localStorage.setItem('tabletop.last', this.name);
    if (this.hints && this.hints.version !== this.view.version) this.hints = null;
    const v = this.view;
    const failed = this.botFailed(v);
    $('board').replaceChildren();
    $('info').replaceChildren();
    this.module.render(this, v, $('board'), $('info'));
    $('status').textContent = v.ending
      ? `Game over: ${v.result ?? ''}`
      : failed ? 'The bot cannot play (the message below says why): undo, or start a new game'
        : v.bot ? 'The bot is thinking…' : this.module.status(this, v);
    this.drawControls();
    document.body.dataset.state = v.ending ? 'over' : failed ? 'bot-failed' : v.bot ? 'bot' : 'person';
    this.runBot();
  },

  drawControls() {
    const v = this.view;
    const c = $('controls');
    c.replaceChildren(
      h('button', { id: 'new', onclick: () => this.newGame() }, 'New game'),
      h('button', { id: 'undo', disabled: !v.can_undo, onclick: () => this.act((t) => t.undo()) }, 'Undo'),
      h('button', { id: 'redo', disabled: !v.can_redo, onclick: () => this.act((t) => t.redo()) }, 'Redo'),
      h('button', { id: 'resign', disabled: !!v.ending || v.person === null || this.name === 'sudoku', onclick: () => this.act((t) => t.resign()) }, 'Resign'),
      ...this.module.controls(this, v),
    );
  },

  // The bot's failure on view `v` (the seat that could not act), if any.
  botFailed(v) {
    return !v.ending && this.botError?.version === v.version ? this.botError : null;
  },

  // Lets the bot act when one must: its worker thinks on a copy of the table. A bot that
  // failed on this version is not asked again (a new game or an undo asks again).
  runBot() {
    const v = this.view;
    if (!v.bot || this.thinking === v.version || this.botFailed(v)) return;
    const version = v.version;
    const name = this.name;
    this.thinking = version;
    const bytes = this.table.to_bytes();
    const delay = Number(localStorage.getItem('tabletop.botDelay') ?? 250);
    this.ask('bot', [this.seed()], bytes).then((answer) => {
      setTimeout(() => {
        this.thinking = null;
        if (this.name !== name || !this.view || this.view.version !== version || !answer) return;
        const { seat, action } = JSON.parse(answer);
        this.act((t) => t.act(seat, action));
      }, delay);
    }, (err) => {
      this.thinking = null;
      if (this.name !== name || this.view?.version !== version) return;
      this.botError = { version, seat: v.bot.seat, text: String(err) };
      this.say(`The bot failed: ${err}`);
      this.refresh();
    });
  },

  // Asks the worker for the hints of the game on show (the module says how).
  async hint() {
    if (!this.view || this.view.ending || this.view.bot) return;
    if (this.module.hint) {
      const version = this.view.version;
      this.say('Thinking about a hint…', true);
      try {
        const module = this.module;
        const list = await module.hint(this);
        if (this.module !== module || this.view?.version !== version) return;
        this.hints = { version, list };
        this.say('');
      } catch (e) {
        this.say(String(e?.message ?? e));
      }
      this.refresh();
    }
  },

  // Shows `table` (of game `name`) as the running game.
  show(name, table) {
    if (this.table && this.table !== table) this.table.free();
    this.name = name;
    this.module = GAMES[name];
    this.table = table;
    this.hints = null;
    this.thinking = null;
    this.botError = null;
    for (const b of document.querySelectorAll('#games button')) {
      b.classList.toggle('active', b.dataset.game === name);
    }
    document.body.dataset.mode = 'offline';
    this.module.reset?.(this);
    // A game against a bot that needs a file (reversi's weights, nardy's network): the
    // worker may fetch it now, while the person thinks; a failure is the bot's to report
    // when it plays.
    if (this.module.prefetch?.(this, JSON.parse(table.view()))) {
      this.ask('prefetch').catch(() => {});
    }
    this.drawSettings();
    this.refresh();
  },

  // A new game of the game on show with the settings.
  async newGame() {
    const name = this.name;
    try {
      this.say('');
      const table = await this.module.create(this);
      if (this.name === name) this.show(name, table);
      else table.free();
    } catch (e) {
      this.say(String(e?.message ?? e));
    }
  },

  // Switches to game `name`, resuming its saved game when there is one.
  async open(name) {
    const saved = localStorage.getItem(`tabletop.save.${name}`);
    if (saved) {
      try {
        this.show(name, CLASSES[name].load(fromBase64(saved)));
        return;
      } catch (e) {
        this.say(`The saved ${name} game could not be resumed: ${e}`);
      }
    }
    // Nothing is drawn or played until the new game is there.
    if (this.table) this.table.free();
    this.table = null;
    this.view = null;
    this.name = name;
    this.module = GAMES[name];
    await this.newGame();
  },

  drawSettings() {
    const form = $('settings');
    form.replaceChildren();
    for (const f of this.module.settings) {
      const key = `${this.name}.${f.key}`;
      const current = String(this.settings[key] ?? f.value);
      const select = h('select', { name: f.key, id: `setting-${f.key}` },
        f.options.map(([value, label]) => h('option', { value, selected: String(value) === current }, label)));
      select.addEventListener('change', () => {
        this.settings[key] = select.value;
        localStorage.setItem('tabletop.settings', JSON.stringify(this.settings));
        this.refresh();
      });
      form.append(h('label', {}, `${f.label} `, select));
    }
  },

  download() {
    if (!this.table) return;
    const blob = new Blob([this.table.to_bytes()], { type: 'application/octet-stream' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `tabletop-${this.name}.ttpl` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  },

  async openFile(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
      const name = wasm.save_game(bytes);
      this.show(name, CLASSES[name].load(bytes));
      this.say(`Opened ${file.name}: a ${name} game`, true);
    } catch (e) {
      this.say(`Cannot open ${file.name}: ${e}`);
    }
  },
};

function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem('tabletop.theme', theme);
}

async function main() {
  await init();
  window.tabletop = app;
  $('version').textContent = `tabletop-wasm ${wasm.version()}`;
  const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches;
  setTheme(localStorage.getItem('tabletop.theme') || (dark ? 'dark' : 'light'));
  $('theme').onclick = () => setTheme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark');
  $('download').onclick = () => app.download();
  $('open').onchange = (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (file) app.openFile(file);
  };
  // Served by `tabletop serve` (its mark in the page's head): the lobby first, and the
  // games offline a click away. From any other host the page is offline only.
  const served = document.querySelector('meta[name="tabletop-server"]');
  let online = null;
  for (const b of document.querySelectorAll('#games button[data-game]')) {
    b.onclick = () => {
      online?.leave();
      app.open(b.dataset.game);
    };
  }
  document.addEventListener('keydown', (e) => {
    if (document.body.dataset.mode === 'online') return;
    if (e.ctrlKey || e.metaKey || e.altKey || ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName)) return;
    if (app.module?.key?.(app, e)) { e.preventDefault(); return; }
    const k = e.key.toLowerCase();
    if (k === 'u' && app.view?.can_undo) app.act((t) => t.undo());
    else if (k === 'r' && app.view?.can_redo) app.act((t) => t.redo());
    else if (k === 'h') app.hint();
    else if (k === 'n') app.newGame();
    else if (k === 't') $('theme').click();
  });
  const name = new URLSearchParams(location.search).get('game') || localStorage.getItem('tabletop.last') || 'reversi';
  if (served) {
    const { startOnline } = await import('./online.js');
    online = startOnline(app);
    window.tabletopOnline = online;
    $('online').hidden = false;
    $('online').onclick = () => online.enter();
    online.enter();
  } else {
    await app.open(GAMES[name] ? name : 'reversi');
  }
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  app.say(`The app could not start: ${e?.message ?? e}`);
  throw e;
});
