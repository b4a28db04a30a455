/**
 * The copy-on-write DB hasher remembers hashes by how a DB's text departs from the base's: a DB
 * state reached again (other record objects, same text) gets the remembered hash, a different state
 * its own, and both equal the plain sha256 of the whole dump (no base, nothing remembered).
 */
import { expect, it } from 'vitest';
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
});
