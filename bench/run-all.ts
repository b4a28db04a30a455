/**
 * `npm run bench`: every bench, human-readable.  `npm run bench -- --json`: the same lines on
 * stderr and exactly one JSON object of all numbers on stdout. A new bench is one more line in
 * BENCHES (a function returning a record of numbers).
 */
import { loadavg } from 'node:os';
import { runAppBench } from './browser/app-bench';
import type { BenchResult, Log } from './bench-types';
import { runCliBench } from './cli-bench';
import { runReviewBench } from './review-bench';

const BENCHES: readonly ((log: Log) => Promise<BenchResult>)[] = [runCliBench, runAppBench, runReviewBench];

const json = process.argv.includes('--json');
const log: Log = json ? (line) => process.stderr.write(`${line}\n`) : (line) => process.stdout.write(`${line}\n`);
const results: BenchResult = { load_avg_1m: Number(loadavg()[0]!.toFixed(2)) };
for (const bench of BENCHES) Object.assign(results, await bench(log));
if (json) process.stdout.write(`${JSON.stringify(results)}\n`);
