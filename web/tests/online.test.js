// Online play in the browser: the real `tabletop serve` (target/debug/tabletop) on
// 127.0.0.1 with a temporary SQLite file, serving web/ at / (--web). Two browser
// contexts (two guests) play a whole nardy game by clicks, one joining by the invite
// link and reloading mid-game, a third watches; then the server is killed and started
// again under a page, which says so and goes on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ROOT, WEB, screenshot } from './harness.js';

const CLI = process.env.TABLETOP_CLI || path.join(ROOT, 'target', 'debug', 'tabletop');
let dir;
let browser;

// Starts `tabletop serve` on `listen`; resolves to { url, addr, proc } once it listens.
function serve(listen = '127.0.0.1:0') {
  const proc = spawn(CLI, ['serve', '--listen', listen, '--database', `sqlite://${path.join(dir, 'server.sqlite')}`, '--web', WEB, '--bot-threads', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: 'warn' },
  });
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${err}`)), 20000);
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on ws:\/\/([^/]+)\//);
      if (m) {
        clearTimeout(timer);
        resolve({ url: `http://${m[1]}/`, addr: m[1], proc });
      }
    });
    proc.on('exit', (code) => reject(new Error(`the server exited (${code}): ${err}`)));
  });
}

function stop(server, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (server.proc.exitCode !== null || server.proc.signalCode !== null) return resolve();
    server.proc.once('exit', () => resolve());
    server.proc.kill(signal);
  });
}

// A page of a new browser context (a new guest), failing the test on any uncaught
// exception or console error except those `allowed` matches.
async function guest(url, allowed = null) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 820 } });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !(allowed && allowed.test(m.text()))) page.errors.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

// The page's view of its table once it has at least `version` and no act on its way.
async function settled(page, version = 0) {
  await page.waitForFunction((n) => {
    const o = window.tabletopOnline;
    return o.view && o.view.version >= n && !o.busy && o.status !== null;
  }, version, { timeout: 30000 });
  return page.evaluate(() => ({ ...window.tabletopOnline.view, seat: window.tabletopOnline.seat, status: window.tabletopOnline.status }));
}

