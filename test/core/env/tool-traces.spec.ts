import { expect, it } from 'vitest';
import type { Domain } from '../../../src/core/model/data/db';
import { TOOLS } from '../../../src/core/model/domains/registry';
import { executeTool } from '../../../src/core/env/execute';
import { replayGroundTruth } from '../../../src/core/env/reward';
import { consistentHash } from '../../../src/core/py/hash';
import { parseJson } from '../../../src/core/py/json-parse';
import { PyException } from '../../../src/core/py/errors';
import { toPlain, type PyDict } from '../../../src/core/py/value';
import { describeShared, readShared, sharedDb } from '../../support/shared';

interface TraceStep {
  observation?: string;
  done?: boolean;
  raised?: string;
  reward_info?: unknown;
}
interface Trace {
  name: string;
  domain: Domain;
  commit: string;
  actions: { name: string; kwargs: PyDict }[];
  steps: TraceStep[];
  final_db_hash: string;
  referenceActions: { name: string; kwargs: PyDict }[] | null;
}

/** The vectors, parsed once; kwargs keep Python's int/float distinction (Python-dialect parse). */
function readTraces(): Trace[] {
  const raw = parseJson(readShared('expected', 'tool-trace-vectors.json')) as PyDict[];
  const toAction = (a: PyDict) => ({ name: a.get('name') as string, kwargs: a.get('kwargs') as PyDict });
  return raw.map((t) => {
    const steps = (t.get('steps') as PyDict[]).map((st) => toPlain(st) as TraceStep);
    // After an episode ends, env.data holds the reference replay of the task's actions.
    const info = (t.get('steps') as PyDict[]).map((st) => st.get('reward_info')).find((x) => x instanceof Map) as PyDict | undefined;
    return {
      name: t.get('name') as string,
      domain: t.get('domain') as Domain,
      commit: t.get('commit') as string,
      actions: (t.get('actions') as PyDict[]).map(toAction),
      steps,
      final_db_hash: t.get('final_db_hash') as string,
      referenceActions: info ? (info.get('actions') as PyDict[]).map(toAction) : null,
    };
  });
}

describeShared('tool-trace-vectors.json (τ-bench Env.step, 14bf0ef)', () => {
  const traces = readTraces();
  it('has all 29 scenarios', () => expect(traces.length).toBe(29));
  it.each(traces.map((t) => [t.name, t] as const))('%s', (_name, trace) => {
    let state = sharedDb(trace.commit, trace.domain);
    trace.actions.forEach((action, i) => {
      const step = trace.steps[i]!;
      const tool = TOOLS[trace.domain].get(action.name);
      if (!tool) {
        expect(step.observation).toBe(`Unknown action ${action.name}`);
        return;
      }
      const out = executeTool(state, tool, action.kwargs);
      state = out.state;
      if (step.raised === 'ValidationError') expect(out.observation).toBeNull();
      else expect(out.observation, `step ${i} ${action.name}`).toBe(step.observation);
      if (step.done !== undefined) expect(Boolean(tool.terminates), `done at step ${i}`).toBe(step.done);
    });
    if (trace.referenceActions) state = replayGroundTruth(trace.domain, sharedDb(trace.commit, trace.domain), trace.referenceActions).state;
    expect(consistentHash(state)).toBe(trace.final_db_hash);
  });
  it('PyException carries str(e)', () => expect(new PyException('KeyError', "'x'").text).toBe("'x'"));
});
