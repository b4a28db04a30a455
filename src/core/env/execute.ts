import { enableMapSet, produce, setAutoFreeze } from 'immer';
import type { Db } from '../model/data/db';
import { callTool, type ToolDef } from '../model/domains/tool';
import { PyException } from '../py/errors';
import type { PyDict } from '../py/value';
import { WriteTracker, type WritePath } from './write-log';

enableMapSet();
setAutoFreeze(true);

export interface ToolOutcome {
  /** The DB after the call (the same object when nothing changed). */
  readonly state: Db;
  /** `None` from the tool is `null`; a raised exception is already `Error: …`. */
  readonly observation: string | null;
  /** The Python exception the tool raised, when it raised. */
  readonly exception?: PyException;
}

/**
 * Where one call wrote (see `WriteTracker`), found by running it again on the DB it ran on, seen
 * through a tracker that copies what the call writes: the replay itself does not look (it stays
 * as fast as a bare `produce`); blame asks afterwards. No writes for a tool that only reads.
 * The observation is the one the replay got (a spec checks it over every recorded call).
 */
export function writesOfCall(state: Db, tool: ToolDef, kwargs: PyDict): { readonly writes: readonly WritePath[]; readonly observation: string | null } {
  const tracker = new WriteTracker();
  let observation: string | null;
  try {
    observation = callTool(tool, tool.writes ? tracker.root(state) : state, kwargs);
  } catch (e) {
    // Python parity: tau_bench.envs.base.Env.step keeps what was written before the exception.
    if (!(e instanceof PyException)) throw e;
    observation = `Error: ${e.text}`;
  }
  return { writes: tracker.writes, observation };
}

/**
 * Runs one tool call the way `Env.step` does: `tool.invoke(data=state, **kwargs)`, with any
 * exception turned into `Error: {e}`. Changes made before an exception are kept (τ-bench
 * has no rollback).
 */
// Python parity: tau_bench.envs.base.Env.step (the try/except around Tool.invoke).
export function executeTool(state: Db, tool: ToolDef, kwargs: PyDict): ToolOutcome {
  let observation: string | null = null;
  let exception: PyException | undefined;
  const run = (data: PyDict): void => {
    try {
      observation = callTool(tool, data, kwargs);
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
      exception = e;
      observation = `Error: ${e.text}`;
    }
  };
  if (!tool.writes) {
    run(state);
    return exception ? { state, observation, exception } : { state, observation };
  }
  const next = produce(state, (draft) => {
    run(draft);
  });
  return exception ? { state: next, observation, exception } : { state: next, observation };
}
