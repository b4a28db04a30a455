/**
 * Times the CLI's core path on a whole results file: read, detect, replay every episode,
 * hash, judge. Prints numbers; asserts nothing.  Run alone: npx tsx bench/cli-bench.ts [file]
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDb, DOMAIN_TABLES, type Domain } from '../src/core/model/data/db';
import { KNOWN_DATA_VERSIONS, dataPath, lazyVersion, type DataVersion } from '../src/core/model/data/versions';
import { readResultsFile } from '../src/core/model/episode/results-file';
import { evaluateFile } from '../test/support/evaluate-file';
import { prepareSha256 } from '../src/core/py/sha256';
import type { BenchResult, Log } from './bench-types';

const shared = resolve(import.meta.dirname, '../../shared');
const dataDir = process.env.TAU_BENCH_DATA ?? join(shared, 'tau-bench');

/** Like the CLI: read both versions' files, parse a DB only when detection or replay needs it. */
function versions(domain: Domain): DataVersion[] {
  return KNOWN_DATA_VERSIONS.map((k) => {
    const texts: Record<string, string> = {};
    for (const t of DOMAIN_TABLES[domain]) texts[t] = readFileSync(join(dataDir, dataPath(domain, t, k.commit)), 'utf8');
    return lazyVersion(k.commit, k, dataDir, () => buildDb(domain, texts));
  });
}

export async function runCliBench(log: Log, file = join(shared, 'runs', 'gpt-4o-airline.json')): Promise<BenchResult> {
  await prepareSha256();
  const t0 = performance.now();
  const text = readFileSync(file, 'utf8');
  const records = readResultsFile(text);
  const t1 = performance.now();
  let tData = 0;
  const result = evaluateFile(records, (d) => {
    const s = performance.now();
    const v = versions(d);
    tData = performance.now() - s;
    return v;
  });
  const t2 = performance.now();
  const n = records.length;
  const evalMs = t2 - t1 - tData;
  log(`cli-bench: ${file.split('/').pop()} — ${n} episodes (${result.domain}, data ${result.version.commit.slice(0, 7)}, rule ${result.rule})`);
  log(`  read + parse results file: ${(t1 - t0).toFixed(0)} ms`);
  log(`  read both data versions' files: ${tData.toFixed(0)} ms`);
  log(`  parse the DB it needs + detect + replay + hash + judge: ${evalMs.toFixed(0)} ms (${(evalMs / n).toFixed(1)} ms per episode)`);
  log(`  whole file: ${(t2 - t0).toFixed(0)} ms (${((t2 - t0) / n).toFixed(1)} ms per episode; τ-bench's Python needs about 1000 ms per episode)`);
  return { cli_ms_per_episode: round(evalMs / n, 2), cli_file_ms_per_episode: round((t2 - t0) / n, 2) };
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runCliBench(console.log, process.argv[2]);
