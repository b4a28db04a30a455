/**
 * Reading a file with damage after damage: N and 2N broken episodes (each one a resume attempt that
 * fails, and a damage note with its line and column), opened from bytes as the CLI does (the
 * plain reader hands such a file to the whole-text one). The 2N row about twice the N row means
 * reading stays linear in the damage; counting each error's line from the start of the text made
 * it quadratic (40,000 broken episodes, 480 KB: 17 s). Prints numbers; asserts nothing.
 */
import { InspectSession, prepareSha256 } from '../src/core/contract';
import type { BenchResult, Log } from './bench-types';

const N = 40_000;

/** `[` n broken episodes `]`: every one fails to parse (`shape`), so nothing in the file is readable. */
const damaged = (n: number, shape: string): Uint8Array => new TextEncoder().encode(`[${Array<string>(n).fill(shape).join(',\n')}]`);

function openMs(bytes: Uint8Array): number {
  const t0 = performance.now();
  try {
    InspectSession.fromBytes(bytes, { domain: 'retail' });
  } catch {
    // Nothing readable: refused, after reading it all.
  }
  return performance.now() - t0;
}

export async function runDamageBench(log: Log): Promise<BenchResult> {
  await prepareSha256();
  const out: BenchResult = {};
  log(`damage bench: a file of broken episodes opened from bytes (${N.toLocaleString('en')} and ${(2 * N).toLocaleString('en')} of them)`);
  for (const [name, shape] of [
    ['unclosed', '{"traj": [}'],
    ['syntax', '{"traj": [1 2], "x": "\u00e9\ud83d\ude00"}'],
  ] as const) {
    const [a, b] = [openMs(damaged(N, shape)), openMs(damaged(2 * N, shape))];
    log(`  ${name.padEnd(9)} ${N}: ${a.toFixed(0)} ms, ${2 * N}: ${b.toFixed(0)} ms (ratio ${(b / a).toFixed(2)}; linear ≈ 2)`);
    out[`damage_${name}_${N}_ms`] = Math.round(a);
    out[`damage_${name}_${2 * N}_ms`] = Math.round(b);
  }
  return out;
}
