/**
 * `npm run bench`: every bench, human-readable.  `npm run bench -- --json`: the same lines on
 * stderr and exactly one JSON object of all numbers on stdout. A new bench is one more entry in
 * BENCHES (a function returning a record of numbers). Names after the options pick benches
 * (`npm run -s bench -- --json big`); without names the default ones run. `--repeat=N`: benches
 * that time a noisy whole (the big file in the app) measure it N times and give the median, with
 * the smallest and largest beside it.
 */
import { loadavg } from 'node:os';
import { runAppBench } from './browser/app-bench';
import type { BenchOptions, BenchResult, Log } from './bench-types';
import { runBigBench } from './big-bench';
import { runCliBench } from './cli-bench';
import { runDamageBench } from './damage-bench';
import { runFirstVerdictBench } from './browser/first-verdict-bench';
import { runIndexBench } from './index-bench';
import { runLibraryBench } from './browser/library-bench';
import { runLibraryFolderBench } from './browser/library-folder-bench';
import { runReviewBench } from './review-bench';
import { runSpeedBench } from './speed-bench';
import { runTau2Bench } from './tau2-bench';
import { runTau2BankingBench } from './tau2-banking-bench';
import { runTau2AppBench } from './browser/tau2-app-bench';
import { runWhatIfLinkBench } from './browser/whatif-link-bench';

interface Bench {
  readonly name: string;
  readonly run: (log: Log, options: BenchOptions) => Promise<BenchResult>;
  /** Runs without being named (the default run stays within a few minutes). */
  readonly byDefault: boolean;
}

const BENCHES: readonly Bench[] = [
  { name: 'cli', run: (log) => runCliBench(log), byDefault: true },
  { name: 'app', run: (log) => runAppBench(log), byDefault: true },
  { name: 'review', run: (log) => runReviewBench(log), byDefault: true },
  { name: 'big', run: runBigBench, byDefault: true },
  { name: 'damage', run: runDamageBench, byDefault: true },
  { name: 'tau2', run: runTau2Bench, byDefault: true },
  { name: 'tau2-banking', run: runTau2BankingBench, byDefault: true },
  { name: 'tau2-app', run: runTau2AppBench, byDefault: true },
  { name: 'library', run: runLibraryBench, byDefault: true },
  { name: 'whatif-link', run: runWhatIfLinkBench, byDefault: true },
  // Issue #36's CLI rows, each a median of `--repeat=N` alternating rounds (about a minute a round): `npm run -s bench -- --json --repeat=3 speed`.
  { name: 'speed', run: runSpeedBench, byDefault: false },
  // Issue #36's library-folder rows (folders without an index judged in the built app): `npm run -s bench -- --json --repeat=3 library-folder`.
  { name: 'library-folder', run: runLibraryFolderBench, byDefault: false },
  // Issue #36's app first verdict (gpt-4o-airline, data kept), five opens a round: `npm run -s bench -- --json --repeat=3 first-verdict`.
  { name: 'first-verdict', run: runFirstVerdictBench, byDefault: false },
  // Minutes (an archive of 20,000 episodes indexed twice): run by name, `npm run -s bench -- --json index`.
  { name: 'index', run: runIndexBench, byDefault: false },
];

const args = process.argv.slice(2);
const json = args.includes('--json');
const named = args.filter((a) => !a.startsWith('-'));
const repeatArg = args.find((a) => a.startsWith('--repeat='));
const repeat = repeatArg === undefined ? 1 : Number(repeatArg.slice('--repeat='.length));
if (!Number.isInteger(repeat) || repeat < 1 || repeat > 20) {
  process.stderr.write(`--repeat takes a whole number from 1 to 20, not "${repeatArg}"\n`);
  process.exit(2);
}
const unknown = named.filter((n) => !BENCHES.some((b) => b.name === n));
if (unknown.length > 0) {
  process.stderr.write(`unknown bench ${unknown.join(', ')}; have: ${BENCHES.map((b) => b.name).join(', ')}\n`);
  process.exit(2);
}
const chosen = BENCHES.filter((b) => (named.length > 0 ? named.includes(b.name) : b.byDefault));
const log: Log = json ? (line) => process.stderr.write(`${line}\n`) : (line) => process.stdout.write(`${line}\n`);
const results: BenchResult = { load_avg_1m: Number(loadavg()[0]!.toFixed(2)) };
for (const bench of chosen) Object.assign(results, await bench.run(log, { repeat }));
if (json) process.stdout.write(`${JSON.stringify(results)}\n`);
