/**
 * The copy-on-write DB hasher remembers hashes by how a DB's text departs from the base's: a DB
 * state reached again (other record objects, same text) gets the remembered hash, a different state
 * its own, and both equal the plain sha256 of the whole dump (no base, nothing remembered).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { copyDict, deepCopyValue, PydModel, type TDict, type TValue } from '../../../../src/core/py/pydantic';
import { shallowDbCopy } from '../../../../src/core/model/domains/tau2/toolkit';
import { dbHash, Tau2Environment } from '../../../../src/core/env/tau2/environment';
import type { Tau2Context } from '../../../../src/core/judge/tau2/evaluate';
import { describeTau2 } from '../../../support/shared';
import { openTau2 } from '../../../support/tau2';

describeTau2('τ² DB hasher memo', () => {
  it('retail: the same final state twice hashes alike, another state differently, each as the whole dump hashes', async () => {
    const session = await openTau2('sierra-research__gym-gpt-4.1-retail.json');
    const ctx = (session as unknown as { ctx: Tau2Context }).ctx;
    const replay = (i: number): Tau2Environment => {
      const sim = session.run.simulations[i]!;
      const task = session.run.tasks.get(sim.taskId)!;
      const env = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
      env.setState({ ...task, messageHistory: [] }, []);
      for (const m of sim.messages) for (const c of m.toolCalls ?? []) if (env.hasTool(c.name)) env.getResponse(c);
      return env;
    };
    const plain = (env: Tau2Environment): string => dbHash(env.agent!.db);
    // Two simulations whose agents changed the DB differently.
    const base = dbHash(ctx.base.agent);
    let first: Tau2Environment | null = null;
    let firstIndex = -1;
    let other: Tau2Environment | null = null;
    for (let i = 0; i < session.size && other === null; i++) {
      const env = replay(i);
      const h = plain(env);
      if (h === base) continue;
      if (first === null) [first, firstIndex] = [env, i];
      else if (h !== plain(first)) other = env;
    }
    expect(first && other).toBeTruthy();
    expect(first!.agentHash()).toBe(plain(first!));
    const again = replay(firstIndex);
    // Other objects, same text: the remembered hash, which is the right one.
    expect(again.agent!.db).not.toBe(first!.agent!.db);
    expect(again.agentHash()).toBe(plain(again));
    expect(again.agentHash()).toBe(first!.agentHash());
    expect(other!.agentHash()).toBe(plain(other!));
    expect(other!.agentHash()).not.toBe(first!.agentHash());
  }, 120_000);

  it('retail: a copied table laid out from the keys written to it hashes as its whole dump, whatever is replaced, removed or added', async () => {
    const session = await openTau2('sierra-research__gym-gpt-4.1-retail.json');
    const base = (session as unknown as { ctx: Tau2Context }).ctx.base.agent;
    const tables = [...base.fields].filter(([, v]) => v instanceof Map && v.size > 0).map(([k]) => k);
    const keysOf = (t: string) => [...(base.fields.get(t) as TDict).keys()];
    const edit = fc.record({
      table: fc.constantFrom(...tables),
      // Few places, so edits meet (a key added just before a record replaced or removed).
      at: fc.nat({ max: 4 }),
      kind: fc.constantFrom('replace', 'same', 'remove', 'add'),
      key: fc.string({ maxLength: 6 }),
    });
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 8 }), (edits) => {
        const db = shallowDbCopy(base);
        for (const e of edits) {
          const baseTable = base.fields.get(e.table) as TDict;
          let t = db.fields.get(e.table) as TDict;
          if (t === baseTable) db.fields.set(e.table, (t = copyDict(baseTable)));
          const keys = keysOf(e.table);
          const k = keys[e.at % keys.length]!;
          if (e.kind === 'remove') t.delete(k);
          else if (e.kind === 'same') t.set(k, baseTable.get(k)!);
          // Just before `k` (its prefix), or anywhere.
          else if (e.kind === 'add') t.set(e.key === '' ? k.slice(0, -1) : `${e.key}~${e.at}`, deepCopyValue(baseTable.get(k)!));
          else {
            const rec = deepCopyValue(baseTable.get(k)!) as TValue;
            if (rec instanceof PydModel) rec.fields.set([...rec.fields.keys()][0]!, `changed ${e.at}`);
            t.set(k, rec);
          }
        }
        expect(dbHash(db, base)).toBe(dbHash(db));
      }),
      { numRuns: 100, seed: 36 },
    );
  }, 120_000);
});
