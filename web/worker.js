// The Web Worker where bots think and slow engine work runs (hints, new sudoku puzzles),
// so the page never freezes. It holds its own copy of the table, loaded from the bytes
// the page sends, and answers with JSON strings or bytes.
import init, { ReversiTable, NardyTable, BattleshipTable, SudokuTable, online_battleship_hint, load_reversi_weights, load_nardy_weights, nardy_level_needs_network } from './pkg/tabletop_wasm.js';

const classes = { reversi: ReversiTable, nardy: NardyTable, battleship: BattleshipTable, sudoku: SudokuTable };
const ready = init();

// Files the bots need that are not in the module, next to it: fetched the first time
// a bot or hint needs one, then given to the module's loader. A failed fetch (or a file
// the loader refuses) is forgotten, so the next request tries again.
function fetchOnce(file, load, what) {
  const url = new URL(`./pkg/${file}`, import.meta.url);
  let loading = null;
  return () => {
    loading ??= (async () => {
      let bytes;
      try {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
        bytes = new Uint8Array(await response.arrayBuffer());
      } catch (err) {
        throw new Error(`${what} (pkg/${file}) could not be downloaded: ${err?.message ?? err}`);
      }
      load(bytes);
    })().catch((err) => {
      loading = null;
      throw err;
    });
    return loading;
  };
}

// Reversi's pattern weights (2.7 MB): every reversi bot and hint.
const reversiWeights = fetchOnce('reversi-patterns.bin', load_reversi_weights, "the reversi bot's weights");
// Nardy's network (69 KB): the bots and hints of levels 4 to 6 only.
const nardyWeights = fetchOnce('nardy-weights.bin', load_nardy_weights, "the nardy bot's network");

// What an operation on a table of `game` needs fetched first (`table` loaded).
async function needs(game, op, table, args) {
  if (game === 'reversi' && (op === 'bot' || op === 'hints')) await reversiWeights();
  if (game === 'nardy') {
    const level = op === 'bot' ? JSON.parse(table.view()).bot?.level : op === 'hints' ? args[0] : 0;
    if (nardy_level_needs_network(level ?? 0)) await nardyWeights();
  }
}

self.onmessage = async (e) => {
  const { id, game, op, bytes, args = [] } = e.data;
  try {
    await ready;
    const Table = classes[game];
    let result;
    if (op === 'prefetch') {
      // Ahead of a bot's first move: what the game's bots need (the page asks only when
      // a bot that needs a file plays).
      if (game === 'reversi') await reversiWeights();
      if (game === 'nardy') await nardyWeights();
      result = null;
    } else if (op === 'online-hint') {
      // Online: the hint from the server's view (the page holds no table).
      result = online_battleship_hint(...args);
    } else if (op === 'new') {
      const table = new Table(...args);
      result = table.to_bytes();
      table.free();
    } else {
      const table = Table.load(bytes);
      try {
        await needs(game, op, table, args);
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
