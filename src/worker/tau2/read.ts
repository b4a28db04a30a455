import { readTau2Text, tau2RunRows, Tau2FileError, Tau2Session, type IndexRow, type Tau2Run } from '../../core/contract';
import type { ObjectReader } from '../object-run';
import type { Tau2Data } from './data';
import { MissingData } from '../library/missing-data';

/** τ²'s reader in `read-run.ts`'s registry: a τ²-bench results object (`{info, tasks, simulations}`). */
export const TAU2_READER: ObjectReader = {
  // A file's first bytes that look like a τ²-bench results object (then no τ-bench data is looked for early).
  looks: (prefix) => /^\uFEFF?\s*\{/.test(prefix) && /"(?:environment_info|simulations)"\s*:/.test(prefix),
  read: (text) => {
    const tau2 = readTau2Text(text);
    return tau2 === null ? null : { kind: 'tau2', tau2 };
  },
};

/**
 * The τ² run in a library folder's file, or null when it is not one τ² reads (no results object, or one τ² cannot
 * read: `Tau2FileError`) — then it is judged as a τ-bench file (`folder-library.ts`).
 */
export function readTau2OrNull(text: string): Tau2Run | null {
  try {
    return readTau2Text(text);
  } catch (e) {
    if (e instanceof Tau2FileError) return null;
    throw e;
  }
}

/** A library folder's τ² run judged into index rows with the data an opened run would use. */
export async function tau2LibraryRows(data: Tau2Data, run: Tau2Run, facts: { file: string; content_hash: string }): Promise<IndexRow[]> {
  const found = await data.forLibrary(run.domain);
  if (!found)
    throw new MissingData(
      data.kind,
      `no τ² ${run.domain} data in this browser: pick a τ²-bench data folder (Open ▸ τ²-bench data folder…), or open one τ² run and agree to fetch it; the library is judged again once it is there`,
    );
  const session = await Tau2Session.open(run, found.read, { dbs: found.dbs });
  return tau2RunRows(run, facts, (i) => session.report(i));
}
