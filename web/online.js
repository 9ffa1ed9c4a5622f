// Online play, when the page is served by `tabletop serve`: the lobby (create a table,
// invite by link, join, the public tables, watch), then the table, drawn by the same
// game modules as offline from the server's views (read by wasm.online_view), clicks
// sent as the protocol's `act`. The server decides every rule; the page only shows.
import * as wasm from './pkg/tabletop_wasm.js';
import { h } from './svg.js';
import { Connection } from './net.js';
import reversi from './games/reversi.js';
import nardy from './games/nardy.js';
import battleship from './games/battleship.js';
import sudoku from './games/sudoku.js';

const MODULES = { nardy, reversi, battleship, sudoku };
const TITLES = { nardy: 'Long Nardy', reversi: 'Reversi', battleship: 'Battleship', sudoku: 'Sudoku' };
const SIDES = { nardy: ['White', 'Black'], reversi: ['Black', 'White'], battleship: ['First shooter', 'Second shooter'], sudoku: ['Solver'] };
const LEVELS = { nardy: 6, reversi: 10, battleship: 5, sudoku: 0 };
// The module settings that are rules of the game, and how the server spells them.
const RULES = {
  nardy: { opening: 'opening', scoring: 'scoring', head: 'head_exception', block: 'block_check', tie: 'last_roll_tie' },
  reversi: { first: 'first' },
  battleship: { rules: 'rules' },
  sudoku: { size: 'size' },
};
// The grid sizes the server makes puzzles of (its generator's, without a level).
const SUDOKU_SIDES = ['4', '6', '9'];
const CLOCKS = [['', 'no clock'], ['3+2', '3 min + 2 s'], ['5+0', '5 min'], ['10+5', '10 min + 5 s'], ['30+0', '30 min']];
const CURRENT = 'tabletop.online.table'; // {table, invite} of the table on show
// What the page saw of each table's commitments, to check them at the end: per table
// {commitment (nardy dice), seed (the one this page sent), fleets (battleship)}.
const PROOFS = 'tabletop.online.proofs';

function proofs() {
  try {
    return JSON.parse(localStorage.getItem(PROOFS) || '{}') ?? {};
  } catch {
    return {};
  }
}

