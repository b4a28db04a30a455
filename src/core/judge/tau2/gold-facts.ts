/** The gold replay's own facts, for the task audit (core/view/library/task-audit.ts): never part of a reward. */
import { exceptionText, type Tau2Environment } from '../../env/tau2/environment';
import type { EnvFunctionCall } from '../../model/episode/tau2/types';
import { pyLower } from '../../py/lower';

/** What replaying the reference actions shows about a task itself (the same for every simulation of it). */
export interface GoldFacts {
  /** Env assertions that fail (or raise) on the gold environment after the reference actions. */
  readonly failingAssertions: readonly { readonly index: number; readonly func: string; readonly error: string | null }[];
  /** Communicate info that no tool output of the gold replay contains (as τ²'s communicate check matches text). */
  readonly unseenInfo: readonly string[];
}

/**
 * The gold environment's own facts, after the reference actions (task audit, not part of any reward): each env
 * assertion run on it as τ² runs them on the predicted one, and each communicate info looked for in the gold
 * replay's tool outputs as τ² looks for it in the agent's messages (lowercased, commas dropped from the text).
 */
export function goldFacts(
  gold: Tau2Environment,
  assertions: readonly EnvFunctionCall[],
  info: readonly string[] | null,
  outputs: readonly string[],
): GoldFacts {
  const failingAssertions: { index: number; func: string; error: string | null }[] = [];
  // A live run answers each call through get_response, which syncs the toolkits after it (telecom's device and line).
  try {
    gold.syncTools();
  } catch {
    /* the assertions below say what fails */
  }
  assertions.forEach((a, index) => {
    try {
      if (!gold.runEnvAssertion(a)) failingAssertions.push({ index, func: a.funcName, error: null });
    } catch (e) {
      failingAssertions.push({ index, func: a.funcName, error: exceptionText(e) });
    }
  });
  const hay = outputs.map((o) => pyLower(o).replaceAll(',', ''));
  const unseenInfo = (info ?? []).filter((s) => !hay.some((h) => h.includes(pyLower(s))));
  return { failingAssertions, unseenInfo };
}
