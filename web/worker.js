// The Web Worker where bots think and slow engine work runs (hints, new sudoku puzzles),
// so the page never freezes. It holds its own copy of the table, loaded from the bytes
// the page sends, and answers with JSON strings or bytes.
import init, { ReversiTable, NardyTable, BattleshipTable, SudokuTable, online_battleship_hint, load_reversi_weights } from './pkg/tabletop_wasm.js';

const classes = { reversi: ReversiTable, nardy: NardyTable, battleship: BattleshipTable, sudoku: SudokuTable };
const ready = init();

// Reversi's pattern weights (2.7 MB) are not in the module: fetched the first time a
// reversi bot or hint needs them, next to the module. A failed fetch is forgotten, so
// the next request tries again.
const WEIGHTS = new URL('./pkg/reversi-patterns.bin', import.meta.url);
let weights = null;
function reversiWeights() {
  weights ??= (async () => {
    let bytes;
    try {
      const response = await fetch(WEIGHTS);
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (err) {
      throw new Error(`the reversi bot's weights (pkg/reversi-patterns.bin) could not be downloaded: ${err?.message ?? err}`);
    }
    load_reversi_weights(bytes);
  })().catch((err) => {
    weights = null;
    throw err;
  });
  return weights;
}

self.onmessage = async (e) => {
  const { id, game, op, bytes, args = [] } = e.data;
  try {
    await ready;
    const Table = classes[game];
    let result;
    if (op === 'prefetch') {
      // Ahead of a bot's first move: what the game's bots need.
      if (game === 'reversi') await reversiWeights();
      result = null;
    } else if (op === 'online-hint') {
      // Online: the hint from the server's view (the page holds no table).
      result = online_battleship_hint(...args);
    } else if (op === 'new') {
      const table = new Table(...args);
      result = table.to_bytes();
      table.free();
    } else {
      if (game === 'reversi' && (op === 'bot' || op === 'hints')) await reversiWeights();
      const table = Table.load(bytes);
      try {
        if (op === 'bot') result = table.bot_action(args[0]) ?? null;
        else if (op === 'hints') result = table.hints(...args);
        else throw new Error(`unknown operation ${op}`);
      } finally {
        table.free();
      }
    }
    self.postMessage({ id, ok: true, result });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err?.message ?? err) });
  }
};
