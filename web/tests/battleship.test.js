// Battleship in the browser: ships placed by clicks with rotation, then at random; a
// whole battle against a bot by clicks on the enemy grid, undo, reload, the enemy fleet
// shown at the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled, screenshot } from './harness.js';

const cell = (grid, c, r) => `svg[data-grid="${grid}"] [data-col="${c}"][data-row="${r}"]`;

test('battleship: place by clicks and at random, then sink the bot by clicks', async () => {
  const b = await start();
  try {
    const page = await b.open('battleship', { settings: { 'battleship.level': '1', 'battleship.rules': 'russian' } });
    await page.click('#new');
    let v = await settled(page);
    assert.equal(v.phase, 'placing');
    // The 4-decker across A1–D1, then R turns the next ship: a 3-decker down F1–F3.
    await page.click(cell('own', 0, 0));
    await page.keyboard.press('r');
    await page.click(cell('own', 5, 0));
    v = await settled(page);
    assert.deepEqual(v.own.map((s) => [s.len, s.vertical]), [[4, false], [3, true]]);
    assert.deepEqual(v.missing, [3, 2, 2, 2, 1, 1, 1, 1]);
    // A ship touching another is refused with the engine's words.
    await page.click(cell('own', 1, 1));
    assert.notEqual((await page.textContent('#message')).trim(), '');
    assert.equal((await settled(page)).own.length, 2);
    // A reload in the middle of the placement keeps the ships placed so far.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    v = await settled(page);
    assert.equal(v.phase, 'placing');
    assert.deepEqual(v.own.map((s) => [s.len, s.vertical]), [[4, false], [3, true]], 'the placement resumed');
    // A click on a placed ship takes it back.
    await page.click(cell('own', 5, 1));
    assert.equal((await settled(page)).own.length, 1);
    assert.equal(await page.isDisabled('#start'), true);
    await page.click('#random');
    v = await settled(page);
    assert.deepEqual(v.missing, []);
    assert.equal(await page.locator('svg[data-grid="own"] .ship.own').count(), 10);
    await page.click('#start');
    v = await settled(page);
    assert.equal(v.phase, 'battle');
    // Arrows and Enter shoot too: the cursor starts at A1, two steps right is C1.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    v = await settled(page);
    assert.notEqual(v.enemy_marks[2], '.', 'C1 was shot from the keyboard');
    let shots = 1;
    for (let i = 0; !v.ending; i = (i + 1) % 100) {
      if (v.enemy_marks[i] !== '.') continue;
      await page.click(cell('enemy', i % 10, Math.floor(i / 10)));
      shots++;
      v = await settled(page);
      if (shots === 12) {
        const before = v.shots;
        await page.click('#undo');
        v = await settled(page);
        assert.ok(v.shots < before, 'undo took a shot back');
        await page.reload();
        await page.waitForSelector('body[data-ready="true"]');
        const after = await settled(page);
        assert.deepEqual([after.enemy_marks, after.own_marks], [v.enemy_marks, v.own_marks], 'the battle resumed');
        await screenshot(page, 'battleship');
      }
    }
    assert.equal(v.phase, 'over');
    assert.match(await page.textContent('#status'), /Game over: (You|The bot) won after \d+ shots/);
    assert.equal(await page.locator('svg[data-grid="enemy"] .ship.enemy').count(), 10, 'the enemy fleet is shown at the end');
    assert.ok(v.enemy_marks.includes('#'), 'sunk ships are marked');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});

test('battleship: the hint shows the bot’s heat map of the enemy grid, from the person’s shots alone', async () => {
  const b = await start();
  try {
    const page = await b.open('battleship', { settings: { 'battleship.level': '1', 'battleship.rules': 'russian' } });
    await page.click('#new');
    await settled(page);
    await page.click('#random');
    await settled(page);
    await page.click('#start');
    let v = await settled(page);
    // Every cell unknown: the chances add up to the fleet's 20 cells.
    const heat = async () => {
      await page.waitForSelector('svg[data-grid="enemy"] .heat');
      return page.$$eval('svg[data-grid="enemy"] .heat', (cells) => cells.map((c) => [Number(c.dataset.cell), Number(c.dataset.p)]));
    };
    await page.click('#hint');
    let cells = await heat();
    assert.equal(cells.length, 100);
    assert.ok(cells.every(([, p]) => p >= 0 && p <= 1));
    assert.ok(Math.abs(cells.reduce((a, [, p]) => a + p, 0) - 20) < 0.1, 'the chances add up to the fleet');
    assert.match(await page.textContent('#hint-text'), /^Hint: [A-J]\d+ \(\d+% a ship\)/);
    assert.equal(await page.locator('svg[data-grid="enemy"] rect.hinted').count(), 1);
    // Some shots, then the hint again (by the key): only unknown cells are tinted, and
    // the chances there add up to the fleet's cells not yet hit.
    for (let i = 0; i < 100 && v.shots < 8 && !v.ending; i += 7) {
      if (v.enemy_marks[i] !== '.') continue;
      await page.click(cell('enemy', i % 10, Math.floor(i / 10)));
      v = await settled(page);
    }
    assert.equal(await page.locator('svg[data-grid="enemy"] .heat').count(), 0, 'a shot clears the hint');
    await page.keyboard.press('h');
    cells = await heat();
    const unknown = [...v.enemy_marks].filter((m) => m === '.').length;
    const hit = [...v.enemy_marks].filter((m) => m === 'x' || m === '#').length;
    assert.equal(cells.length, unknown);
    assert.ok(cells.every(([i]) => v.enemy_marks[i] === '.'));
    assert.ok(Math.abs(cells.reduce((a, [, p]) => a + p, 0) - (20 - hit)) < 0.1, 'the chances add up to the cells not yet hit');
    await screenshot(page, 'battleship-hint');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});
