/**
 * Sizes of what a reviewer hands on, over one results file (gpt-4o-airline.json by default):
 * the share link of each episode (`#ep=…`, deflated JSON in base64url) and the offline report.
 * Prints numbers; asserts nothing.
 */
import { readFileSync } from 'node:fs';
import { join, resolve, basename } from 'node:path';
import { decodeResultsBytes, InspectSession, prepareSha256, sessionReportHtml } from '../src/core/contract';
import { dataReader } from '../src/cli/data-reader';
import { encodePayload as encodeEpisode } from '../src/formats/share-codec';
import type { BenchResult, Log } from './bench-types';

const shared = resolve(import.meta.dirname, '../../shared');
const dataDir = process.env.TAU_BENCH_DATA ?? join(shared, 'tau-bench');

export async function runReviewBench(log: Log, file = join(shared, 'runs', 'gpt-4o-airline.json')): Promise<BenchResult> {
  await prepareSha256();
  const session = new InspectSession(decodeResultsBytes(readFileSync(file)));
  session.useData(await session.loadData(dataReader(dataDir), dataDir));
  const sizes = session.records
    .map((_, i) => `#ep=${encodeEpisode(session.episodeJson(i))}&name=${encodeURIComponent(basename(file))}&episode=${i}`.length)
    .sort((a, b) => a - b);
  const median = sizes.length
    ? sizes.length % 2
      ? sizes[(sizes.length - 1) / 2]!
      : Math.round((sizes[sizes.length / 2 - 1]! + sizes[sizes.length / 2]!) / 2)
    : 0;
  const max = sizes.at(-1) ?? 0;
  const t0 = performance.now();
  const html = sessionReportHtml(session, { title: basename(file) });
  const reportMs = performance.now() - t0;
  const reportBytes = new TextEncoder().encode(html).length;
  log(`review-bench: ${basename(file)} — ${sizes.length} episodes`);
  log(`  share link (#ep=…): median ${median} bytes, max ${max} bytes`);
  log(`  offline report: ${reportBytes} bytes, built in ${reportMs.toFixed(0)} ms (evaluation included)`);
  return { share_link_bytes_median: median, share_link_bytes_max: max, report_bytes: reportBytes, report_ms: Math.round(reportMs) };
}
