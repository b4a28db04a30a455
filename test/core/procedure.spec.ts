import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findings } from '../../src/core/view/findings';
import { KNOWN_DATA_VERSIONS } from '../../src/core/model/data/versions';
import { readResultsFile } from '../../src/core/model/episode/results-file';
import { evaluateFile } from '../support/evaluate-file';
import type { EpisodeEvaluation } from '../../src/core/judge/evaluate';
import { hasShared, readShared, SHARED_DIR, sharedDb } from '../support/shared';

/**
 * The synthetic runs pair `gold` episodes (a confirmation turn before each write) with
 * `gold-no-consent` ones (the same writes, no confirmation; τ-bench still gives 1): the
 * procedure check must flag every write of the latter and none of the former.
 */
describe.skipIf(!hasShared)('procedure notes: writes without consent (not judged by τ-bench)', () => {
  const files = hasShared ? readdirSync(join(SHARED_DIR, 'runs')).filter((f) => f.startsWith('synthetic-') && f.includes('gold+gold-no-consent')) : [];
  it('has the gold / gold-no-consent files', () => expect(files.length).toBeGreaterThanOrEqual(2));

  it.each(files)('%s', (file) => {
    const r = evaluateFile(readResultsFile(readShared('runs', file)), (d) =>
      KNOWN_DATA_VERSIONS.map((k) => ({ commit: k.commit, known: k, db: sharedDb(k.commit, d), source: 'shared' })),
    );
    let gold = 0;
    let noConsent = 0;
    for (const o of r.outcomes) {
      if (!o.ok) continue;
      const ev: EpisodeEvaluation = o.value;
      const kind = ev.record.extra.synthetic_kind;
      const writes = ev.replay.steps.filter((s) => s.action.name !== 'respond' && ev.groundTruth.steps.some((g) => g.action.name === s.action.name) && !['transfer_to_human_agents', 'calculate', 'think'].includes(s.action.name) && !s.action.name.startsWith('get_') && !s.action.name.startsWith('find_') && !s.action.name.startsWith('list_') && !s.action.name.startsWith('search_') && !s.observation.startsWith('Error'));
      const flagged = findings(ev, r.version, r.rule).filter((n) => n.kind === 'write-without-consent');
      if (kind === 'gold') {
        gold++;
        expect(flagged, `gold episode ${ev.record.index}`).toEqual([]);
      } else if (kind === 'gold-no-consent') {
        noConsent++;
        expect(flagged.map((n) => n.step), `gold-no-consent episode ${ev.record.index}`).toEqual(writes.map((s) => s.index));
      }
    }
    expect(gold).toBeGreaterThan(10);
    expect(noConsent).toBeGreaterThan(10);
  });
});

describe('procedure notes on the sample run', () => {
  it('flags the return done without consent and notes that a return only records a request', async () => {
    const { readFileSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const { buildDb, DOMAIN_TABLES } = await import('../../src/core/model/data/db');
    const { InspectSession } = await import('../../src/core/session/session');
    const root = resolve(import.meta.dirname, '../..');
    const texts = Object.fromEntries(DOMAIN_TABLES.retail.map((t) => [t, readFileSync(join(root, `sample-runs/data/tau_bench/envs/retail/data/${t}.json`), 'utf8')]));
    const session = new InspectSession(readFileSync(join(root, 'sample-runs/runs/retail-sample.json'), 'utf8'));
    session.useData([{ commit: 'sample', known: null, db: buildDb('retail', texts), source: 'sample' }]);
    const slip = session.view(4);
    const clean = session.view(0);
    if ('error' in slip || 'error' in clean) throw new Error('not evaluable');
    expect(slip.verdict.reward).toBe(1);
    expect(slip.findings.filter((n) => n.group === 'procedure').map((n) => n.kind)).toEqual(['write-without-consent', 'return-only-records-request']);
    expect(clean.findings).toEqual([]);
  });
});
