// Sudoku: select a cell, type or click digits, pencil marks, conflicts highlighted, the
// engine's hint with its reason, a check against the solution, new puzzles by size and
// difficulty (made in the worker).
import { s, h, canvas } from '../svg.js';

let sel = null; // the selected cell (row-major index)
let pencil = false;
let wrong = null; // {version, cells} of the last check
let lastReport = Date.now();
let rating = { table: null, text: '' }; // the puzzle's rating, once per table

// Plays with the table after reporting the time spent since the last report.
function play(app, fn) {
  app.act((t) => {
    const now = Date.now();
    const ms = Math.min(now - lastReport, 3600000);
    lastReport = now;
    if (!app.view.ending && ms > 0) t.add_time(ms);
    fn(t);
  });
}

function type(app, digit) {
  const v = app.view;
  if (sel === null || v.ending || v.puzzle[sel] !== 0) return;
  const [r, c] = [Math.floor(sel / v.side), sel % v.side];
  if (digit === 0) play(app, (t) => t.clear(r, c));
  else if (pencil) play(app, (t) => t.toggle_note(r, c, digit));
  else play(app, (t) => t.enter(r, c, digit));
}

export default {
  settings: [
    { key: 'size', label: 'Size', value: '9', options: [['4', '4×4'], ['6', '6×6'], ['9', '9×9'], ['16', '16×16'], ['25', '25×25']] },
    { key: 'difficulty', label: 'Difficulty', value: 'medium', options: ['easy', 'medium', 'hard', 'expert'].map((d) => [d, d]) },
  ],

  reset() { sel = null; wrong = null; lastReport = Date.now(); },

  async create(app) {
    app.say('Making a puzzle…', true);
    const bytes = await app.ask('new', [Number(app.setting('size', '9')), app.setting('difficulty', 'medium'), app.seed()]);
    app.say('');
    return app.wasm.SudokuTable.load(bytes);
  },

  status(app, v) {
    const filled = v.grid.filter((d) => d !== 0).length;
    return `${filled} of ${v.side * v.side} cells filled · mistakes ${v.mistakes}${pencil ? ' · pencil on' : ''}`;
  },

  controls(app, v) {
    // Online the server keeps the solution: no hint or check against it there.
    if (app.online) {
      return [
        h('button', { id: 'notes', disabled: !!v.ending, onclick: () => play(app, (t) => t.fill_notes()) }, 'Fill notes'),
        h('button', { id: 'reveal', disabled: !!v.ending, onclick: () => play(app, (t) => t.reveal()) }, 'Reveal'),
      ];
    }
    const hint = app.hints?.list;
    return [
      h('button', { id: 'hint', disabled: !!v.ending, onclick: () => app.hint() }, 'Hint'),
      hint && (hint.placements.length || hint.wrong !== null)
        ? h('button', { id: 'apply-hint', onclick: () => this.applyHint(app, hint) }, 'Apply hint') : null,
      h('button', { id: 'check', disabled: !!v.ending, onclick: () => {
        wrong = { version: v.version, cells: JSON.parse(app.table.check()).map(([r, c]) => r * v.side + c) };
        app.say(wrong.cells.length ? `${wrong.cells.length} wrong entr${wrong.cells.length > 1 ? 'ies' : 'y'} marked` : 'No wrong entry so far', !wrong.cells.length);
        app.refresh();
      } }, 'Check'),
      h('button', { id: 'notes', disabled: !!v.ending, onclick: () => play(app, (t) => t.fill_notes()) }, 'Fill notes'),
      h('button', { id: 'reveal', disabled: !!v.ending, onclick: () => play(app, (t) => t.reveal()) }, 'Reveal'),
    ];
  },

  async hint(app) {
    return JSON.parse(app.table.hint());
  },

  applyHint(app, hint) {
    const n = app.view.side;
    if (hint.wrong !== null) play(app, (t) => t.clear(Math.floor(hint.wrong / n), hint.wrong % n));
    for (const [cell, digit] of hint.placements) play(app, (t) => t.enter(Math.floor(cell / n), cell % n, digit));
  },

  key(app, e) {
    const v = app.view;
    if (!v) return false;
    const n = v.side;
    const moves = { ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) {
      sel = sel === null ? 0 : (sel + moves[e.key] + n * n) % (n * n);
      app.refresh();
      return true;
    }
    // P is the pencil, except on 25×25 grids, where it is the 25th symbol.
    if ((e.key === 'p' || e.key === 'P') && n < 25) {
      pencil = !pencil;
      app.refresh();
      return true;
    }
    if (sel === null) return false;
    if (e.key === 'Backspace' || e.key === 'Delete' || e.key === '0') { type(app, 0); return true; }
    const d = v.symbols.indexOf(e.key.toUpperCase()) + 1;
    if (d > 0) { type(app, d); return true; }
    return false;
  },

  render(app, v, board, info) {
    board.className = '';
    const n = v.side;
    const size = 540 / n;
    const svg = canvas(548, 548, 'Sudoku grid');
    svg.append(s('rect', { x: 0, y: 0, width: 548, height: 548, fill: 'var(--panel)' }));
    const hint = app.hints?.list;
    const hinted = new Set(hint ? hint.cells : []);
    const conflicts = new Set(v.conflicts);
    const bad = new Set(wrong && wrong.version === v.version ? wrong.cells : []);
    const [sr, sc] = sel === null ? [-1, -1] : [Math.floor(sel / n), sel % n];
    const box = (r, c) => Math.floor(r / v.box_rows) * v.box_rows + Math.floor(c / v.box_cols);
    const nc = Math.ceil(Math.sqrt(n));
    for (let i = 0; i < n * n; i++) {
      const [r, c] = [Math.floor(i / n), i % n];
      const x = 4 + c * size;
      const y = 4 + r * size;
      const peer = sel !== null && (r === sr || c === sc || box(r, c) === box(sr, sc));
      const cls = ['cell', 'clickable', v.puzzle[i] ? 'given' : '', i === sel ? 'selected' : '', conflicts.has(i) ? 'conflict' : '', bad.has(i) ? 'wrong' : '', hinted.has(i) ? 'hinted' : ''].filter(Boolean).join(' ');
      const g = s('g', { 'data-cell': i, class: cls });
      const fill = i === sel ? 'var(--accent)' : hinted.has(i) ? 'var(--mark)' : peer ? 'var(--sea)' : 'var(--panel)';
      g.append(s('rect', { x, y, width: size, height: size, fill, 'fill-opacity': i === sel ? 0.35 : 1, stroke: 'var(--line)', 'stroke-width': 0.5 }));
      const d = v.grid[i];
      if (d) {
        const color = conflicts.has(i) || bad.has(i) ? 'var(--bad)' : v.puzzle[i] ? 'var(--fg)' : 'var(--accent)';
        g.append(s('text', { x: x + size / 2, y: y + size * 0.7, 'text-anchor': 'middle', 'font-size': size * 0.6, 'font-weight': v.puzzle[i] ? 700 : 400, fill: color }, v.symbols[d - 1]));
      } else if (v.notes[i]) {
        for (let k = 0; k < n; k++) {
          if (!((v.notes[i] >> k) & 1)) continue;
          g.append(s('text', { x: x + ((k % nc) + 0.5) * size / nc, y: y + (Math.floor(k / nc) + 0.8) * size / nc, 'text-anchor': 'middle', 'font-size': size / nc * 0.75, fill: 'var(--muted)', class: 'note' }, v.symbols[k]));
        }
      }
      g.addEventListener('click', () => { sel = i; app.refresh(); });
      svg.append(g);
    }
    for (let k = 0; k <= n; k++) {
      const heavyRow = k % v.box_rows === 0;
      const heavyCol = k % v.box_cols === 0;
      svg.append(s('line', { x1: 4, x2: 544, y1: 4 + k * size, y2: 4 + k * size, stroke: 'var(--fg)', 'stroke-width': heavyRow ? 2.5 : 0 }));
      svg.append(s('line', { y1: 4, y2: 544, x1: 4 + k * size, x2: 4 + k * size, stroke: 'var(--fg)', 'stroke-width': heavyCol ? 2.5 : 0 }));
    }
    board.append(svg);
    info.append(h('div', { class: 'pad', id: 'pad' },
      [...v.symbols].map((sym, k) => h('button', { 'data-digit': k + 1, disabled: !!v.ending, onclick: () => type(app, k + 1) }, sym)),
      h('button', { 'data-digit': 0, disabled: !!v.ending, onclick: () => type(app, 0) }, 'Erase'),
      h('button', { id: 'pencil', 'aria-pressed': String(pencil), onclick: () => { pencil = !pencil; app.refresh(); } }, 'Pencil (P)')));
    if (hint) info.append(h('p', { id: 'hint-text' }, `Hint: ${hint.text}`));
    if (app.table && rating.table !== app.table) {
      let text = '';
      try {
        const r = JSON.parse(app.table.rating());
        text = `Rating ${r.rating} (${r.difficulty}${r.hardest ? `, hardest step: ${r.hardest}` : ''})`;
      } catch (e) {
        text = `No rating: ${e}`;
      }
      rating = { table: app.table, text };
    }
    if (app.table) info.append(h('p', { id: 'rating' }, rating.text));
    const secs = Math.floor(v.elapsed_ms / 1000);
    info.append(h('p', { class: 'muted' }, `Time ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')} · mistakes ${v.mistakes}`));
  },
};
