// Battleship: place your ships by clicking (R turns the next ship, a click on a placed
// ship takes it back) or at random, then shoot on the enemy grid; hits, sunk ships and
// the water around them are shown, and the enemy fleet at the end.
import { s, h, canvas } from '../svg.js';

const CELL = 30;
const M = 22; // the margin for the labels
let vertical = false;
let length = null; // the length of the next ship to place
let cursor = null; // [col, row] the arrow keys point at (your grid while placing, else the enemy's)

function grid(v, name, label, marks, onclick) {
  const w = M + v.width * CELL + 4;
  const hh = M + v.height * CELL + 4;
  const svg = canvas(w, hh, label);
  svg.dataset.grid = name;
  svg.append(s('rect', { x: 0, y: 0, width: w, height: hh, fill: 'var(--panel)' }));
  for (let c = 0; c < v.width; c++) svg.append(s('text', { x: M + c * CELL + 15, y: 15, 'text-anchor': 'middle', 'font-size': 12, fill: 'var(--fg)' }, 'ABCDEFGHIJ'[c]));
  for (let r = 0; r < v.height; r++) svg.append(s('text', { x: 10, y: M + r * CELL + 20, 'text-anchor': 'middle', 'font-size': 12, fill: 'var(--fg)' }, String(r + 1)));
  for (let r = 0; r < v.height; r++) {
    for (let c = 0; c < v.width; c++) {
      const mark = marks[r * v.width + c];
      const x = M + c * CELL;
      const y = M + r * CELL;
      const kind = { '.': 'unknown', o: 'miss', '~': 'water', x: 'hit', '#': 'sunk' }[mark];
      const g = s('g', { 'data-col': c, 'data-row': r, class: `cell ${kind}${onclick ? ' clickable' : ''}` });
      g.append(s('rect', { x, y, width: CELL, height: CELL, fill: mark === '~' || mark === 'o' ? 'var(--water)' : 'var(--sea)', stroke: 'var(--line)', 'stroke-width': 0.6 }));
      if (onclick) g.addEventListener('click', () => onclick(c, r));
      svg.append(g);
    }
  }
  return svg;
}

function ship(svg, sh, cls, fill) {
  const len = sh.len;
  svg.append(s('rect', {
    class: cls, 'data-len': len,
    x: M + sh.col * CELL + 3, y: M + sh.row * CELL + 3,
    width: (sh.vertical ? 1 : len) * CELL - 6, height: (sh.vertical ? len : 1) * CELL - 6,
    rx: 8, fill, stroke: 'var(--fg)', 'stroke-width': 1, 'pointer-events': 'none',
  }));
}

function overlay(svg, v, marks) {
  for (let i = 0; i < marks.length; i++) {
    const x = M + (i % v.width) * CELL + 15;
    const y = M + Math.floor(i / v.width) * CELL + 15;
    if (marks[i] === 'o') svg.append(s('circle', { cx: x, cy: y, r: 4, fill: 'var(--fg)', 'pointer-events': 'none' }));
    if (marks[i] === 'x' || marks[i] === '#') {
      svg.append(s('path', { d: `M${x - 9},${y - 9}L${x + 9},${y + 9}M${x + 9},${y - 9}L${x - 9},${y + 9}`, stroke: marks[i] === '#' ? 'var(--bad)' : '#e65100', 'stroke-width': 4, 'pointer-events': 'none' }));
    }
  }
}

// The hint's heat map: each unknown cell tinted by the chance of a ship afloat there
// (relative to the likeliest cell), its percentage written in it, the hinted cell ringed.
function heat(svg, v, hint) {
  const top = Math.max(...hint.probabilities.filter((_, i) => v.enemy_marks[i] === '.'), 1e-9);
  hint.probabilities.forEach((p, i) => {
    if (v.enemy_marks[i] !== '.') return;
    const x = M + (i % v.width) * CELL;
    const y = M + Math.floor(i / v.width) * CELL;
    svg.append(s('rect', { class: 'heat', 'data-cell': i, 'data-p': p, x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, fill: 'var(--bad)', 'fill-opacity': (0.75 * p) / top, 'pointer-events': 'none' }));
    if (p >= 0.005) svg.append(s('text', { x: x + CELL / 2, y: y + CELL / 2 + 4, 'text-anchor': 'middle', 'font-size': 10, fill: 'var(--fg)', 'pointer-events': 'none' }, String(Math.round(p * 100))));
  });
  const [c, r] = hint.cell;
  svg.append(s('rect', { class: 'hinted', x: M + c * CELL + 2, y: M + r * CELL + 2, width: CELL - 4, height: CELL - 4, fill: 'none', stroke: 'var(--mark)', 'stroke-width': 3, 'pointer-events': 'none' }));
}

