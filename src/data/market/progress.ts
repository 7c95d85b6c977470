import { performance } from 'node:perf_hooks';

// Progress output of `seed`: on a terminal, one updating line per table (done/total, a bar, rows per second),
// redrawn in place; otherwise plain log lines, one when a table is complete and at most one every few seconds
// while it loads.

export type SeedProgressEvent = { table: string; done: number; total: number; estimated?: true };

type Stream = { isTTY?: boolean; columns?: number; write(text: string): unknown };
type TableState = SeedProgressEvent & { started: number; updated: number; logged: number; complete: boolean };

const BAR = 20;
const REDRAW_MS = 100;
const LOG_EVERY_MS = 5000;

const count = (n: number) => n.toLocaleString('en-US');

function line(state: TableState, width: number, now: number): string {
  const ratio = state.total > 0 ? Math.min(1, state.done / state.total) : 1;
  const filled = Math.round(ratio * BAR);
  const seconds = ((state.complete ? state.updated : now) - state.started) / 1000;
  const rate = seconds > 0.05 ? `${count(Math.round(state.done / seconds))} rows/s` : '';
  const total = `${state.estimated ? '~' : ''}${count(state.total)}`;
  const text = `  ${state.table.padEnd(22)} [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${`${Math.floor(ratio * 100)}%`.padStart(4)}  ${count(state.done)}/${total}  ${rate}`;
  return text.length >= width ? text.slice(0, Math.max(10, width - 1)) : text;
}

export function seedProgressPrinter(stream: Stream, now: () => number = () => performance.now()) {
  const tables = new Map<string, TableState>();
  const tty = stream.isTTY === true;
  let drawn = 0;
  let lastDraw = -Infinity;
  // A table's first statement was sent about when the previous event arrived.
  let lastEvent = now();

  const draw = () => {
    const at = now();
    lastDraw = at;
    const width = stream.columns ?? 100;
    let out = drawn > 0 ? `\x1b[${drawn}F` : '';
    for (const state of tables.values()) out += `\x1b[2K${line(state, width, at)}\n`;
    drawn = tables.size;
    stream.write(out);
  };

  return {
    onProgress(event: SeedProgressEvent) {
      const at = now();
      let state = tables.get(event.table);
      if (!state) {
        state = { ...event, started: lastEvent, updated: at, logged: at, complete: false };
        tables.set(event.table, state);
      }
      lastEvent = at;
      Object.assign(state, { done: event.done, total: event.total, estimated: event.estimated, updated: at });
      const complete = !event.estimated && event.done === event.total;
      const justCompleted = complete && !state.complete;
      state.complete = complete;
      if (tty) {
        if (justCompleted || at - lastDraw >= REDRAW_MS) draw();
      } else if (justCompleted || (!complete && at - state.logged >= LOG_EVERY_MS)) {
        state.logged = at;
        stream.write(`${line(state, Infinity, at)}\n`);
      }
    },
    /** Draws the final state of every table (on a terminal). */
    finish() {
      if (tty && tables.size > 0) draw();
    },
  };
}
