// The Web Worker where bots think and slow engine work runs (hints, new sudoku puzzles),
// so the page never freezes. It holds its own copy of the table, loaded from the bytes
// the page sends, and answers with JSON strings or bytes.
import init, { ReversiTable, NardyTable, BattleshipTable, SudokuTable, online_battleship_hint } from './pkg/tabletop_wasm.js';

const classes = { reversi: ReversiTable, nardy: NardyTable, battleship: BattleshipTable, sudoku: SudokuTable };
const ready = init();

self.onmessage = async (e) => {
  const { id, game, op, bytes, args = [] } = e.data;
  try {
    await ready;
    const Table = classes[game];
    let result;
    if (op === 'online-hint') {
      // Online: the hint from the server's view (the page holds no table).
      result = online_battleship_hint(...args);
    } else if (op === 'new') {
      const table = new Table(...args);
      result = table.to_bytes();
      table.free();
    } else {
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
