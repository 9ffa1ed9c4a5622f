// Reversi in the browser: a whole game against a bot by clicks, hint, undo, reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled, view, screenshot } from './harness.js';

test('reversi: play a whole game by clicks against a bot, with hint, undo and reload', async () => {
  const b = await start();
  try {
    const page = await b.open('reversi', { settings: { 'reversi.level': '2', 'reversi.seat': 'black' } });
    await page.click('#new');
    let v = await settled(page);
    assert.equal(v.game, 'reversi');
    assert.deepEqual(v.legal, [19, 26, 37, 44]);
    assert.equal(await page.locator('[data-square].legal').count(), 4, 'the legal moves are marked');
    let moves = 0;
    while (!v.ending) {
      assert.equal(v.to_act, 0, 'the person is to move when nothing is thinking');
      if (moves === 4) {
        // The hint: every legal move scored, the best marked on the board.
        await page.click('#hint');
        await page.waitForSelector('#hint-list li');
        const items = await page.locator('#hint-list li').count();
        assert.equal(items, Math.min(6, v.legal.length));
        assert.equal(await page.locator('[data-square].hinted').count(), 1);
        // Undo takes back the bot's reply and the person's move.
        const before = v.version;
        await page.click('#undo');
        v = await settled(page);
        assert.ok(v.version > before, 'undo is an action of the log');
        assert.equal(v.moves.length, 6, 'undo took back a move of each side');
        assert.equal(v.can_redo, true);
        // Reload: the running game comes back from localStorage.
        const board = v.board;
        await page.reload();
        await page.waitForSelector('body[data-ready="true"]');
        v = await settled(page);
        assert.deepEqual(v.board, board, 'the game resumed after a reload');
        assert.equal(v.can_redo, true, 'the log came back too');
      }
      if (moves === 10) await screenshot(page, 'reversi');
      await page.click(`[data-square="${v.legal[v.legal.length - 1]}"]`);
      moves++;
      v = await settled(page);
    }
    assert.match(await page.textContent('#status'), /Game over: Black \d+ – White \d+/);
    assert.equal(v.counts[0] + v.counts[1] <= 64, true);
    assert.equal(v.legal.length, 0);
    assert.deepEqual(page.errors, []);
    const final = await view(page);
    assert.ok(final.ending);
  } finally {
    await b.stop();
  }
});

test('reversi: a forced pass is played by the table and announced', async () => {
  const b = await start();
  try {
    const page = await b.open('reversi', { settings: { 'reversi.seat': 'both' } });
    await page.click('#new');
    await settled(page);
    // Moves of a game (both sides the page's) that leads to a forced pass, found with the
    // page's own bindings; then played by clicks.
    const moves = await page.evaluate(() => {
      const { ReversiTable } = window.tabletop.wasm;
      for (let game = 1; game < 500; game++) {
        const t = new ReversiTable(Uint8Array.from([0, 0]), false);
        const seq = [];
        let k = game;
        for (;;) {
          const v = JSON.parse(t.view());
          if (v.moves.includes('pass')) { t.free(); return seq; }
          if (v.ending) break;
          k = (k * 1103515245 + 12345) % 2147483648;
          const sq = v.legal[k % v.legal.length];
          t.play(sq);
          seq.push(sq);
        }
        t.free();
      }
      return null;
    });
    assert.ok(moves, 'a game with a pass was found');
    let v;
    for (const sq of moves) {
      await page.click(`[data-square="${sq}"]`);
      v = await settled(page);
    }
    assert.equal(v.moves[v.moves.length - 1], 'pass', 'the table played the pass');
    const passer = ['Black', 'White'][v.side ^ 1];
    assert.equal(await page.textContent('#status'), `${passer} had no move and passed. ${['Black', 'White'][v.side]} to move`);
    assert.ok(v.legal.length > 0, 'the side to move has a move');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});
