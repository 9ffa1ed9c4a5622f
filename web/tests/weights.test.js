// Reversi's pattern weights (pkg/reversi-patterns.bin, 2.7 MB) and nardy's network
// (pkg/nardy-weights.bin, 69 KB) are not in the wasm: the worker fetches each the first
// time a bot or hint that needs it asks (every reversi bot and hint; nardy's levels 4 to
// 6). The other games never download them, nor nardy's levels 1 to 3; a game against such
// a bot does, once; a host without the file (or with a damaged one) gets a clear message,
// the bot's seat says it cannot play, nothing freezes and the other games play on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled } from './harness.js';

const WEIGHTS = '/pkg/reversi-patterns.bin';
const NETWORK = '/pkg/nardy-weights.bin';
const enemy = (c, r) => `svg[data-grid="enemy"] [data-col="${c}"][data-row="${r}"]`;

// Every URL path the pages and their workers request in this browser context.
function watch(b) {
  const paths = [];
  b.context.on('request', (r) => paths.push(new URL(r.url()).pathname));
  return paths;
}

// A few moves of each game but reversi, bots included (nardy's greedy-ish level 2, which
// needs no network).
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

// Plays nardy steps for the person until the page is `state` (e.g. the bot failed).
async function stepUntil(page, state) {
  for (let i = 0; i < 40; i++) {
    await page.waitForSelector(`body[data-state="person"], body[data-state="${state}"]`, { timeout: 30000 });
    if (await page.getAttribute('body', 'data-state') === state) return;
    const v = await page.evaluate(() => window.tabletop.view);
    const [from, to] = v.legal[0];
    await page.click(`[data-point="${from}"]`);
    await page.click(`[data-point="${to}"]`);
  }
  assert.fail(`the page never reached ${state}`);
}

test('weights: each file only for the bots that need it, fetched once', async () => {
  const b = await start();
  try {
    const paths = watch(b);
    await playTheOthers(b);
    assert.ok(paths.includes('/pkg/tabletop_wasm_bg.wasm'), 'the watch sees the module');
    assert.ok(paths.includes('/worker.js'), 'and the worker');
    assert.ok(!paths.includes(WEIGHTS), `no page asked for the weights: ${paths.join(' ')}`);
    assert.ok(!paths.includes(NETWORK), `nor for nardy's network: ${paths.join(' ')}`);

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
    assert.ok(!paths.includes(NETWORK), 'reversi needs no nardy network');

    // Nardy against the learned level: its network, once, for the bot and the hints.
    const nardy = await b.open('nardy', { settings: { 'nardy.level': '4', 'nardy.seat': 'white', 'nardy.hint': '4' } });
    await nardy.click('#new');
    v = await settled(nardy);
    for (let i = 0; i < 3 && !v.ending; i++) {
      const [from, to] = v.legal[0];
      await nardy.click(`[data-point="${from}"]`);
      await nardy.click(`[data-point="${to}"]`);
      v = await settled(nardy);
    }
    assert.ok(v.history.some((t) => t.color === 1), 'the learned bot played');
    await nardy.click('#hint');
    await nardy.waitForSelector('#hint-list li');
    assert.equal(paths.filter((p) => p === NETWORK).length, 1, 'the network, fetched once');
    assert.equal(paths.filter((p) => p === WEIGHTS).length, 1);
    assert.deepEqual(nardy.errors, []);
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

for (const [what, body, reason] of [
  ['missing', null, /network \(pkg\/nardy-weights\.bin\) could not be downloaded: HTTP 404/],
  ['damaged', Buffer.from('<!doctype html><title>not the network</title>'), /network cannot be read: this is not a Tabletop Long Nardy network weights save/],
]) {
  test(`weights: nardy's network ${what} on the host, the learned bot says so and the other levels play on`, async () => {
    const b = await start({ files: { [NETWORK]: body } });
    try {
      // The bot (level 4) plays White; the person steps until the bot must act.
      const page = await b.open('nardy', { settings: { 'nardy.level': '4', 'nardy.seat': 'black', 'nardy.hint': '4' } });
      await page.click('#new');
      await stepUntil(page, 'bot-failed');
      assert.match(await page.textContent('#message'), reason);
      assert.match(await page.textContent('#status'), /The bot cannot play/);
      assert.match(await page.textContent('#pips'), /White \(bot level 4, cannot play\)/);
      assert.equal(await page.evaluate(() => window.tabletop.thinking), null, 'nothing is left thinking');
      // The hand-made level needs no network: its bot and its hints play.
      await page.evaluate(() => { window.tabletop.settings['nardy.level'] = '3'; window.tabletop.settings['nardy.hint'] = '3'; });
      await page.click('#new');
      await stepUntil(page, 'person');
      let v = await settled(page);
      await page.click('#hint');
      await page.waitForSelector('#hint-list li');
      // The learned hint says why it cannot.
      await page.evaluate(() => { window.tabletop.settings['nardy.hint'] = '4'; });
      await page.click('#hint');
      await page.waitForFunction(() => /network/.test(document.getElementById('message').textContent));
      // The other games are not affected.
      await page.click('#games button[data-game="reversi"]');
      await page.click('#new');
      v = await settled(page);
      assert.equal(v.game, 'reversi');
      const errors = page.errors.filter((e) => !/Failed to load resource/.test(e));
      assert.deepEqual(errors, []);
    } finally {
      await b.stop();
    }
  });
}
