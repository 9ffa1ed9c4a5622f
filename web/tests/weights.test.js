// Reversi's pattern weights (pkg/reversi-patterns.bin, 2.7 MB) are not in the wasm: the
// worker fetches them the first time a reversi bot or hint needs them. The other games
// never download them; a reversi game against the bot does; a host without the file (or
// with a damaged one) gets a clear message, the bot's seat says it cannot play, nothing
// freezes and the other games play on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled } from './harness.js';

const WEIGHTS = '/pkg/reversi-patterns.bin';
const enemy = (c, r) => `svg[data-grid="enemy"] [data-col="${c}"][data-row="${r}"]`;

// Every URL path the pages and their workers request in this browser context.
function watch(b) {
  const paths = [];
  b.context.on('request', (r) => paths.push(new URL(r.url()).pathname));
  return paths;
}

// A few moves of each game but reversi, bots included.
async function playTheOthers(b) {
  const sudoku = await b.open('sudoku', { settings: { 'sudoku.size': '4', 'sudoku.difficulty': 'easy' } });
  await sudoku.click('#new');
  let v = await settled(sudoku);
  assert.equal(v.game, 'sudoku');
  await sudoku.keyboard.press('h');
  await sudoku.waitForFunction(() => window.tabletop.hints || document.getElementById('message').textContent);
  assert.deepEqual(sudoku.errors, []);

  const nardy = await b.open('nardy', { settings: { 'nardy.level': '2', 'nardy.seat': 'white' } });
  await nardy.click('#new');
  v = await settled(nardy);
  for (let i = 0; i < 6 && !v.ending; i++) {
    const [from, to] = v.legal[0];
    await nardy.click(`[data-point="${from}"]`);
    await nardy.click(`[data-point="${to}"]`);
    v = await settled(nardy);
  }
  assert.ok(v.history.some((t) => t.color === 1), 'the nardy bot played');
  assert.deepEqual(nardy.errors, []);

  const ships = await b.open('battleship', { settings: { 'battleship.level': '3', 'battleship.rules': 'russian' } });
  await ships.click('#new');
  await settled(ships);
  await ships.click('#random');
  await settled(ships);
  await ships.click('#start');
  v = await settled(ships);
  for (let i = 0; i < 10 && !v.ending && v.phase === 'battle'; i++) {
    await ships.click(enemy(i, 9 - i));
    v = await settled(ships);
  }
  assert.deepEqual(ships.errors, []);
}

test('weights: sudoku, nardy and battleship never request them; reversi against the bot does, once', async () => {
  const b = await start();
  try {
    const paths = watch(b);
    await playTheOthers(b);
    assert.ok(paths.includes('/pkg/tabletop_wasm_bg.wasm'), 'the watch sees the module');
    assert.ok(paths.includes('/worker.js'), 'and the worker');
    assert.ok(!paths.includes(WEIGHTS), `no page asked for the weights: ${paths.join(' ')}`);

    const page = await b.open('reversi', { settings: { 'reversi.level': '3', 'reversi.seat': 'black' } });
    await page.click('#new');
    let v = await settled(page);
    for (let i = 0; i < 3 && !v.ending; i++) {
      await page.click(`[data-square="${v.legal[0]}"]`);
      v = await settled(page);
    }
    assert.equal(v.moves.length, 6, 'the bot answered every move');
    await page.click('#hint');
    await page.waitForSelector('#hint-list li');
    assert.equal(paths.filter((p) => p === WEIGHTS).length, 1, 'fetched once, by the worker');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});

for (const [what, body, reason] of [
  ['missing', null, /could not be downloaded: HTTP 404/],
  ['damaged', Buffer.from('<!doctype html><title>not the weights</title>'), /weights cannot be read: not a reversi pattern weights file/],
]) {
  test(`weights: ${what} on the host, the reversi bot says so and the other games play on`, async () => {
    const b = await start({ files: { [WEIGHTS]: body } });
    try {
      // The bot plays Black, so it must move first.
      const page = await b.open('reversi', { settings: { 'reversi.level': '3', 'reversi.seat': 'white' } });
      await page.click('#new');
      await page.waitForSelector('body[data-state="bot-failed"]', { timeout: 30000 });
      assert.match(await page.textContent('#message'), reason);
      assert.match(await page.textContent('#status'), /The bot cannot play/);
      assert.match(await page.textContent('#counts'), /Black \(bot level 3, cannot play\)/);
      assert.equal(await page.evaluate(() => window.tabletop.thinking), null, 'nothing is left thinking');
      // A game of two people needs no weights; the hint does and says why it cannot.
      await page.evaluate(() => { window.tabletop.settings['reversi.seat'] = 'both'; });
      await page.click('#new');
      let v = await settled(page);
      assert.equal(await page.getAttribute('body', 'data-state'), 'person');
      await page.click(`[data-square="${v.legal[0]}"]`);
      v = await settled(page);
      assert.equal(v.moves.length, 1);
      await page.click('#hint');
      await page.waitForFunction(() => /weights/.test(document.getElementById('message').textContent));
      // The other games are not affected.
      await page.click('#games button[data-game="nardy"]');
      await page.click('#new');
      v = await settled(page);
      assert.equal(v.game, 'nardy');
      const errors = page.errors.filter((e) => !/Failed to load resource/.test(e));
      assert.deepEqual(errors, []);
    } finally {
      await b.stop();
    }
  });
}
