// Reversi: an 8×8 board in SVG; legal moves marked, the last move and its flips shown,
// disc counts, passes announced, a hint with its score.
import { s, h, canvas } from '../svg.js';

const NAMES = ['Black', 'White'];
let cursor = null; // the square the arrow keys point at
const levels = Array.from({ length: 10 }, (_, i) => [String(i + 1), `${i + 1}`]);

export default {
  settings: [
    { key: 'seat', label: 'You play', value: 'black', options: [['black', 'Black'], ['white', 'White'], ['both', 'both sides']] },
    { key: 'level', label: 'Bot level (1–10)', value: '3', options: levels },
    { key: 'first', label: 'First move', value: 'black', options: [['black', 'Black (Othello)'], ['white', 'White']] },
  ],

  async create(app) {
    const level = Number(app.setting('level', '3'));
    const seat = app.setting('seat', 'black');
    const levels = seat === 'black' ? [0, level] : seat === 'white' ? [level, 0] : [0, 0];
    return new app.wasm.ReversiTable(Uint8Array.from(levels), app.setting('first', 'black') === 'white');
  },

  status(app, v) {
    const passes = [];
    for (let i = v.moves.length - 1; i >= 0 && v.moves[i] === 'pass'; i--) passes.push(i);
    const passed = passes.length ? `${NAMES[v.side ^ 1]} had no move and passed. ` : '';
    return `${passed}${NAMES[v.side]} to move`;
  },

  controls(app, v) {
    return [h('button', { id: 'hint', disabled: !!v.ending || !!v.bot, onclick: () => app.hint() }, 'Hint')];
  },

  reset() { cursor = null; },

  // The bots need the pattern weights, which the worker fetches (app.js asks early).
  prefetch: (app, v) => v.players.some((p) => p.kind === 'bot'),

  // Arrows move a cursor over the board, Enter or Space plays there.
  key(app, e) {
    const v = app.view;
    const step = { ArrowUp: -8, ArrowDown: 8, ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (step !== undefined) {
      const start = cursor ?? v.legal[0] ?? 27;
      const next = start + step;
      const wraps = (step === 1 && start % 8 === 7) || (step === -1 && start % 8 === 0);
      cursor = next < 0 || next > 63 || wraps ? start : next;
      app.refresh();
      return true;
    }
    if ((e.key === 'Enter' || e.key === ' ') && cursor !== null) {
      const sq = cursor;
      app.act((t) => t.play(sq));
      return true;
    }
    return false;
  },

  async hint(app) {
    return JSON.parse(await app.ask('hints', [], app.table.to_bytes()));
  },

  render(app, v, board, info) {
    board.className = '';
    const svg = canvas(455, 450, 'Reversi board');
    svg.append(s('rect', { x: 0, y: 0, width: 455, height: 450, fill: 'var(--board)', rx: 8 }));
    for (let i = 0; i < 8; i++) {
      svg.append(s('text', { x: 40 + i * 50 + 25, y: 15, 'text-anchor': 'middle', fill: '#fff', 'font-size': 13 }, 'abcdefgh'[i]));
      svg.append(s('text', { x: 20, y: 25 + i * 50 + 30, 'text-anchor': 'middle', fill: '#fff', 'font-size': 13 }, String(i + 1)));
    }
    const legal = new Set(v.legal);
    const flipped = new Set(v.flipped);
    const hint = app.hints?.list?.[0];
    const mine = v.person !== null && v.to_act === v.person && !v.bot;
    for (let sq = 0; sq < 64; sq++) {
      const x = 40 + (sq % 8) * 50;
      const y = 25 + Math.floor(sq / 8) * 50;
      const cls = ['cell', legal.has(sq) && mine ? 'legal clickable' : '', sq === v.last ? 'last' : '', hint?.square === sq ? 'hinted' : ''].filter(Boolean).join(' ');
      const g = s('g', { 'data-square': sq, class: cls });
      g.append(s('rect', { x, y, width: 50, height: 50, fill: 'var(--cell)', stroke: '#174d30', 'stroke-width': 1.5 }));
      const disc = v.board[sq];
      if (disc) {
        g.append(s('circle', {
          cx: x + 25, cy: y + 25, r: 20, class: `disc ${disc === 1 ? 'black' : 'white'}`,
          fill: disc === 1 ? 'var(--black-disc)' : 'var(--white-disc)',
          stroke: flipped.has(sq) ? 'var(--mark)' : '#0006', 'stroke-width': flipped.has(sq) ? 3 : 1,
        }));
      } else if (legal.has(sq) && mine) {
        g.append(s('circle', { cx: x + 25, cy: y + 25, r: 6, fill: '#0005' }));
      }
      if (sq === v.last) g.append(s('circle', { cx: x + 25, cy: y + 25, r: 4, fill: 'var(--bad)' }));
      if (cursor === sq) g.append(s('rect', { x: x + 2, y: y + 2, width: 46, height: 46, fill: 'none', stroke: 'var(--accent)', 'stroke-width': 3, class: 'cursor' }));
      if (hint?.square === sq) {
        g.append(s('rect', { x: x + 3, y: y + 3, width: 44, height: 44, fill: 'none', stroke: 'var(--mark)', 'stroke-width': 3 }));
        g.append(s('text', { x: x + 25, y: y + 46, 'text-anchor': 'middle', 'font-size': 11, fill: 'var(--mark)' }, hint.text));
      }
      if (legal.has(sq) && mine) g.addEventListener('click', () => app.act((t) => t.play(sq)));
      svg.append(g);
    }
    board.append(svg);
    const failed = app.botFailed?.(v);
    const who = (i) => failed?.seat === i
      ? `bot level ${v.players[i].level}, cannot play`
      : ({ bot: `bot level ${v.players[i].level}`, remote: 'opponent' })[v.players[i].kind] ?? 'you';
    info.append(
      h('p', { id: 'counts' }, `Black (${who(0)}): ${v.counts[0]} · White (${who(1)}): ${v.counts[1]}`),
      h('p', { class: 'muted' }, `Moves: ${v.moves.length ? v.moves.join(' ') : '—'}`),
    );
    if (app.hints) {
      info.append(h('p', {}, 'Hint, best first (disc difference; exact when marked =):'),
        h('ol', { class: 'hints', id: 'hint-list' }, app.hints.list.slice(0, 6).map((m) => h('li', {}, `${m.name} ${m.text}${m.exact ? ' =' : ''}`))));
    }
  },
};
