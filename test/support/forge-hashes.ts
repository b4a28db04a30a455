/**
 * Forged results files for the detection specs (issue 20 item 1): a real run of ../shared/runs with
 * some recorded gt_data_hash values replaced by the reference hashes of another data version. Made
 * in memory; nothing forged is kept in the repository.
 */
import { KNOWN_DATA_VERSIONS, type DataVersion } from '../../src/core/model/data/versions';
import { jsonDumps } from '../../src/core/py/json-dumps';
import { parseJson } from '../../src/core/py/json-parse';
import type { PyDict, PyValue } from '../../src/core/py/value';
import { InspectSession } from '../../src/core/session/session';
import { readShared, sharedDb } from './shared';

/** The episode with its recorded gt_data_hash (info.reward_info.info.gt_data_hash) replaced. */
export function withGtHash(e: PyValue, hash: string): PyValue {
  const copy = (m: PyDict, key: string, f: (v: PyValue) => PyValue): PyDict => new Map([...m].map(([k, v]) => [k, k === key ? f(v) : v]));
  return copy(e as PyDict, 'info', (info) =>
    copy(info as PyDict, 'reward_info', (ri) => copy(ri as PyDict, 'info', (inner) => copy(inner as PyDict, 'gt_data_hash', () => hash))),
  );
}

/** ../shared/runs/<file> with the recorded gt_data_hash of each of `indices` set to its reference hash on data `commit`. */
export function forgeGtHashes(file: string, indices: readonly number[], commit: string): string {
  const text = readShared('runs', file);
  const session = new InspectSession(text, { dataVersion: commit });
  session.useData(KNOWN_DATA_VERSIONS.map((k): DataVersion => ({ commit: k.commit, known: k, db: sharedDb(k.commit, session.domain), source: 'shared' })));
  const set = new Set(indices);
  return jsonDumps(
    (parseJson(text) as PyValue[]).map((e, i) => {
      if (!set.has(i)) return e;
      const o = session.evaluation(i);
      if (!o.ok) throw new Error(`episode ${i}: ${o.error}`);
      return withGtHash(e, o.value.gtHash);
    }),
  );
}