export default {
  settings: [
    { key: 'level', label: 'Bot level', value: '3', options: [['1', '1 random'], ['2', '2'], ['3', '3'], ['4', '4'], ['5', '5 best']] },
    { key: 'rules', label: 'Rules', value: 'russian', options: [['russian', 'Russian (10 ships, no touching, shoot again on a hit)'], ['classic', 'Classic (5 ships, may touch)']] },
  ],

  reset() { vertical = false; length = null; cursor = null; },

  // The strongest bot's heat map of the enemy grid and its shot, from the person's own
  // shots only (in the worker: it samples fleets).
  async hint(app) {
    if (app.online) return JSON.parse(await app.ask('online-hint', [app.raw, app.seed()]));
    return JSON.parse(await app.ask('hints', [app.seed()], app.table.to_bytes()));
  },

  async create(app) {
    return new app.wasm.BattleshipTable(Number(app.setting('level', '3')), app.setting('rules', 'russian'));
  },

  status(app, v) {
    if (v.phase === 'placing') {
      if (v.person === null || v.to_act !== 0) return 'Waiting for the enemy fleet';
      if (!v.missing.length) return 'Your fleet is ready: start the battle';
      return `Place a ship of ${length ?? Math.max(...v.missing)} (${vertical ? 'vertical' : 'horizontal'}): click the cell of its bow`;
    }
    const enemy = v.players?.[1]?.kind === 'remote' ? 'The enemy' : 'The bot';
    const last = v.last ? `${v.last.seat === 0 ? 'You' : enemy}: ${'ABCDEFGHIJ'[v.last.cell[0]]}${v.last.cell[1] + 1} ${v.last.result}. ` : '';
    return `${last}${v.to_act === 0 ? 'Your shot' : `${enemy} shoots`}`;
  },

  controls(app, v) {
    if (v.phase === 'battle') {
      return [h('button', { id: 'hint', disabled: v.to_act !== 0 || !!v.bot, onclick: () => app.hint() }, 'Hint (H)')];
    }
    if (v.phase !== 'placing') return [];
    return [
      h('button', { id: 'rotate', onclick: () => { vertical = !vertical; app.refresh(); } }, `Rotate (R): ${vertical ? 'vertical' : 'horizontal'}`),
      h('button', { id: 'random', onclick: () => app.act((t) => t.auto_place(app.seed())) }, 'Random fleet'),
      h('button', { id: 'clear', onclick: () => app.act((t) => t.clear_ships()) }, 'Clear'),
      h('button', { id: 'start', disabled: v.missing.length > 0, onclick: () => app.act((t) => t.confirm_fleet()) }, 'Start battle'),
    ];
  },

  // R turns the next ship; arrows move a cursor, Enter places a ship there or shoots.
  key(app, e) {
    const v = app.view;
    if (v?.phase === 'placing' && e.key.toLowerCase() === 'r') {
      vertical = !vertical;
      app.refresh();
      return true;
    }
    const d = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (d) {
      const [c, r] = cursor ?? [0, 0];
      cursor = [Math.min(v.width - 1, Math.max(0, c + d[0])), Math.min(v.height - 1, Math.max(0, r + d[1]))];
      app.refresh();
      return true;
    }
    if ((e.key === 'Enter' || e.key === ' ') && cursor) {
      const [c, r] = cursor;
      if (v.phase === 'placing') {
        const next = length ?? (v.missing.length ? Math.max(...v.missing) : null);
        if (next !== null) app.act((t) => t.place_ship(c, r, vertical, next));
      } else if (v.phase === 'battle') {
        app.act((t) => t.shoot(c, r));
      }
      return true;
    }
    return false;
  },

  render(app, v, board, info) {
    board.className = 'pair';
    if (length !== null && !v.missing.includes(length)) length = null;
    const next = length ?? (v.missing.length ? Math.max(...v.missing) : null);
    const placing = v.phase === 'placing' && v.to_act === 0;
    const own = grid(v, 'own', 'Your fleet', v.own_marks, placing ? (c, r) => {
      const covering = v.own.find((sh) => sh.cells.some(([x, y]) => x === c && y === r));
      if (covering) app.act((t) => t.remove_ship(c, r));
      else if (next !== null) app.act((t) => t.place_ship(c, r, vertical, next));
    } : null);
    for (const sh of v.own) ship(own, sh, 'ship own', 'var(--ship)');
    overlay(own, v, v.own_marks);
    const shooting = v.phase === 'battle' && v.to_act === 0 && !v.bot;
    const enemy = grid(v, 'enemy', 'Enemy waters', v.enemy_marks, shooting ? (c, r) => {
      if (v.enemy_marks[r * v.width + c] === '.') app.act((t) => t.shoot(c, r));
    } : null);
    for (const sh of v.sunk) ship(enemy, sh, 'ship sunk', 'var(--bad)');
    for (const sh of v.enemy_fleet) ship(enemy, sh, 'ship enemy', 'none');
    overlay(enemy, v, v.enemy_marks);
    const hint = v.phase === 'battle' ? app.hints?.list : null;
    if (hint) heat(enemy, v, hint);
    if (cursor) {
      const target = placing ? own : enemy;
      target.append(s('rect', { class: 'cursor', x: M + cursor[0] * CELL + 1, y: M + cursor[1] * CELL + 1, width: CELL - 2, height: CELL - 2, fill: 'none', stroke: 'var(--accent)', 'stroke-width': 3, 'pointer-events': 'none' }));
    }
    board.append(
      h('figure', {}, own, h('figcaption', {}, 'Your fleet')),
      h('figure', {}, enemy, h('figcaption', {}, 'Enemy waters')),
    );
    if (placing) {
      info.append(h('p', {}, 'Ships to place (click to choose):'), h('div', { class: 'pad', id: 'missing' },
        [...new Set(v.missing)].sort((a, b) => b - a).map((len) => h('button', {
          'aria-pressed': String(len === next),
          onclick: () => { length = len; app.refresh(); },
        }, `${len} ×${v.missing.filter((x) => x === len).length}`))));
    } else {
      if (hint) info.append(h('p', { id: 'hint-text' }, `Hint: ${hint.text}; the redder a cell, the likelier a ship (the bot’s estimate from your shots).`));
      info.append(h('p', { id: 'shots' }, `Your shots: ${v.shots} · enemy ships afloat: ${v.afloat.length} · yours afloat: ${v.my_afloat.length}`));
    }
  },
};