// Remembers what the page saw first of a table's commitments (never overwritten).
function remember(table, patch) {
  const all = proofs();
  const mine = all[table] ?? {};
  let changed = false;
  for (const [key, value] of Object.entries(patch)) {
    if (mine[key] === undefined && value !== undefined && value !== null) {
      mine[key] = value;
      changed = true;
    }
  }
  if (!changed) return;
  // Only the last 50 tables are kept.
  const keys = Object.keys(all).filter((k) => k !== table).slice(-49);
  localStorage.setItem(PROOFS, JSON.stringify({ ...Object.fromEntries(keys.map((k) => [k, all[k]])), [table]: mine }));
}
const $ = (id) => document.getElementById(id);

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function startOnline(app) {
  const online = {
    active: false,
    screen: 'lobby', // or 'table'
    table: null, // the id of the table on show
    invite: null,
    seat: null, // ours at that table; null: watching
    status: null, // the table's: open, playing, finished
    seats: [],
    view: null, // the page's view of the table (wasm.online_view)
    raw: null, // the text of the view message it was read from
    version: null, // the last version we have of it
    viewAt: 0, // when the view came (the clock of the seat to act runs from there)
    busy: 0, // how many acts are on their way (a sudoku entry sends its time first)
    next: null, // the rematch table the server announced
    seeded: new Set(),
    tables: [], // the public open tables
    conn: null,
  };

  // What the game modules expect of the app: the view, a refresh, acting on the table.
  const face = {
    wasm,
    online: true,
    table: null, // no table here: the server holds it (sudoku's solution with it)
    get view() { return online.view; },
    // The hint of the view on show (battleship's heat map, from the worker).
    get hints() { return online.hints?.version === online.view?.version ? online.hints : null; },
    get raw() { return online.raw; },
    ask: (op, args) => app.ask(op, args),
    say: (text, ok) => app.say(text, ok),
    setting: (_key, fallback) => fallback,
    refresh: () => online.draw(),
    hint: () => online.hint(),
    seed: () => crypto.getRandomValues(new BigUint64Array(1))[0],
    act: (fn) => online.act(fn),
  };
  // Battleship's placement is kept at the table as the seat's draft: each change is an
  // action computed from the last view (its text, where the draft is).
  const ship = (op, col = 0, row = 0, vertical = false, len = 0, seed = 0n) =>
    online.send(wasm.online_battleship_action(online.raw, op, col, row, vertical, len, seed));
  // The table the modules act on: each call becomes an `act` of the protocol.
  const remote = {
    step: (from, to) => online.send(wasm.online_nardy_step(from, to)),
    play: (square) => online.send(wasm.online_reversi_place(square)),
    play_turn: () => { throw new Error('whole turns are played step by step online'); },
    resign: () => online.send('"resign"'),
    place_ship: (col, row, vertical, len) => ship('place', col, row, vertical, len),
    remove_ship: (col, row) => ship('remove', col, row),
    auto_place: (seed) => ship('auto', 0, 0, false, 0, seed),
    clear_ships: () => ship('clear'),
    confirm_fleet: () => ship('confirm'),
    shoot: (col, row) => ship('shoot', col, row),
    enter: (row, col, digit) => online.send(wasm.online_sudoku_action('enter', row, col, digit, 0)),
    clear: (row, col) => online.send(wasm.online_sudoku_action('clear', row, col, 0, 0)),
    toggle_note: (row, col, digit) => online.send(wasm.online_sudoku_action('note', row, col, digit, 0)),
    fill_notes: () => online.send(wasm.online_sudoku_action('fill_notes', 0, 0, 0, 0)),
    reveal: () => online.send(wasm.online_sudoku_action('reveal', 0, 0, 0, 0)),
    add_time: (ms) => online.send(wasm.online_sudoku_action('time', 0, 0, 0, ms)),
  };

  Object.assign(online, {
    enter() {
      this.active = true;
      document.body.dataset.mode = 'online';
      for (const b of document.querySelectorAll('#games button')) b.classList.toggle('active', b.id === 'online');
      this.draw();
    },

    leave() {
      this.active = false;
      document.body.dataset.mode = 'offline';
    },

    net(text, ok = true) {
      const n = $('net');
      n.hidden = !text;
      n.textContent = text;
      n.className = ok ? 'ok' : 'bad';
    },

    fail(e) {
      app.say(String(e?.message ?? e));
    },

    // A command whose refusal is shown and changes nothing here.
    fire(message) {
      this.conn.fire(message, (e) => this.fail(e));
    },

    onWelcome(welcome, again) {
      document.body.dataset.online = this.screen;
      if (again) {
        // Back after a drop: exactly what was missed (then the view).
        if (this.table) {
          const since = this.version ?? undefined;
          this.conn.request({ type: 'open', table: this.table, since }).then(
            (o) => { this.seat = o.seat; },
            (e) => this.fail(e),
          );
        }
        return;
      }
      if (!this.route()) {
        const saved = JSON.parse(localStorage.getItem(CURRENT) || 'null');
        if (saved?.table) this.openTable(saved.table, saved.invite);
        else this.lobby();
      }
    },

    // Follows an invite (#join=CODE) or watch (#watch=TABLE) link, then takes it out of
    // the address bar; false when the address has neither.
    route() {
      const hash = new URLSearchParams(location.hash.slice(1));
      if (!hash.has('join') && !hash.has('watch')) return false;
      history.replaceState(null, '', location.pathname + location.search);
      if (!this.active) this.enter();
      if (hash.has('join')) this.join({ invite: hash.get('join') }, hash.get('join'));
      else this.openTable(hash.get('watch'), null);
      return true;
    },

    onState(state, detail) {
      if (state === 'open') {
        this.net(`Online as ${this.conn.player}${detail.again ? ' — connected again' : ''}`);
        if (detail.again) app.say('Connected again: the game goes on.', true);
      } else if (state === 'lost') {
        this.net(detail.again
          ? `The connection to the server was lost; reconnecting in ${Math.round(detail.delay / 100) / 10} s… Nothing is lost: the game resumes when the server is back.`
          : `Cannot reach the server; trying again in ${Math.round(detail.delay / 100) / 10} s…`, false);
        if (detail.reason) app.say(detail.reason);
        this.busy = 0;
      } else if (state === 'new_guest') {
        app.say('The server did not know this browser: you are a new guest.');
      }
    },

    onMessage(msg, text) {
      if (msg.type === 'error') {
        this.fail(msg.message || msg.code);
        return;
      }
      if (msg.table !== this.table) return;
      if (msg.type === 'view') {
        try {
          this.view = JSON.parse(wasm.online_view(text));
          this.raw = text;
        } catch (e) {
          this.fail(e);
          return;
        }
        // The view says whose eyes it is for: the seat, or null when watching.
        this.seat = this.view.viewer;
        this.version = this.view.version;
        this.viewAt = performance.now();
        this.draw();
      } else if (msg.type === 'events') {
        this.version = Math.max(this.version ?? 0, msg.version);
      } else if (msg.type === 'table') {
        this.status = msg.status;
        this.seats = msg.seats;
        this.tableMsg = msg;
        this.seen(msg);
        this.seed(msg);
        this.draw();
      } else if (msg.type === 'rematch') {
        this.next = msg.next;
        this.draw();
      }
    },

    // Verified dice: a nardy table asks each person seat for 32 random bytes before the
    // first roll (`dice.seeds[seat]` is null until it is sent).
    seed(msg) {
      const seeds = msg.dice?.seeds;
      if (!Array.isArray(seeds) || this.seat === null || seeds[this.seat] !== null || this.seeded.has(msg.table)) return;
      this.seeded.add(msg.table);
      const seed = hex(crypto.getRandomValues(new Uint8Array(32)));
      remember(msg.table, { seed });
      this.fire({ type: 'seed', table: msg.table, seed });
    },

    // The commitments as first published: the dice's, and each fleet's once placed
    // (before the first shot); the end of the game is checked against these.
    seen(msg) {
      if (msg.dice?.commitment) remember(msg.table, { commitment: msg.dice.commitment });
      if (Array.isArray(msg.commitments)) {
        msg.commitments.forEach((c, i) => { if (c) remember(msg.table, { [`fleet${i}`]: c }); });
      }
    },

    // The check of a finished game's commitments (in Rust: wasm.online_nardy_verify and
    // online_fleet_verify), once per view; null when there is nothing to check yet.
    verdict() {
      const v = this.view;
      const msg = this.tableMsg;
      if (!v?.ending || !msg || msg.table !== this.table) return null;
      const key = `${this.table}@${v.version}@${msg.status}`;
      if (this.checked?.key === key) return this.checked.result;
      const mine = proofs()[this.table] ?? {};
      let result = null;
      try {
        if (v.game === 'nardy' && msg.dice?.server_seed) {
          result = JSON.parse(wasm.online_nardy_verify(this.raw, JSON.stringify(msg.dice), mine.commitment ?? '', this.seat ?? undefined, mine.seed ?? ''));
        } else if (v.game === 'battleship' && Array.isArray(msg.salts)) {
          result = JSON.parse(wasm.online_fleet_verify(this.raw, JSON.stringify(msg), JSON.stringify([mine.fleet0 ?? null, mine.fleet1 ?? null])));
        }
      } catch (e) {
        result = { verified: false, text: `Cannot check: ${e?.message ?? e}` };
      }
      this.checked = { key, result };
      return result;
    },

    lobby() {
      if (this.table) this.fire({ type: 'close', table: this.table });
      localStorage.removeItem(CURRENT);
      Object.assign(this, { screen: 'lobby', table: null, invite: null, seat: null, view: null, version: null, status: null, next: null });
      this.draw();
      this.list();
    },

    list() {
      this.conn.request({ type: 'list' }).then((m) => {
        this.tables = m.tables;
        if (this.screen === 'lobby') this.draw();
      }, (e) => this.fail(e));
    },

    openTable(table, invite) {
      if (this.table && this.table !== table) this.fire({ type: 'close', table: this.table });
      Object.assign(this, { screen: 'table', table, invite, seat: null, view: null, version: null, status: null, next: null, busy: 0, tableMsg: null });
      MODULES.sudoku.reset();
      localStorage.setItem(CURRENT, JSON.stringify({ table, invite }));
      app.say('');
      this.draw();
      this.conn.request({ type: 'open', table }).then((o) => {
        if (this.table !== table) return;
        this.seat = o.seat;
        this.draw();
      }, (e) => {
        this.fail(`Cannot open the table: ${e.message}`);
        if (this.table === table) {
          localStorage.removeItem(CURRENT);
          Object.assign(this, { screen: 'lobby', table: null });
          this.draw();
          this.list();
        }
      });
    },

    join(how, invite) {
      this.conn.request({ type: 'join', ...how }).then((j) => this.openTable(j.table, invite), (e) => {
        this.fail(`Cannot join: ${e.message}`);
        this.lobby();
      });
    },

    create(form) {
      const data = new FormData(form);
      const game = data.get('game');
      const opponent = data.get('opponent');
      const other = opponent === 'open' ? 'open' : { bot: Number(opponent) };
      const seats = game === 'sudoku' ? ['me'] : data.get('side') === '1' ? [other, 'me'] : ['me', other];
      const rules = {};
      for (const f of MODULES[game].settings) {
        const key = RULES[game][f.key];
        if (!key) continue;
        const value = data.get(`rule-${f.key}`) ?? String(f.value);
        rules[key] = value === 'true' ? true : value === 'false' ? false : value;
      }
      if (game === 'reversi') rules.first = rules.first === 'white' ? 'White' : 'Black';
      if (game === 'sudoku') rules.size = Number(rules.size);
      const message = { type: 'create', game, seats, rules: game === 'battleship' ? JSON.parse(wasm.online_battleship_rules(rules.rules)) : rules, public: data.get('public') === 'on' };
      const clock = data.get('clock');
      if (clock) {
        const [minutes, increment] = clock.split('+').map(Number);
        message.clock = { minutes, increment_s: increment };
      }
      this.conn.request(message).then((c) => this.openTable(c.table, c.invite), (e) => this.fail(e));
    },

    // Runs a module's action on the remote table; one at a time.
    act(fn) {
      if (this.busy || !this.view || this.seat === null) return;
      try {
        fn(remote);
      } catch (e) {
        this.fail(e);
      }
      this.draw();
    },

    send(actionJson) {
      const table = this.table;
      this.busy++;
      app.say('');
      const done = () => { this.busy = Math.max(0, this.busy - 1); };
      this.conn.request({ type: 'act', table, action: JSON.parse(actionJson) }).then(done, (e) => {
        done();
        if (this.table === table) this.fail(e);
        this.draw();
      });
    },

    // Asks the game's module for a hint on the view on show (battleship online).
    async hint() {
      const v = this.view;
      const module = v && MODULES[v.game];
      if (!module?.hint || v.game !== 'battleship' || !v.mine || v.ending || v.phase !== 'battle') return;
      const version = v.version;
      app.say('Thinking about a hint…', true);
      try {
        const list = await module.hint(face);
        if (this.view?.version !== version) return;
        this.hints = { version, list };
        app.say('');
      } catch (e) {
        this.fail(e);
      }
      this.draw();
    },

    rematch() {
      this.conn.request({ type: 'rematch', table: this.table }).then((c) => this.openTable(c.table, c.invite), (e) => this.fail(e));
    },

    link(kind, value) {
      return `${location.origin}${location.pathname}#${kind}=${value}`;
    },

    draw() {
      if (!this.active) return;
      document.body.dataset.online = this.screen;
      if (this.screen === 'lobby') this.drawLobby();
      else this.drawTable();
    },

    drawLobby() {
      document.body.dataset.state = 'lobby';
      $('status').textContent = 'Online: play a person over the network, or the server’s bots';
      const game = this.choice ?? 'nardy';
      // A redraw (the public list, a message of the server) keeps what was chosen so far.
      const old = $('create');
      const before = old ? new FormData(old) : null;
      const select = (name, options, current, attrs = {}) => {
        const kept = before?.get(name);
        const value = kept !== null && kept !== undefined && options.some(([v]) => String(v) === kept) ? kept : current;
        return h('select', { name, id: `online-${name}`, ...attrs },
          options.map(([v, label]) => h('option', { value: v, selected: String(v) === String(value) }, label)));
      };
      const opponents = [['open', 'a person (invite link)'], ...Array.from({ length: LEVELS[game] }, (_, i) => [String(i + 1), `the server’s bot, level ${i + 1}`])];
      const options = (f) => (game === 'sudoku' && f.key === 'size' ? f.options.filter(([v]) => SUDOKU_SIDES.includes(v)) : f.options);
      const rules = MODULES[game].settings.filter((f) => RULES[game][f.key])
        .map((f) => h('label', {}, `${f.label} `, select(`rule-${f.key}`, options(f), f.value)));
      // Sudoku is one seat, the page's: no opponent, no side.
      const seatsPart = game === 'sudoku' ? [] : [
        h('label', {}, 'Opponent ', select('opponent', opponents, 'open')),
        h('label', {}, 'You play ', select('side', SIDES[game].map((s, i) => [String(i), s]), '0')),
      ];
      const form = h('form', { id: 'create', class: 'lobby-form' },
        h('h2', {}, 'New table'),
        h('label', {}, 'Game ', select('game', Object.entries(TITLES), game, {
          onchange: (e) => { this.choice = e.target.value; this.draw(); },
        })),
        ...seatsPart,
        ...rules,
        h('label', {}, 'Clock ', select('clock', CLOCKS, '')),
        h('label', {}, h('input', { type: 'checkbox', name: 'public', id: 'online-public', checked: before?.get('public') === 'on' }), ' listed for anyone to join'),
        h('button', { id: 'create-table', type: 'submit' }, 'Create the table'));
      form.addEventListener('submit', (e) => { e.preventDefault(); this.create(form); });
      const code = h('input', { id: 'join-code', placeholder: 'invite code', size: 12, autocomplete: 'off' });
      const join = h('form', { id: 'join', class: 'lobby-form' }, h('h2', {}, 'Join with an invite code'), code,
        h('button', { type: 'submit' }, 'Join'));
      join.addEventListener('submit', (e) => {
        e.preventDefault();
        const invite = code.value.trim().toUpperCase();
        if (invite) this.join({ invite }, invite);
      });
      const rows = this.tables.map((t) => h('li', { 'data-table': t.table },
        `${TITLES[t.game] ?? t.game}${t.clock ? `, clock ${t.clock.minutes} min + ${t.clock.increment_s} s` : ''} — `,
        t.seats.map((s, i) => `${SIDES[t.game]?.[i] ?? `seat ${i}`}: ${s === 'open' ? 'open' : s.bot ? `bot ${s.bot}` : 'a person'}`).join(', '), ' ',
        h('button', { class: 'join-table', disabled: !MODULES[t.game], onclick: () => this.join({ table: t.table }, null) }, 'Join'),
        h('button', { class: 'watch-table', disabled: !MODULES[t.game], onclick: () => this.openTable(t.table, null) }, 'Watch')));
      const list = h('section', { id: 'public', class: 'lobby-form' }, h('h2', {}, 'Public tables'),
        rows.length ? h('ul', { id: 'public-tables' }, rows) : h('p', { class: 'muted' }, 'No public table is waiting for a player.'),
        h('button', { id: 'refresh-list', onclick: () => this.list() }, 'Refresh'));
      $('board').className = 'lobby';
      $('board').replaceChildren(form, h('div', {}, join, list));
      $('info').replaceChildren(h('p', { class: 'muted' }, 'Online sudoku is a 4×4, 6×6 or 9×9 puzzle of the server’s, which anyone may watch; the hints, the check and 16×16 grids are offline.'));
      $('controls').replaceChildren(h('button', { id: 'offline', onclick: () => $('games').querySelector('[data-game]').click() }, 'Play offline'));
    },

    drawTable() {
      const v = this.view;
      const module = v ? MODULES[v.game] : null;
      const board = $('board');
      const info = $('info');
      board.replaceChildren();
      info.replaceChildren();
      if (v && module) module.render(face, v, board, info);
      else board.append(h('p', { class: 'muted' }, 'Opening the table…'));
      const mine = v && !v.ending && v.mine && this.status === 'playing';
      let status;
      if (!v) status = 'Opening the table…';
      else if (v.ending) status = `Game over: ${v.result ?? ''}${v.ending.reason === 'resigned' ? ' (resigned)' : v.ending.reason === 'timeout' ? ' (on time)' : v.ending.reason === 'abandoned' ? ' (the opponent left)' : ''}`;
      else if (this.status === 'open') status = 'Waiting for an opponent: send them the invite link';
      else if (this.seat === null) status = `Watching — ${module.status(face, v)}`;
      else status = `${mine ? 'Your move' : 'The opponent’s move'} — ${module.status(face, v)}`;
      $('status').textContent = status;
      document.body.dataset.state = !v ? 'loading' : v.ending ? 'over' : this.status === 'open' ? 'waiting' : mine ? 'person' : 'remote';
      if (v?.clock_ms) info.prepend(h('p', { id: 'clocks' }, this.clockText()));
      const names = SIDES[v?.game] ?? [];
      if (v) {
        info.prepend(h('p', { id: 'seats' }, this.seats.map((p, i) => `${names[i] ?? `Seat ${i}`}: ${
          i === this.seat ? 'you' : p.bot ? `bot level ${p.bot}` : p === 'open' ? 'open seat' : 'a person'}`).join(' · ')));
      }
      if (this.invite && this.status !== 'finished') {
        info.append(h('p', {}, 'Invite link: ', h('input', { id: 'invite', readonly: true, value: this.link('join', this.invite), size: 34, onclick: (e) => e.target.select() })));
      }
      info.append(h('p', { class: 'muted' }, 'Watch link: ', h('input', { id: 'watch', readonly: true, value: this.link('watch', this.table), size: 34, onclick: (e) => e.target.select() })));
      $('controls').replaceChildren(
        h('button', { id: 'lobby', onclick: () => this.lobby() }, 'Lobby'),
        v?.game === 'sudoku' ? null : h('button', { id: 'resign', disabled: !v || !!v.ending || this.seat === null || this.status !== 'playing', onclick: () => this.act((t) => t.resign()) }, 'Resign'),
        ...(v?.game === 'battleship' && this.seat !== null && !v.ending && v.to_act === 0 ? module.controls(face, v) : []),
        ...(v?.game === 'sudoku' && this.seat !== null && !v.ending ? module.controls(face, v) : []),
        ...(v?.ending && this.seat !== null ? [h('button', { id: 'rematch', onclick: () => this.rematch() }, this.next ? 'Play the rematch' : 'Rematch')] : []),
      );
      if (this.next && v?.ending) info.append(h('p', { id: 'rematch-ready' }, 'A rematch is ready (sides swapped).'));
      const verdict = this.verdict();
      if (verdict) info.prepend(h('p', { id: 'verified', class: verdict.verified ? 'ok' : 'bad' }, verdict.text));
    },

    // Each seat's time left; the seat to act loses what passed since its view came.
    clockText() {
      const v = this.view;
      const names = SIDES[v.game] ?? [];
      const running = v.ending || v.version === 0 ? null : v.seat_to_act;
      return v.clock_ms.map((ms, i) => `${names[i] ?? i} ${mmss(i === running ? ms - (performance.now() - this.viewAt) : ms)}`).join(' · ');
    },
  });

  online.conn = new Connection({
    onWelcome: (w, again) => online.onWelcome(w, again),
    onMessage: (m, text) => online.onMessage(m, text),
    onState: (s, d) => online.onState(s, d),
  });
  // A link followed in an open page (the address changes, the page stays).
  // The game's keys at an online table (digits and arrows for sudoku, as offline).
  document.addEventListener('keydown', (e) => {
    if (!online.active || online.screen !== 'table' || !online.view || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest?.('input, select, textarea')) return;
    if (MODULES[online.view.game]?.key?.(face, e)) e.preventDefault();
    else if (e.key === 'h' || e.key === 'H') online.hint();
  });
  window.addEventListener('hashchange', () => {
    if (online.conn.state === 'open') online.route();
  });
  setInterval(() => {
    const c = $('clocks');
    if (c && online.active && online.view?.clock_ms) c.textContent = online.clockText();
  }, 500);
  online.net('Connecting to the server…');
  online.conn.connect();
  return online;
}
