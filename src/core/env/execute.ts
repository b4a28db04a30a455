import type { Db } from '../model/data/db';
import { noteDerived } from '../model/data/table-delta';
import { callTool, type ToolDef } from '../model/domains/tool';
import { PyException } from '../py/errors';
import type { PyDict } from '../py/value';
import { draftRun, type DictDraft } from './drafts';
import { WriteTracker, type WritePath } from './write-log';

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
  const next = writeDb(state, run);
  return exception ? { state: next, observation, exception } : { state: next, observation };
}

/**
 * Runs `recipe` on a draft of `state` (see `drafts.ts`: only what it changes is copied) and returns
 * the next DB, telling the table-delta module which records each table's writes reached (see
 * `noteLineage`), so comparing the result (or a state derived from it) with the DB it came from
 * looks at those only.
 */
export function writeDb(state: Db, recipe: (draft: Db) => void): Db {
  const { next, root } = draftRun(state, recipe);
  noteLineage(state, next, root);
  return next;
}

/**
 * Tells the table-delta module, for each table the call changed, the keys whose record is not the
 * same object as before (replaced, added, deleted, or changed inside), so a later comparison with
 * the initial DB looks at those keys only. A table assigned as a whole (not written into) gets no
 * lineage: it is compared in full.
 */
function noteLineage(before: Db, after: Db, root: DictDraft): void {
  if (before === after) return;
  after.forEach((t1, table) => {
    const t0 = before.get(table);
    if (t0 === t1 || !(t0 instanceof Map) || !(t1 instanceof Map)) return;
    const draft = root.childAt(table);
    if (draft === null) return;
    const keys: string[] = [];
    for (const k of draft.written()) if (t1.get(k) !== t0.get(k) || t1.has(k) !== t0.has(k)) keys.push(k);
    noteDerived(t0, t1, keys);
  });
}
