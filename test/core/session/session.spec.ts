import { beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../../src/core/model/domains/registry';
import { jsonDumps } from '../../../src/core/py/json-dumps';
import { InspectSession } from '../../../src/core/session/session';
import type { EpisodeSummary } from '../../../src/core/contract';
import { sampleRunText, sampleVersion } from '../../support/fixtures';

const writes = (name: string): boolean => TOOLS.retail.get(name)?.writes === true;

describe('InspectSession', () => {
  let session: InspectSession;
  let summaries: EpisodeSummary[];
  beforeAll(() => {
    session = new InspectSession(sampleRunText());
    session.useData([sampleVersion()]);
    summaries = session.summaries();
  });

  it('evaluates every sample episode and agrees with the recorded rewards', () => {
    expect(summaries.every((s) => s.error === null && s.agrees === true)).toBe(true);
    expect(session.finish()).toBe(false);
  });

  it('what-if: giving a failing write the reference arguments flips the DB check', () => {
    const candidate = summaries.find((s) => {
      if (!s.reasons.includes('db-mismatch')) return false;
      const rec = session.records[s.index]!;
      const refWrites = rec.task!.actions.filter((a) => writes(a.name));
      const view = session.view(s.index);
      if ('error' in view) return false;
      const agentWrites = view.steps.filter((st) => writes(st.action));
      return refWrites.length === 1 && agentWrites.length === 1 && agentWrites[0]!.action === refWrites[0]!.name;
    });
    expect(candidate, 'the sample run has a single-write DB mismatch').toBeDefined();
    const index = candidate!.index;
    const view = session.view(index);
    if ('error' in view) throw new Error(view.error);
    const write = view.steps.find((st) => writes(st.action))!;
    const ref = session.records[index]!.task!.actions.find((a) => writes(a.name))!;
    const fixed = session.whatIf(index, [{ messageIndex: write.messageIndex, kwargsJson: jsonDumps(ref.kwargs) }]);
    if ('error' in fixed) throw new Error(fixed.error);
    expect(fixed.verdict.rActions).toBe(true);
    expect(fixed.verdict.agentHash).toBe(fixed.verdict.gtHash);
    expect(view.verdict.rActions).toBe(false);
  });

  it('what-if: bad JSON arguments give a clear error', () => {
    const view = session.view(0);
    if ('error' in view) throw new Error(view.error);
    const r = session.whatIf(0, [{ messageIndex: view.steps.find((s) => s.action !== 'respond')!.messageIndex, kwargsJson: '{"order_id": ' }]);
    expect(r).toMatchObject({ error: expect.stringMatching(/not a JSON object: Expecting value/) });
  });

  it('search finds episodes by message text', () => {
    const hits = session.search('###stop###');
    expect(hits.length).toBeGreaterThan(0);
    expect(session.search('no such text anywhere 1234567')).toEqual([]);
  });

  it('search leaves out the system prompt, which every episode shares', () => {
    const records = session.records;
    const textOf = (roles: (r: unknown) => boolean) =>
      records.map((r) =>
        r.traj
          .filter((m) => roles(m.get('role')))
          .map((m) => String(m.get('content') ?? ''))
          .join('\n')
          .toLowerCase(),
      );
    const system = textOf((r) => r === 'system');
    const rest = textOf((r) => r !== 'system');
    // A word of the policy that no user, agent or tool message uses.
    const word = [...new Set(system[0]!.split(/[^a-z]+/))].find((w) => w.length > 6 && system.every((t) => t.includes(w)) && rest.every((t) => !t.includes(w)));
    expect(word, 'some policy word appears only in the system prompts').toBeDefined();
    expect(session.search(word!)).toEqual([]);
  });

  it('gives the transcript of an episode without data', () => {
    const bare = new InspectSession(sampleRunText());
    const t = bare.transcript(1)!;
    expect(t.index).toBe(1);
    expect(t.messages.length).toBe(bare.records[1]!.traj.length);
    expect(t.messages.every((m) => m.stepIndex === null && m.observationOf === null)).toBe(true);
    expect(t.messages.find((m) => m.role === 'user')?.content).toBe(bare.records[1]!.traj.find((m) => m.get('role') === 'user')?.get('content'));
    expect(t.instruction).toBe(bare.records[1]!.task?.instruction ?? '');
    expect(bare.transcript(999)).toBeNull();
  });
});
