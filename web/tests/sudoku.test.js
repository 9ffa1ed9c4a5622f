// Sudoku in the browser: a puzzle solved by clicks (cell, then digit) following the
// engine's hints, pencil marks, a conflict highlighted, check, undo, reload, and a new
// puzzle of another size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled, screenshot } from './harness.js';

test('sudoku: solve a puzzle by clicks with hints, notes, conflicts, check, undo and reload', async () => {
  const b = await start();
  try {
    const page = await b.open('sudoku', { settings: { 'sudoku.size': '4', 'sudoku.difficulty': 'easy' } });
    await page.click('#new');
    await page.waitForFunction(() => window.tabletop.view?.side === 4 && window.tabletop.view.version === 0);
    let v = await settled(page);
    const n = v.side;
    const empty = v.grid.findIndex((d) => d === 0);
    // Pencil marks.
    await page.click(`[data-cell="${empty}"]`);
    await page.click('#pencil');
    await page.click('[data-digit="1"]');
    await page.click('[data-digit="2"]');
    assert.equal(await page.locator(`[data-cell="${empty}"] .note`).count(), 2);
    await page.click('#pencil');
    // A digit that repeats a given of the row: the conflict is highlighted, check marks it.
    const row = Math.floor(empty / n);
    const given = v.grid.slice(row * n, row * n + n).find((d) => d !== 0)
      ?? v.grid.filter((_, i) => i % n === empty % n).find((d) => d !== 0);
    await page.click(`[data-digit="${given}"]`);
    v = await settled(page);
    assert.ok(v.conflicts.includes(empty), 'the repeated digit is a conflict');
    assert.ok(await page.locator('[data-cell].conflict').count() >= 2);
    assert.equal(v.mistakes, 1);
    await page.click('#check');
    assert.equal(await page.locator('[data-cell].wrong').count(), 1);
    await page.click('#undo');
    v = await settled(page);
    assert.deepEqual(v.conflicts, []);
    // Reload keeps the puzzle and the notes.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const after = await settled(page);
    assert.deepEqual([after.puzzle, after.grid, after.notes], [v.puzzle, v.grid, v.notes]);
    // Solve it by clicks, as the hints say.
    for (let guard = 0; !v.ending; guard++) {
      assert.ok(guard < 100);
      await page.click('#hint');
      await page.waitForSelector('#hint-text');
      const hint = await page.evaluate(() => window.tabletop.hints.list);
      assert.ok(hint.text.length > 10, 'the hint says why');
      if (guard === 1) await screenshot(page, 'sudoku');
      if (hint.wrong !== null) {
        await page.click(`[data-cell="${hint.wrong}"]`);
        await page.click('[data-digit="0"]');
      }
      for (const [cell, digit] of hint.placements) {
        await page.click(`[data-cell="${cell}"]`);
        await page.click(`[data-digit="${digit}"]`);
      }
      if (!hint.placements.length && hint.wrong === null) await page.click('#apply-hint').catch(() => {});
      v = await settled(page);
    }
    assert.match(await page.textContent('#status'), /Game over: Solved in \d+:\d\d with 1 mistake/);
    assert.match(await page.textContent('#rating'), /Rating \d\.\d \(easy/);
    // A new puzzle of another size and level from the settings.
    await page.click('#settings-box summary');
    await page.selectOption('#setting-size', '6');
    await page.selectOption('#setting-difficulty', 'medium');
    await page.click('#new');
    await page.waitForFunction(() => window.tabletop.view?.side === 6);
    assert.equal(await page.locator('[data-cell]').count(), 36);
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});

test('sudoku: 16×16 and 25×25 puzzles by size, their letters typed', async () => {
  const b = await start();
  try {
    // The page opens on a new puzzle of the settings' size (no second one is asked for:
    // it would replace the first while the test plays).
    const page = await b.open('sudoku', { settings: { 'sudoku.size': '16', 'sudoku.difficulty': 'easy' } });
    await page.waitForFunction(() => window.tabletop.view?.side === 16, null, { timeout: 60000 });
    let v = await settled(page);
    assert.deepEqual([v.box_rows, v.box_cols, v.symbols.length], [4, 4, 16]);
    assert.equal(await page.locator('[data-cell]').count(), 256);
    assert.equal(await page.locator('#pad [data-digit]').count(), 17, 'sixteen symbols and erase');
    assert.ok(v.puzzle.filter((d) => d).length > 0 && v.puzzle.includes(0));
    // A letter goes in by the keyboard: G is 16.
    const empty = v.grid.indexOf(0);
    await page.click(`[data-cell="${empty}"]`);
    await page.keyboard.press('g');
    v = await settled(page);
    assert.equal(v.grid[empty], 16);
    assert.equal(await page.textContent(`[data-cell="${empty}"] text`), v.symbols[15]);
    assert.match(await page.textContent('#status'), new RegExp(`^${v.grid.filter((d) => d).length} of 256 cells filled`));
    // 25×25 from the settings: P is a symbol there (the 25th), not the pencil key.
    await page.click('#settings-box summary');
    await page.selectOption('#setting-size', '25');
    await page.click('#new');
    await page.waitForFunction(() => window.tabletop.view?.side === 25, null, { timeout: 120000 });
    v = await settled(page);
    assert.equal(await page.locator('[data-cell]').count(), 625);
    const blank = v.grid.indexOf(0);
    await page.click(`[data-cell="${blank}"]`);
    await page.keyboard.press('p');
    v = await settled(page);
    assert.equal(v.grid[blank], 25);
    assert.equal(await page.getAttribute('#pencil', 'aria-pressed'), 'false');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.stop();
  }
});
