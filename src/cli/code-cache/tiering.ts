/**
 * V8's optimizing compiler (TurboFan) for a short run: a process that judges a τ² results file or a few (`evaluate`,
 * one thread, at most `SHORT_BYTES` of input) ends before most of what TurboFan compiles on its background thread pays
 * back, so the loader turns it off for such a run (`--no-turbofan`; the interpreter and Sparkplug's baseline code run
 * everything, with the same results: only the speed differs). Measured (CPU, bundled CLI, load 11–13): a 50-simulation
 * airline file 595 → 558 ms; one process per airline file of `../shared/tau2/runs` 16.1 → 14.7 ms per simulation;
 * a 200-episode τ-bench file (4 MB, ~2.4 s) 2.39 → 2.46 s, hence τ² files only (a results object, `{`) and the bound.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

const SHORT_BYTES = 4 * 1024 * 1024;

/** Whether the file's first byte after white space is `{` (a τ² results object; τ-bench's files are lists). */
function opensObject(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf.subarray(0, n).toString('latin1').trimStart()[0];
    return first === '{';
  } finally {
    closeSync(fd);
  }
}

/** Whether `argv` (the CLI's arguments) is a short τ² `evaluate` run: every input a τ² results file, together at most `SHORT_BYTES`. */
export function shortTau2Run(argv: readonly string[]): boolean {
  if (argv[0] !== 'evaluate') return false;
  let total = 0;
  let files = 0;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return false;
    if (a === '--jobs' || a.startsWith('--jobs=')) return false;
    // An option's value (the data folder) is not an input.
    if (a === '--data' || a === '--domain' || a === '--data-version' || a === '--rule' || a === '--episode') {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    try {
      const st = statSync(a);
      if (!st.isFile()) return false;
      total += st.size;
      files++;
      if (total > SHORT_BYTES || !opensObject(a)) return false;
    } catch {
      return false;
    }
  }
  return files > 0;
}

/**
 * `index`'s heap: its workers' heaps grow to a multiple of what they hold before V8 collects the old generation (on the
 * real files ~200 MB each, ~60–90 MB of it live), so the process's peak was ~510–540 MB; growing by what is live at most
 * (`--heap-growing-percent=100`, a V8 flag, process-wide) keeps it near 410–430 MB for no CPU that shows (3 alternating
 * rounds at load 5–5.8: 7.71 → 7.68 s); by half of it (50) near 380 MB, for ~0.5 s more CPU (8.27 s).
 */
export const INDEX_HEAP_FLAGS: readonly string[] = ['--heap-growing-percent=100'];

/** The V8 flags the loader sets for a command (`argv`: the CLI's arguments) before the body is compiled. */
export function v8FlagsFor(argv: readonly string[]): readonly string[] {
  if (argv[0] === 'index') return INDEX_HEAP_FLAGS;
  return shortTau2Run(argv) ? ['--no-turbofan'] : [];
}
