// Saves: a game downloaded from the page opens in the terminal `tabletop` and a game the
// terminal saved opens in the page (both are Table::to_bytes, format TTPL); a corrupt or
// foreign file gets a clear message and leaves the running game alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { start, settled, downloadSave, ROOT } from './harness.js';

const CLI = process.env.TABLETOP_CLI || path.join(ROOT, 'target', 'debug', 'tabletop');
let b;
let dir;

// Runs the terminal program in line mode with `input` on standard input.
function cli(args, input) {
  return execFileSync(CLI, ['--plain', ...args], { input, encoding: 'utf8', timeout: 60000 });
}

before(async () => {
  assert.ok(fs.existsSync(CLI), `the terminal program is built at ${CLI} (cargo build -p tabletop-cli)`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabletop-saves-'));
  b = await start();
});
after(async () => {
  await b.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a reversi game downloaded from the page opens in the terminal tabletop, and back', async () => {
  const page = await b.open('reversi', { settings: { 'reversi.level': '1', 'reversi.seat': 'black' } });
  await page.click('#new');
  let v = await settled(page);
  for (let i = 0; i < 3; i++) {
    await page.click(`[data-square="${v.legal[0]}"]`);
    v = await settled(page);
  }
  const file = await downloadSave(page, dir);
  assert.equal(fs.readFileSync(file).subarray(0, 4).toString(), 'TTPL');
  const out = cli(['reversi', '--black', 'human', '--white', 'human', '--load', file], 'quit\n');
  assert.ok(out.includes(`Black (X) ${v.counts[0]}  White (O) ${v.counts[1]}`), out);
  // The terminal plays one more move and saves; the page opens that file.
  const next = path.join(dir, 'from-cli.ttpl');
  const legal = out.match(/Black \(X\) to move: ([a-h][1-8])/)[1];
  cli(['reversi', '--black', 'human', '--white', 'human', '--load', file], `${legal}\nsave ${next}\nquit\n`);
  await page.setInputFiles('#open', next);
  await page.waitForFunction((n) => window.tabletop.view.moves.length === n, v.moves.length + 1);
  v = await settled(page);
  assert.equal(v.moves[v.moves.length - 1], legal);
  assert.match(await page.textContent('#message'), /Opened from-cli\.ttpl: a reversi game/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a nardy game downloaded from the page opens in the terminal at the same position, and back', async () => {
  const page = await b.open('nardy', { settings: { 'nardy.level': '1', 'nardy.seat': 'white' } });
  await page.click('#new');
  let v = await settled(page);
  for (let turns = 0; turns < 2;) {
    const [from, to] = v.legal[0];
    await page.click(`[data-point="${from}"]`);
    await page.click(`[data-point="${to}"]`);
    const w = await settled(page);
    if (w.history.length > v.history.length && w.played.length === 0) turns++;
    v = w;
  }
  const file = await downloadSave(page, dir);
  const out = cli(['nardy', '--white', 'human', '--black', 'human', '--load', file], 'quit\n');
  assert.ok(out.includes(`Position: ${v.notation}`), `${v.notation}\n${out}`);
  assert.ok(out.includes(`Loaded a game of ${v.history.length} turns`), out);
  // A save the terminal wrote of a new game opens in the page.
  const fresh = path.join(dir, 'nardy-cli.ttpl');
  const made = cli(['nardy', '--white', 'human', '--black', 'human', '--seed', '5'], `save ${fresh}\nquit\n`);
  await page.setInputFiles('#open', fresh);
  await page.waitForFunction(() => window.tabletop.view.history.length <= 1 && window.tabletop.view.version === 0);
  v = await settled(page);
  assert.ok(made.includes(`Position: ${v.notation}`), `${v.notation}\n${made}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('battleship and sudoku saves from the page open in the terminal tabletop', async () => {
  const page = await b.open('battleship', { settings: { 'battleship.level': '1' } });
  await page.click('#new');
  await page.click('#random');
  await page.click('#start');
  let v = await settled(page);
  await page.click('svg[data-grid="enemy"] [data-col="0"][data-row="0"]');
  v = await settled(page);
  const ships = path.join(dir, 'battleship.ttpl');
  fs.renameSync(await downloadSave(page, dir), ships);
  const out = cli(['battleship', 'play', '--load', ships], 'quit\n');
  assert.match(out, /^ 1 .*\s1 {2}[^.\s] /m, 'the shot at a1 is in the enemy waters');
  // The person's grid: the 20 ship cells, and the cells the bot shot (or showed as water).
  const own = out.split('\n').filter((l) => /^[ 1]\d {2}\S/.test(l)).map((l) => l.slice(4, 24)).join('');
  const marked = own.replace(/[.\s]/g, '').length;
  const shotAt = [...v.own_marks].filter((m) => m !== '.').length;
  assert.ok(marked >= 20 && marked <= 20 + shotAt, `${marked} marked cells, ${shotAt} shot at:\n${out}`);
  await page.click('#games [data-game="sudoku"]');
  await page.waitForFunction(() => window.tabletop.name === 'sudoku' && window.tabletop.view);
  v = await settled(page);
  const empty = v.grid.findIndex((d) => d === 0);
  await page.click(`[data-cell="${empty}"]`);
  await page.click('[data-digit="1"]');
  v = await settled(page);
  const puzzle = path.join(dir, 'sudoku.ttpl');
  fs.renameSync(await downloadSave(page, dir), puzzle);
  const text = cli(['sudoku', 'play', '--load', puzzle], 'quit\n');
  assert.ok(text.includes('(1)'), text);
  assert.ok(text.includes(`${v.grid.filter((d) => d === 0).length} cells to fill`), text);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a corrupt or foreign file gets a clear message and the game goes on', async () => {
  const page = await b.open('reversi', { settings: { 'reversi.level': '1' } });
  const v = await settled(page);
  const corrupt = path.join(dir, 'corrupt.ttpl');
  const good = await downloadSave(page, dir);
  const bytes = fs.readFileSync(good);
  fs.writeFileSync(corrupt, bytes.subarray(0, Math.max(6, bytes.length - 5)));
  await page.setInputFiles('#open', corrupt);
  await page.waitForFunction(() => document.getElementById('message').textContent.startsWith('Cannot open'));
  assert.match(await page.textContent('#message'), /Cannot open corrupt\.ttpl: this save cannot be read: the save is damaged or truncated$/);
  const foreign = path.join(dir, 'notes.txt');
  fs.writeFileSync(foreign, 'not a game at all\n');
  await page.setInputFiles('#open', foreign);
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('notes.txt'));
  assert.match(await page.textContent('#message'), /Cannot open notes\.txt: this file is not a Tabletop save/);
  const after = await settled(page);
  assert.equal(after.version, v.version, 'the running game is unchanged');
  assert.equal(after.game, 'reversi');
  assert.deepEqual(page.errors, []);
  await page.close();
});