before(() => {
  assert.ok(fs.existsSync(CLI), `the server is built at ${CLI} (cargo build -p tabletop-cli)`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabletop-online-'));
});
after(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('online: two browsers play a whole nardy game by the invite link, one reloads mid-game, a third watches', async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const server = await serve();
  try {
    const a = await guest(server.url);
    await a.waitForSelector('body[data-online="lobby"] #create-table');
    assert.match(await a.textContent('#net'), /Online as p[0-9a-f]+/);
    await a.selectOption('#online-game', 'nardy');
    await a.selectOption('#online-opponent', 'open');
    await a.selectOption('#online-clock', '30+0');
    await screenshot(a, 'online-lobby');
    await a.click('#create-table');
    await a.waitForSelector('body[data-state="waiting"] #invite');
    const invite = await a.inputValue('#invite');
    assert.match(invite, /^http:\/\/127\.0\.0\.1:\d+\/#join=[A-Z0-9]{10}$/);
    const watch = await a.inputValue('#watch');

    const b = await guest(invite);
    let vb = await settled(b);
    assert.equal(vb.seat, 1, 'the invited guest holds the other seat');
    assert.equal(await b.evaluate(() => location.hash), '', 'the invite leaves the address bar');
    const c = await guest(watch);
    const vc = await settled(c);
    assert.equal(vc.seat, null, 'the watch link opens as a spectator');
    assert.match(await c.textContent('#status'), /^Watching — /);
    assert.match(await c.textContent('#clocks'), /White \d+:\d\d · Black \d+:\d\d/);

    const pages = [a, b];
    let v = await settled(a);
    let steps = 0;
    let reloaded = false;
    for (let guard = 0; !v.ending; guard++) {
      assert.ok(guard < 1500, 'the game ends');
      const page = pages[v.to_act];
      const mine = await settled(page, v.version);
      assert.equal(mine.to_act, mine.seat, 'the page to act holds the seat to act');
      assert.equal(await page.getAttribute('body', 'data-state'), 'person');
      const [from, to] = mine.legal[mine.legal.length - 1];
      await page.click(`[data-point="${from}"]`);
      await page.click(`[data-point="${to}"]`);
      steps++;
      v = await settled(page, mine.version + 1);
      if (!reloaded && steps >= 20 && !v.ending && v.to_act === 1 && v.played.length === 0) {
        // The second player reloads at its turn: the same table, position and dice.
        await b.reload();
        await b.waitForSelector('body[data-ready="true"]');
        const after = await settled(b, v.version);
        assert.deepEqual([after.white, after.black, after.dice, after.seat], [v.white, v.black, v.dice, 1]);
        await screenshot(b, 'online-nardy');
        reloaded = true;
      }
    }
    assert.ok(reloaded, 'a reload happened mid-game');
    assert.ok(steps > 30, `a whole game takes many steps (${steps})`);
    for (const page of [a, b, c]) {
      await page.waitForSelector('body[data-state="over"]');
      assert.match(await page.textContent('#status'), /Game over: .*(White|Black)/);
      // The server reveals its seed: each page checks every roll against the commitment.
      await page.waitForSelector('#verified');
      assert.match(await page.textContent('#verified'), /^Dice verified: SHA-256 of the server’?'?s seed is the commitment .* all \d+ rolls of the \d+ turns follow/);
      assert.equal(await page.getAttribute('#verified', 'class'), 'ok');
      assert.deepEqual(page.errors, []);
    }
    assert.ok(v.off[0] === 15 || v.off[1] === 15, 'someone bore off every checker');
    // A rematch: the first to ask makes it, the other is told and gets the same table.
    await a.click('#rematch');
    await a.waitForSelector('body[data-online="table"][data-state="person"], body[data-online="table"][data-state="remote"]');
    await b.waitForSelector('#rematch-ready');
    await b.click('#rematch');
    const next = await a.evaluate(() => window.tabletopOnline.table);
    await b.waitForFunction((t) => window.tabletopOnline.table === t, next);
    const [ra, rb] = [await settled(a), await settled(b)];
    assert.deepEqual([ra.seat, rb.seat], [1, 0], 'the sides swapped');
    for (const page of [a, b, c]) assert.deepEqual(page.errors, []);
    await Promise.all([a, b, c].map((p) => p.context().close()));
  } finally {
    await stop(server);
  }
});

test('online: the page says when the server goes away, keeps the game, and goes on when it is back', async () => {
  browser ??= await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  let server = await serve();
  // Chromium itself logs each refused WebSocket connection while the server is down.
  const page = await guest(server.url, /WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/' failed/);
  try {
    await page.waitForSelector('body[data-online="lobby"] #create-table');
    await page.selectOption('#online-game', 'reversi');
    await page.selectOption('#online-opponent', '1');
    await page.click('#create-table');
    let v = await settled(page);
    await page.click(`[data-square="${v.legal[0]}"]`);
    v = await settled(page, 2);
    const board = v.board;
    await stop(server, 'SIGKILL');
    await page.waitForSelector('#net.bad');
    assert.match(await page.textContent('#net'), /connection to the server was lost.*Nothing is lost/);
    assert.deepEqual((await settled(page)).board, board, 'the board stays while the server is away');
    // A click while away waits for the server; nothing is sent twice or lost.
    await page.click(`[data-square="${v.legal[0]}"]`);
    server = await serve(server.addr);
    await page.waitForSelector('#net.ok', { timeout: 30000 });
    assert.match(await page.textContent('#net'), /connected again/);
    assert.match(await page.textContent('#message'), /Connected again/);
    v = await settled(page, 4);
    assert.equal(v.moves.length, v.version, 'the move made while away was played once, and the bot answered');
    assert.deepEqual(page.errors, []);
  } finally {
    await page.context().close();
    await stop(server);
  }
});

test('online: a public table is listed and joined from the lobby; a wrong code and a resignation are told', async () => {
  browser ??= await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const server = await serve();
  try {
    const a = await guest(server.url);
    await a.waitForSelector('body[data-online="lobby"] #create-table');
    await a.selectOption('#online-game', 'reversi');
    await a.selectOption('#online-side', '1');
    await a.check('#online-public');
    await a.click('#create-table');
    await a.waitForSelector('body[data-state="waiting"]');
    const table = await a.evaluate(() => window.tabletopOnline.table);

    const b = await guest(server.url);
    await b.waitForSelector('body[data-online="lobby"] #create-table');
    await b.fill('#join-code', 'nosuchcode');
    await b.press('#join-code', 'Enter');
    await b.waitForFunction(() => /Cannot join: /.test(document.getElementById('message').textContent));
    assert.equal(await b.getAttribute('body', 'data-online'), 'lobby', 'a wrong code leaves the lobby as it was');
    await b.click('#refresh-list');
    await b.waitForSelector(`#public-tables li[data-table="${table}"]`);
    assert.match(await b.textContent(`#public-tables li[data-table="${table}"]`), /Reversi — Black: open, White: a person/);
    await b.click(`#public-tables li[data-table="${table}"] .join-table`);
    const vb = await settled(b);
    assert.deepEqual([vb.seat, vb.to_act, vb.status], [0, 0, 'playing'], 'the joiner took the open seat, Black, to move');
    const va = await settled(a);
    assert.match(await a.textContent('#status'), /^The opponent’s move — Black to move/);
    // Playing out of turn is not offered: White's page has no legal square to click.
    assert.equal(await a.locator('.cell.legal').count(), 0);
    assert.equal(va.seat, 1);
    await b.click('#resign');
    for (const page of [a, b]) {
      await page.waitForSelector('body[data-state="over"]');
      assert.match(await page.textContent('#status'), /^Game over: .*\(resigned\)/);
      assert.deepEqual(page.errors, []);
    }
    await Promise.all([a, b].map((p) => p.context().close()));
  } finally {
    await stop(server);
  }
});

test('online: battleship between two guests — a placement kept through a reload, random fleets, shots, resign, fleets shown at the end', async () => {
  browser ??= await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const server = await serve();
  try {
    const a = await guest(server.url);
    await a.waitForSelector('body[data-online="lobby"] #create-table');
    await a.selectOption('#online-game', 'battleship');
    await a.selectOption('#online-opponent', 'open');
    await a.click('#create-table');
    await a.waitForSelector('body[data-state="waiting"] #invite');
    const b = await guest(await a.inputValue('#invite'));
    let va = await settled(a);
    let vb = await settled(b);
    assert.deepEqual([va.phase, va.mine, vb.phase, vb.mine], ['placing', true, 'placing', true], 'both seats place at once');
    // The second seat places a ship by hand, reloads, and finds it where it was.
    await b.click('[data-grid="own"] [data-col="0"][data-row="0"]');
    vb = await settled(b, vb.version + 1);
    assert.equal(vb.own.length, 1);
    await b.reload();
    await b.waitForSelector('body[data-ready="true"]');
    vb = await settled(b, vb.version);
    assert.deepEqual(vb.own.map((s) => [s.col, s.row, s.len]), [[0, 0, 4]], 'the draft is kept at the table');
    for (const page of [a, b]) {
      const v = await settled(page);
      await page.click('#random');
      const placed = await settled(page, v.version + 1);
      assert.equal(placed.missing.length, 0);
      await page.click('#start');
    }
    await a.waitForFunction(() => window.tabletopOnline.view?.phase === 'battle');
    await b.waitForFunction(() => window.tabletopOnline.view?.phase === 'battle');
    const pages = [a, b];
    let shots = 0;
    for (let guard = 0; shots < 16; guard++) {
      assert.ok(guard < 100);
      const [xa, xb] = [await settled(a), await settled(b)];
      if (xa.version !== xb.version) continue;
      const page = xa.mine ? a : b;
      const v = xa.mine ? xa : xb;
      assert.ok(xa.mine !== xb.mine, 'one seat shoots at a time');
      assert.match(await page.textContent('#status'), /^Your move — .*Your shot/);
      if (shots === 3) {
        // The hint online: the heat map from this seat's own shots, in the worker.
        await page.click('#hint');
        await page.waitForSelector('svg[data-grid="enemy"] .heat');
        const unknown = [...v.enemy_marks].filter((m) => m === '.').length;
        assert.equal(await page.locator('svg[data-grid="enemy"] .heat').count(), unknown);
        assert.match(await page.textContent('#hint-text'), /^Hint: [A-J]\d+ \(\d+% a ship\)/);
      }
      const cell = v.enemy_marks.indexOf('.');
      await page.click(`[data-grid="enemy"] [data-col="${cell % v.width}"][data-row="${Math.floor(cell / v.width)}"]`);
      await settled(page, v.version + 1);
      await pages[1 - pages.indexOf(page)].waitForFunction((n) => window.tabletopOnline.view?.version >= n, v.version + 1);
      shots++;
    }
    [va, vb] = [await settled(a), await settled(b)];
    assert.equal(va.own.length, 10);
    assert.deepEqual([va.enemy_fleet, vb.enemy_fleet], [[], []], 'no fleet of the other seat before the end');
    assert.equal(va.shots + vb.shots, 16);
    await a.click('#resign');
    for (const page of [a, b]) {
      await page.waitForSelector('body[data-state="over"]');
      const v = await settled(page);
      assert.equal(v.enemy_fleet.length, 10, 'the fleets are shown at the end');
      await page.waitForSelector('#verified');
      assert.match(await page.textContent('#verified'), /^Fleets verified: 2 fleets at the end are the ones the server committed to/);
      assert.deepEqual(page.errors, []);
    }
    assert.match(await b.textContent('#status'), /^Game over: You won/);
    await screenshot(b, 'online-battleship');
    await Promise.all([a, b].map((p) => p.context().close()));
  } finally {
    await stop(server);
  }
});

// The solution of a small sudoku the page shows (the page never has it online): plain
// backtracking over the view's puzzle.
function solve(v) {
  const n = v.side;
  const grid = [...v.puzzle];
  const ok = (i, d) => {
    const [r, c] = [Math.floor(i / n), i % n];
    for (let k = 0; k < n * n; k++) {
      if (grid[k] !== d || k === i) continue;
      const [kr, kc] = [Math.floor(k / n), k % n];
      const sameBox = Math.floor(kr / v.box_rows) === Math.floor(r / v.box_rows) && Math.floor(kc / v.box_cols) === Math.floor(c / v.box_cols);
      if (kr === r || kc === c || sameBox) return false;
    }
    return true;
  };
  const fill = (i) => {
    if (i === n * n) return true;
    if (grid[i]) return fill(i + 1);
    for (let d = 1; d <= n; d++) {
      if (!ok(i, d)) continue;
      grid[i] = d;
      if (fill(i + 1)) return true;
    }
    grid[i] = 0;
    return false;
  };
  assert.ok(fill(0), 'the puzzle has a solution');
  return grid;
}

test('online: sudoku from the lobby — digits by click and key, a pencil mark, a mistake, a reload, a watcher, solved', async () => {
  browser ??= await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const server = await serve();
  try {
    const a = await guest(server.url);
    await a.waitForSelector('body[data-online="lobby"] #create-table');
    await a.selectOption('#online-game', 'sudoku');
    assert.equal(await a.locator('#online-opponent').count(), 0, 'a sudoku has no opponent');
    assert.deepEqual(await a.$$eval('#online-rule-size option', (o) => o.map((x) => x.value)), ['4', '6', '9']);
    await a.selectOption('#online-rule-size', '4');
    await a.click('#create-table');
    let v = await settled(a);
    assert.deepEqual([v.game, v.side, v.seat, v.status, v.mine], ['sudoku', 4, 0, 'playing', true]);
    assert.match(await a.textContent('#status'), /^Your move — \d+ of 16 cells filled · mistakes 0/);
    const solution = solve(v);
    const empty = v.puzzle.map((d, i) => (d ? null : i)).filter((i) => i !== null);
    assert.ok(empty.length >= 4);
    const c = await guest(await a.inputValue('#watch'));
    assert.equal((await settled(c)).seat, null, 'the watch link shows the grid to a spectator');

    // A pencil mark, then a wrong digit by the pad: one mistake, shown to the watcher.
    await a.click(`[data-cell="${empty[0]}"]`);
    await a.click('#pencil');
    await a.click(`#pad [data-digit="${solution[empty[0]]}"]`);
    v = await settled(a, v.version + 1);
    assert.notEqual(v.notes[empty[0]], 0, 'the pencil mark is at the table');
    await a.click('#pencil');
    const wrong = (solution[empty[0]] % 4) + 1;
    await a.click(`#pad [data-digit="${wrong}"]`);
    v = await settled(a, v.version + 1);
    assert.equal(v.grid[empty[0]], wrong);
    assert.equal(v.mistakes, 1);
    await c.waitForFunction((m) => window.tabletopOnline.view?.mistakes === m, 1);
    // Typed over by the keyboard, then a reload keeps the grid.
    await a.keyboard.press(String(solution[empty[0]]));
    v = await settled(a, v.version + 1);
    assert.equal(v.grid[empty[0]], solution[empty[0]]);
    await a.reload();
    await a.waitForSelector('body[data-ready="true"]');
    const again = await settled(a, v.version);
    assert.deepEqual(again.grid, v.grid, 'the reload finds the grid as it was');
    for (const i of empty.slice(1)) {
      v = await settled(a);
      await a.click(`[data-cell="${i}"]`);
      await a.click(`#pad [data-digit="${solution[i]}"]`);
      await a.waitForFunction(([cell, d]) => window.tabletopOnline.view?.grid[cell] === d, [i, solution[i]]);
    }
    for (const page of [a, c]) {
      await page.waitForSelector('body[data-state="over"]');
      assert.match(await page.textContent('#status'), /^Game over: Solved in \d+:\d\d with 1 mistake/);
      assert.deepEqual(page.errors, []);
    }
    await Promise.all([a, c].map((p) => p.context().close()));
  } finally {
    await stop(server);
  }
});
