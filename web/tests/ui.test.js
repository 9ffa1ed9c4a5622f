// What every game shares: keys, the light and dark themes (kept across reloads), a phone
// sized screen, the nardy hints of the learned level (the network and the bear-off
// database, built in the worker), and a bot game while the page stays responsive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled, screenshot } from './harness.js';

test('keys, themes and a phone-sized screen', async () => {
  const b = await start();
  try {
    const page = await b.open('reversi', { settings: { 'reversi.level': '1', 'reversi.seat': 'black' } });
    await page.click('#new');
    let v = await settled(page);
    await page.click(`[data-square="${v.legal[0]}"]`);
    v = await settled(page);
    assert.equal(v.moves.length, 2);
    // U takes back, R plays again, H asks for a hint.
    await page.keyboard.press('u');
    v = await settled(page);
    assert.equal(v.board.filter((d) => d).length, 4);
    await page.keyboard.press('r');
    v = await settled(page);
    assert.equal(v.board.filter((d) => d).length, 6);
    await page.keyboard.press('h');
    await page.waitForSelector('#hint-list li');
    // Arrows move a cursor from the first legal move; Enter plays there.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.locator('[data-square] .cursor').count(), 1);
    const target = await page.locator('[data-square]:has(.cursor)').getAttribute('data-square');
    assert.equal(Number(target), v.legal[0]);
    await page.keyboard.press('Enter');
    v = await settled(page);
    assert.equal(v.moves[2], ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'][target % 8] + (Math.floor(target / 8) + 1));
    // T switches the theme, which a reload keeps.
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.keyboard.press('t');
    const other = await page.evaluate(() => document.documentElement.dataset.theme);
    assert.notEqual(other, theme);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), other);
    if (other !== 'dark') await page.click('#theme');
    await screenshot(page, 'reversi-dark');
    // A phone: the board fits the width and the panel goes below it.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await page.locator('#board svg').boundingBox();
    assert.ok(box.width <= 390 && box.width > 300, `the board fits a phone (${box.width})`);
    const panel = await page.locator('#panel').boundingBox();
    assert.ok(panel.y > box.y + box.height - 1, 'the panel is below the board');
    await screenshot(page, 'reversi-phone');
    await page.click('#theme');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});

test('nardy hints of the learned level rank every turn with equities, from the worker', async () => {
  const b = await start();
  try {
    const page = await b.open('nardy', { settings: { 'nardy.level': '4', 'nardy.seat': 'white', 'nardy.hint': '4' } });
    await page.click('#new');
    await settled(page);
    const t0 = Date.now();
    await page.click('#hint');
    await page.waitForSelector('#hint-list li', { timeout: 60000 });
    const ms = Date.now() - t0;
    const first = await page.textContent('#hint-list li');
    assert.match(first, /^\S.* [+-]\d\.\d{3}/);
    console.log(`learned-level hints in ${ms} ms: ${first}`);
    await screenshot(page, 'nardy-hints');
    // Play the best turn from the list; the level-4 bot (the same network) answers.
    const best = await page.evaluate(() => window.tabletop.hints.list[0].turn);
    const v = await settled(page);
    await page.click('#hint-list li:first-child .play-hint');
    const w = await settled(page);
    assert.ok(w.version > v.version);
    assert.ok(w.history.some((t) => t.color === 0 && t.turn === best), `${best} was played`);
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});

test('the main thread never stalls while the strongest reversi bot plays', async () => {
  const b = await start();
  try {
    const page = await b.open('reversi', { settings: { 'reversi.level': '10', 'reversi.seat': 'black' } });
    await page.click('#new');
    let v = await settled(page);
    // A timer every 5 ms records the longest gap between its ticks: a bot thinking on the
    // main thread would stall it for as long as the bot thinks.
    await page.evaluate(() => {
      let last = performance.now();
      window.longestGap = 0;
      setInterval(() => {
        const now = performance.now();
        window.longestGap = Math.max(window.longestGap, now - last);
        last = now;
      }, 5);
    });
    let thinking = 0;
    for (let i = 0; i < 16 && !v.ending; i++) {
      await page.click(`[data-square="${v.legal[0]}"]`);
      const t0 = Date.now();
      v = await settled(page);
      thinking += Date.now() - t0;
    }
    const gap = await page.evaluate(() => window.longestGap);
    console.log(`level 10 thought ${thinking} ms over 16 moves; the longest main-thread gap was ${gap.toFixed(0)} ms`);
    assert.ok(gap < 200, `the page stalled for ${gap} ms`);
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});
