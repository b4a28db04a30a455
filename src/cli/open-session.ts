import { readFile } from 'node:fs/promises';
import { InspectSession, prepareSha256, ResultsFileError, type FileOptions } from '../core/contract';
import { tauBenchData } from './tau-bench-cache';
import { UsageError } from './usage';

export const KEPT_EVALUATIONS = 64;

/**
 * Reads a results file (UTF-8 with or without BOM, or UTF-16) and τ-bench's data for its
 * domain, and returns the session with its data chosen — the same session the app's worker uses.
 */
export async function openSession(file: string, data: string, options: FileOptions): Promise<InspectSession> {
  await prepareSha256();
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  let session: InspectSession;
  try {
    // Like the app's worker, the session keeps a few evaluations (each episode's row stays), and
    // reads episodes again from the file's bytes (no whole text is made of a plain file), so a big
    // file costs its bytes and a little per episode, not every replay.
    session = InspectSession.fromBytes(bytes, options, undefined, { keptEvaluations: KEPT_EVALUATIONS });
  } catch (e) {
    if (e instanceof ResultsFileError) throw new ResultsFileError(`${file}: ${e.message}`);
    throw e;
  }
  await chooseDataFrom(session, data);
  // Every recorded gt_data_hash weighed before anything is judged: no verdict is made on a provisional data version.
  session.settleData();
  return session;
}

/**
 * Loads τ-bench's data for the session's domain from `data` and chooses the data version (provisional until `settleData`),
 * with the work kept by an earlier process on the same data taken over first (`tau-bench-cache.ts`; `keepDataWork` keeps
 * this one's when the command has run).
 */
export async function chooseDataFrom(session: InspectSession, data: string): Promise<void> {
  const d = tauBenchData(data);
  const versions = await session.loadData(d.read, data);
  if (versions.length === 0)
    throw new UsageError(
      `no ${session.domain} data under ${data} (looked for <commit>/tau_bench/envs/${session.domain}/data/*.json and tau_bench/envs/${session.domain}/data/*.json)`,
    );
  await d.restore(session, versions);
  session.useData(versions);
}
