// What every browser test shares: a static server for web/ on 127.0.0.1, headless
// Chromium from Debian (/usr/bin/chromium) driven by playwright-core, a page that fails
// the test on any uncaught exception or console error, and screenshots.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(WEB, '..');
const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png',
};

// Serves web/ on 127.0.0.1 at a free port; resolves to { url, close }. `files` replaces
// what some paths serve: `null` for a 404, bytes for other content (a host without
// reversi's weights, a damaged download).
export function serve({ files = {} } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname in files) {
      const body = files[url.pathname];
      if (body === null) res.writeHead(404).end('not found');
      else res.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
      return;
    }
    const file = path.join(WEB, decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname));
    if (!file.startsWith(WEB) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// Starts the server and the browser; `open(game)` gives a fresh page of the app (with
// `errors`, every uncaught exception and console error) showing `game`. `files` as for
// `serve`.
export async function start({ files } = {}) {
  const server = await serve({ files });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1100, height: 820 }, acceptDownloads: true });
  async function open(game, { fast = true, settings = {} } = {}) {
    const page = await context.newPage();
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(`uncaught: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') page.errors.push(`console: ${m.text()}`); });
    await page.addInitScript(([fast, settings]) => {
      if (fast) localStorage.setItem('tabletop.botDelay', '0');
      const old = JSON.parse(localStorage.getItem('tabletop.settings') || '{}');
      localStorage.setItem('tabletop.settings', JSON.stringify({ ...old, ...settings }));
    }, [fast, settings]);
    await page.goto(`${server.url}?game=${game}`);
    await page.waitForSelector('body[data-ready="true"]');
    return page;
  }
  async function stop() {
    await browser.close();
    await server.close();
  }
  return { server, browser, context, open, stop };
}

// The view of the running game, as the page has it.
export function view(page) {
  return page.evaluate(() => window.tabletop.view);
}

// Waits until the person may act or the game is over (no bot thinking).
export async function settled(page) {
  await page.waitForFunction(() => {
    const v = window.tabletop.view;
    return v && (v.ending || !v.bot) && window.tabletop.thinking === null;
  }, null, { timeout: 60000 });
  return view(page);
}

// Writes a screenshot to docs/screenshots/NAME.png.
export async function screenshot(page, name) {
  const dir = path.join(ROOT, 'docs', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

// Downloads the running game's save through the page's button; resolves to its path.
export async function downloadSave(page, dir) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

