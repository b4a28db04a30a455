import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { EvalCache } from '../../../src/core/judge/cache';
import { DOMAIN_TABLES, type Domain } from '../../../src/core/model/data/db';
import { loadDataVersions, type ReadText } from '../../../src/core/model/data/versions';
import { DATA_DIR, describeShared } from '../../support/shared';

const read: ReadText = (rel) => readFile(join(DATA_DIR, rel), 'utf8').catch(() => null);

describeShared('data versions: a data file the same at two commits is one table in both DBs', () => {
  it.each(['airline', 'retail'] as const)(
    '%s: shared where the files are equal, apart where they differ; each DB hashes to its version’s initial hash',
    async (domain: Domain) => {
      const versions = await loadDataVersions(read, domain, DATA_DIR, (db) => new EvalCache().hash(db));
      expect(versions.length).toBe(2);
      const [a, b] = versions as [(typeof versions)[0], (typeof versions)[0]];
      let shared = 0;
      for (const table of DOMAIN_TABLES[domain]) {
        const [ta, tb] = await Promise.all([a, b].map((v) => read(`${v.commit}/tau_bench/envs/${domain}/data/${table}.json`)));
        expect(a.db.get(table) === b.db.get(table), table).toBe(ta === tb);
        if (ta === tb) shared++;
      }
      // users.json differs between the two commits in both domains; the other files are the same.
      expect(shared).toBe(2);
      // Hashed one after the other on one cache (the second hasher meets records whose text the first kept).
      const cache = new EvalCache();
      for (const v of [b, a]) expect(cache.hash(v.db)).toBe(v.known!.initialHash[domain]);
    },
  );
});
