// Long Nardy: 24 points in SVG, checker stacks, the dice, pip counts and borne-off
// trays. Click a checker to see the destinations the engine offers (only steps that can
// complete a legal turn), click one to step there; the bot's turns are listed; hints rank
// every turn with its equity.
import { s, h, canvas } from '../svg.js';

const NAMES = ['White', 'Black'];
const COLORS = ['var(--white-disc)', 'var(--black-disc)'];
let selected = null; // the point whose checker the person picked

// Where point p (1..24) is drawn: its column's left x and whether it is on top.
function place(p) {
  const top = p >= 13;
  const k = top ? p - 13 : 12 - p;
  return { x: 20 + k * 52 + (k >= 6 ? 36 : 0), top };
}

const dicePips = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function die(x, y, n, used) {
  const g = s('g', { class: `die${used ? ' used' : ''}`, 'data-die': n, opacity: used ? 0.35 : 1 });
  g.append(s('rect', { x, y, width: 40, height: 40, rx: 7, fill: '#fffdf5', stroke: '#333' }));
  for (const [dx, dy] of dicePips[n]) g.append(s('circle', { cx: x + 20 + dx * 11, cy: y + 20 + dy * 11, r: 4, fill: '#222' }));
  return g;
}

export default {
  settings: [
    { key: 'seat', label: 'You play', value: 'white', options: [['white', 'White'], ['black', 'Black'], ['both', 'both sides']] },
    { key: 'level', label: 'Bot level', value: '3', options: [['1', '1 random'], ['2', '2 beginner'], ['3', '3 greedy'], ['4', '4 learned'], ['5', '5 strong'], ['6', '6 expert']] },
    { key: 'hint', label: 'Hint level', value: '4', options: [['3', '3 greedy (hand-made)'], ['4', '4 learned (network)'], ['5', '5 strong (1 ply)']] },
    { key: 'opening', label: 'Opening', value: 'RollOff', options: [['RollOff', 'roll-off dice (federation)'], ['Reroll', 'winner rolls again']] },
    { key: 'scoring', label: 'Scoring', value: 'Standard', options: [['Standard', 'oin and mars'], ['WithKoks', 'with koks']] },
    { key: 'block', label: 'Six-point block checked', value: 'EveryStep', options: [['EveryStep', 'after every step'], ['EndOfTurn', 'at the end of the turn']] },
    { key: 'head', label: 'First-turn head doubles', value: 'Strict', options: [['Strict', '6-6, 4-4, 3-3'], ['AnyBlockedDouble', 'any blocked double']] },
    { key: 'tie', label: 'Last roll for the second mover', value: 'false', options: [['false', 'no'], ['true', 'yes (a draw if both finish)']] },
  ],

  reset() { selected = null; },

  // Bots of levels 4 to 6 need the network, which the worker fetches (app.js asks early).
  prefetch: (app, v) => v.players.some((p) => p.kind === 'bot' && app.wasm.nardy_level_needs_network(p.level)),

  async create(app) {
    const level = Number(app.setting('level', '3'));
    const seat = app.setting('seat', 'white');
    const levels = seat === 'white' ? [0, level] : seat === 'black' ? [level, 0] : [0, 0];
    const rules = {
      opening: app.setting('opening', 'RollOff'),
      head_exception: app.setting('head', 'Strict'),
      block_check: app.setting('block', 'EveryStep'),
      scoring: app.setting('scoring', 'Standard'),
      last_roll_tie: app.setting('tie', 'false') === 'true',
    };
    return new app.wasm.NardyTable(Uint8Array.from(levels), JSON.stringify(rules), app.seed());
  },

  status(app, v) {
    // Online, no dice exist until every player has sent a seed (verified dice).
    if (!v.dice) return 'Waiting for the dice: each player adds a random seed of their own';
    const left = v.dice_left.length ? ` (to play: ${v.dice_left.join(', ')})` : '';
    return `${NAMES[v.side]} to move, dice ${v.dice[0]}-${v.dice[1]}${left}`;
  },

  controls(app, v) {
    return [h('button', { id: 'hint', disabled: !!v.ending || !!v.bot, onclick: () => app.hint() }, 'Hints')];
  },

  async hint(app) {
    return JSON.parse(await app.ask('hints', [Number(app.setting('hint', '4'))], app.table.to_bytes()));
  },

  key(app, e) {
    if (e.key === 'Escape' && selected !== null) {
      selected = null;
      app.refresh();
      return true;
    }
    return false;
  },

  render(app, v, board, info) {
    board.className = '';
    const mine = v.person !== null && v.to_act === v.person && !v.bot && !v.ending;
    const legal = mine ? v.legal : [];
    const froms = new Set(legal.map(([f]) => f));
    if (!froms.has(selected)) selected = null;
    const dests = new Set(legal.filter(([f]) => f === selected).map(([, t]) => t));
    const click = (p) => {
      if (!mine) return;
      if (selected !== null && dests.has(p)) {
        const from = selected;
        selected = null;
        app.act((t) => t.step(from, p));
        return;
      }
      selected = froms.has(p) && p !== selected ? p : null;
      app.refresh();
    };

    const svg = canvas(800, 460, 'Long Nardy board');
    svg.append(s('rect', { x: 0, y: 0, width: 800, height: 460, rx: 10, fill: 'var(--wood-dark)' }));
    svg.append(s('rect', { x: 12, y: 12, width: 696, height: 436, fill: 'var(--wood)' }));
    svg.append(s('rect', { x: 332, y: 12, width: 36, height: 436, fill: 'var(--wood-dark)' }));
    for (let p = 1; p <= 24; p++) {
      const { x, top } = place(p);
      const cls = ['point', froms.has(p) ? 'movable clickable' : '', dests.has(p) ? 'dest clickable' : '', selected === p ? 'selected' : ''].filter(Boolean).join(' ');
      const g = s('g', { 'data-point': p, class: cls });
      const base = top ? 20 : 440;
      const tip = top ? 205 : 255;
      g.append(s('rect', { x, y: top ? 14 : 250, width: 52, height: 196, fill: 'transparent' }));
      g.append(s('polygon', { points: `${x + 2},${base} ${x + 50},${base} ${x + 26},${tip}`, fill: p % 2 ? 'var(--tri-a)' : 'var(--tri-b)' }));
      g.append(s('text', { x: x + 26, y: top ? 224 : 246, 'text-anchor': 'middle', 'font-size': 11, fill: '#3a2a10' }, String(p)));
      const [w, b] = [v.white[p - 1], v.black[p - 1]];
      const n = w || b;
      const color = w ? 0 : 1;
      for (let i = 0; i < Math.min(n, 5); i++) {
        const cy = top ? 20 + 21 + i * 38 : 440 - 21 - i * 38;
        g.append(s('circle', { cx: x + 26, cy, r: 20, class: `checker ${NAMES[color].toLowerCase()}`, fill: COLORS[color], stroke: selected === p && i === Math.min(n, 5) - 1 ? 'var(--accent)' : '#555', 'stroke-width': selected === p && i === Math.min(n, 5) - 1 ? 4 : 1.5 }));
      }
      if (n > 5) {
        const cy = top ? 20 + 21 + 4 * 38 : 440 - 21 - 4 * 38;
        g.append(s('text', { x: x + 26, y: cy + 5, 'text-anchor': 'middle', 'font-size': 15, 'font-weight': 700, fill: color ? '#fff' : '#000', class: 'count' }, String(n)));
      }
      if (dests.has(p)) {
        const cy = top ? 20 + 21 + Math.min(n, 4) * 38 : 440 - 21 - Math.min(n, 4) * 38;
        g.append(s('circle', { cx: x + 26, cy, r: 12, fill: 'var(--accent)', opacity: 0.8, class: 'target' }));
      }
      g.addEventListener('click', () => click(p));
      svg.append(g);
    }
    // The last turn of the other side (a bot's, shown when it is the person's turn):
    // where its checkers left from and arrived.
    const last = v.history[v.history.length - 1];
    if (last && !v.ending && last.color !== v.side) {
      for (const [from, to] of last.steps) {
        for (const [p, kind] of [[from, 'from'], [to, 'to']]) {
          if (p === 0) continue;
          const { x, top } = place(p);
          svg.append(s('rect', { class: `last-${kind}`, x: x + 4, y: top ? 13 : 442, width: 44, height: 5, rx: 2, fill: kind === 'to' ? 'var(--accent)' : 'var(--muted)', 'pointer-events': 'none' }));
        }
      }
    }
    // Borne-off trays: Black's on top, White's below; the tray is the target to bear off.
    const tray = s('g', { 'data-point': 0, class: `tray${dests.has(0) ? ' dest clickable' : ''}` });
    tray.append(s('rect', { x: 716, y: 12, width: 72, height: 436, rx: 6, fill: dests.has(0) ? 'var(--accent)' : 'var(--wood)', opacity: dests.has(0) ? 0.6 : 1 }));
    for (const [color, y0, dir] of [[1, 20, 1], [0, 440, -1]]) {
      const n = v.off[color];
      for (let i = 0; i < n; i++) {
        tray.append(s('rect', { x: 724, y: dir > 0 ? y0 + i * 9 : y0 - (i + 1) * 9, width: 56, height: 7, rx: 3, fill: COLORS[color], stroke: '#555', class: `off ${NAMES[color].toLowerCase()}` }));
      }
      tray.append(s('text', { x: 752, y: dir > 0 ? 172 : 300, 'text-anchor': 'middle', 'font-size': 13, fill: '#3a2a10' }, `${NAMES[color][0]} off ${n}`));
    }
    tray.addEventListener('click', () => click(0));
    svg.append(tray);
    if (v.dice) {
      const left = [...v.dice_left];
      const shown = v.dice[0] === v.dice[1] ? [v.dice[0], v.dice[0]] : v.dice;
      shown.forEach((n, i) => {
        const k = left.indexOf(n);
        if (k >= 0) left.splice(k, 1);
        svg.append(die(732, 184 + i * 48, n, k < 0));
      });
    }
    board.append(svg);

    const failed = app.botFailed?.(v);
    const who = (i) => failed?.seat === i
      ? `bot level ${v.players[i].level}, cannot play`
      : ({ bot: `bot level ${v.players[i].level}`, remote: 'opponent' })[v.players[i].kind] ?? 'you';
    info.append(h('p', { id: 'pips' }, `Pips: White (${who(0)}) ${v.pips[0]} · Black (${who(1)}) ${v.pips[1]}`));
    info.append(h('p', {}, `Borne off: White ${v.off[0]} · Black ${v.off[1]}`));
    if (selected !== null) info.append(h('p', {}, `Checker on ${selected}: to ${[...dests].map((d) => (d === 0 ? 'off' : d)).join(', ')}`));
    const recent = v.history.slice(-4).reverse();
    if (recent.length) {
      info.append(h('p', {}, 'Last turns:'), h('ul', { id: 'history', class: 'hints' }, recent.map((t) => h('li', {}, `${NAMES[t.color]} ${t.dice[0]}-${t.dice[1]}: ${t.turn}`))));
    }
    if (app.hints) {
      info.append(h('p', {}, `Hints (level ${app.setting('hint', '4')}), best first — equity, loss:`),
        h('ol', { id: 'hint-list', class: 'hints' }, app.hints.list.slice(0, 6).map((r) => h('li', {},
          `${r.turn}  ${r.equity >= 0 ? '+' : ''}${r.equity.toFixed(3)}${r.loss > 0 ? `  (−${r.loss.toFixed(3)})` : ''} `,
          mine && v.played.length === 0 ? h('button', { class: 'play-hint', onclick: () => app.act((t) => t.play_turn(r.turn)) }, 'Play') : null))));
    }
  },
};
