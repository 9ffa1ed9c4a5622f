// Long Nardy in the browser: a whole game against a bot, step by step by clicks, with
// the destinations the engine offers, undo of a step, ranked hints and a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled, screenshot } from './harness.js';

test('nardy: play a whole game step by step against a bot, with hints, undo and reload', async () => {
  const b = await start();
  try {
    const page = await b.open('nardy', { settings: { 'nardy.level': '2', 'nardy.seat': 'white', 'nardy.hint': '3' } });
    await page.click('#new');
    let v = await settled(page);
    assert.equal(v.game, 'nardy');
    let steps = 0;
    let checked = false;
    for (let guard = 0; !v.ending; guard++) {
      assert.ok(guard < 2000, 'the game ends');
      assert.equal(v.to_act, 0, 'White, the person, is to move when nothing is thinking');
      const bot = v.history[v.history.length - 1];
      if (v.played.length === 0 && bot?.color === 1 && bot.steps.length) {
        // The bot's turn is shown: listed first, and marked on the board.
        assert.equal(await page.textContent('#history li'), `Black ${bot.dice[0]}-${bot.dice[1]}: ${bot.turn}`);
        assert.ok(await page.locator('.last-from').count() >= 1, JSON.stringify(bot));
      }
      const [from, to] = v.legal[v.legal.length - 1];
      await page.click(`[data-point="${from}"]`);
      // Only the engine's destinations from that point are offered.
      const offered = await page.locator('[data-point].dest').evaluateAll((els) => els.map((e) => Number(e.dataset.point)).sort((a, b) => a - b));
      const expected = v.legal.filter(([f]) => f === from).map(([, t]) => t).sort((a, b) => a - b);
      assert.deepEqual(offered, [...new Set(expected)]);
      if (!checked && v.played.length === 0 && v.dice_left.length >= 2 && v.history.length > 2) {
        // Hints: every legal turn ranked with its equity.
        await page.keyboard.press('Escape');
        assert.equal(await page.locator('[data-point].dest').count(), 0, 'Escape drops the checker');
        await page.click('#hint');
        await page.waitForSelector('#hint-list li');
        assert.match(await page.textContent('#hint-list li'), /[+-]\d\.\d{3}/);
        await page.click(`[data-point="${from}"]`);
        await page.click(`[data-point="${to}"]`);
        v = await settled(page);
        if (v.to_act === 0 && v.played.length === 1) {
          // Undo takes the step back; the same dice stay.
          const dice = v.dice;
          await page.click('#undo');
          v = await settled(page);
          assert.equal(v.played.length, 0);
          assert.deepEqual(v.dice, dice);
          await screenshot(page, 'nardy');
          // Reload mid-game: the same position and dice come back.
          await page.reload();
          await page.waitForSelector('body[data-ready="true"]');
          const after = await settled(page);
          assert.deepEqual([after.white, after.black, after.dice], [v.white, v.black, v.dice]);
          checked = true;
        }
        v = await settled(page);
        continue;
      }
      await page.click(`[data-point="${to}"]`);
      steps++;
      v = await settled(page);
    }
    assert.ok(checked, 'hints and undo were tried');
    assert.ok(steps > 30, `a whole game takes many steps (${steps})`);
    assert.match(await page.textContent('#status'), /Game over: .*(White|Black) wins/i);
    assert.ok(v.off[0] === 15 || v.off[1] === 15, 'someone bore off every checker');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});
