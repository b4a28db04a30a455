/**
 * The state of a τ² simulation's DBs at a message (the simulation screen's "State at step"): at the
 * last message, the records it lists as changed are exactly those where the DB after replaying every
 * call differs from the DB after initialization (found here record by record, independently), with
 * the same text; before the first write nothing is listed; each change is tied to writing calls at or
 * before the message.
 */
import { expect, it } from 'vitest';
import { modelDump, PydModel, pyJsonDumps, type TValue } from '../../../../src/core/py/pydantic';
import { Tau2Environment } from '../../../../src/core/env/tau2/environment';
import type { Tau2Context } from '../../../../src/core/judge/tau2/evaluate';
import type { Tau2Session } from '../../../../src/core/session/tau2/session';
import type { Tau2DbSide } from '../../../../src/core/view/tau2/state-at-step';
import { describeTau2 } from '../../../support/shared';
import { openTau2, tau2Expected } from '../../../support/tau2';

const text = (v: TValue | undefined): string | null => (v === undefined ? null : pyJsonDumps(modelDump(v)));

/** Every record (table/key, or a field) whose text differs between two DBs. */
function differing(a: PydModel | null | undefined, b: PydModel | null | undefined): Map<string, string | null> {
  const out = new Map<string, string | null>();
  if (!a || !b) return out;
  for (const table of a.fields.keys()) {
    const x = a.fields.get(table);
    const y = b.fields.get(table);
    if (x instanceof Map && y instanceof Map) {
      for (const key of new Set([...x.keys(), ...y.keys()])) if (text(x.get(key)) !== text(y.get(key))) out.set(`${table}/${String(key)}`, text(x.get(key)));
    } else if (text(x) !== text(y)) out.set(table, text(x));
  }
  return out;
}

function check(session: Tau2Session, i: number, mutating: (call: number) => boolean): number {
  const sim = session.run.simulations[i]!;
  const task = session.run.tasks.get(sim.taskId) ?? null;
  // The session's own context (its domain, base DBs and solo mode): the replay here is independent of the timeline's.
  const ctx = (session as unknown as { ctx: Tau2Context }).ctx;
  const init = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
  const end = new Tau2Environment(ctx.domain, ctx.base, ctx.solo);
  if (task) {
    init.setState({ ...task, messageHistory: [] }, []);
    end.setState({ ...task, messageHistory: [] }, []);
  }
  for (const m of sim.messages) for (const c of m.toolCalls ?? []) if (end.hasTool(c.name)) end.getResponse(c);
  const last = sim.messages.length - 1;
  let changed = 0;
  for (const side of ['agent', 'user'] as Tau2DbSide[]) {
    const dbOf = (e: Tau2Environment) => (side === 'agent' ? e.agent?.db : e.user?.db);
    const want = differing(dbOf(end), dbOf(init));
    const state = session.stateAt(i, last, side, null);
    const got = new Map(state.changes.filter((c) => !c.same).map((c) => [c.key === null ? c.table : `${c.table}/${c.key}`, c.after]));
    expect(got, `simulation ${i}, ${side} DB`).toEqual(want);
    changed += got.size;
    for (const c of state.changes) {
      expect(c.calls.length).toBeGreaterThan(0);
      for (const k of c.calls) {
        expect(mutating(k.call), `simulation ${i}: call ${k.call} writes`).toBe(true);
        expect(k.message).toBeLessThanOrEqual(last);
      }
      // Before the first call that wrote it, the record is not listed.
      const before = session.stateAt(i, c.calls[0]!.message - 1, side, null);
      expect(before.changes.some((x) => x.table === c.table && x.key === c.key)).toBe(false);
      if (c.key !== null && !c.same) {
        // The record browser shows the same text at the message.
        const shown = session.stateAt(i, last, side, { table: c.table, key: c.key });
        expect(shown.record?.text).toBe(c.after);
      }
    }
  }
  return changed;
}

describeTau2('τ² state at a message', () => {
  it.each([
    ['sierra-research__gym-gpt-4.1-retail.json', 12],
    ['sierra-research__gym-gpt-4.1-airline.json', 8],
    ['sierra-research__gym-gpt-4.1-telecom.json', 12],
    ['sierra-research__pr170-e2e-mock-baseline.json', 50],
  ] as const)('%s: the records changed at the last message are those that differ from the initial DB', async (file, limit) => {
    const session = await openTau2(file);
    const expected = tau2Expected(file).simulations as unknown as { tool_calls: { mutating: boolean; known_tool: boolean }[] }[];
    let changed = 0;
    for (let i = 0; i < Math.min(limit, session.size); i++) {
      const calls = expected[i]!.tool_calls;
      changed += check(session, i, (k) => calls[k]!.mutating && calls[k]!.known_tool);
    }
    // The files hold writes: the check is not vacuous.
    expect(changed).toBeGreaterThan(0);
  });
});
