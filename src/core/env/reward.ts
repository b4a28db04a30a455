import { OutputHaystack, type Span } from './output-match';
import type { Db, Domain } from '../model/data/db';
import type { RewardRule } from '../model/data/versions';
import { RESPOND } from '../model/episode/actions';
import type { Action, Task } from '../model/episode/types';
import { jsonDumps } from '../py/json-dumps';
import { typeName } from '../py/value';
import { applyTool, type ExecutedStep } from './replay';

export type { RewardRule };

export interface GroundTruthStep {
  readonly action: Action;
  readonly observation: string | null;
  readonly skipped: boolean;
  /** The reference DB after this action. */
  readonly state: Db;
}

export interface GroundTruth {
  readonly state: Db;
  readonly steps: readonly GroundTruthStep[];
}

/** Reference replay: every task action except terminate tools, on a fresh DB. */
// Python parity: tau_bench.envs.base.Env.calculate_reward (ground-truth replay through self.step).
export function replayGroundTruth(domain: Domain, initial: Db, actions: readonly Action[]): GroundTruth {
  let state = initial;
  const steps: GroundTruthStep[] = [];
  for (const action of actions) {
    if (action.name === 'transfer_to_human_agents') {
      steps.push({ action, observation: null, skipped: true, state });
      continue;
    }
    if (action.name === RESPOND) {
      // A respond in a reference would reach the user simulator; it never changes the DB.
      steps.push({ action, observation: null, skipped: true, state });
      continue;
    }
    const out = applyTool(domain, state, action);
    state = out.state;
    steps.push({ action, observation: out.observation, skipped: false, state });
  }
  return { state, steps };
}

export const groundTruthKey = (domain: Domain, task: Task): string => `${domain}|${task.actions.map((a) => `${a.name}:${jsonDumps(a.kwargs)}`).join('|')}`;

export interface OutputCheck {
  readonly output: string;
  readonly found: boolean;
  /** The executed step whose respond content matched, and where. */
  readonly match: { readonly stepIndex: number; readonly messageIndex: number; readonly span: Span } | null;
}

export interface OutputsResult {
  readonly checks: readonly OutputCheck[];
  /** Outputs check raised (a respond whose content is not a string was reached). */
  readonly crash: string | null;
}

/** The outputs check over executed respond actions, in τ-bench's loop order. */
// Python parity: tau_bench.envs.base.Env.calculate_reward (outputs loop; duplicates collapse).
export function checkOutputs(outputs: readonly string[], steps: readonly ExecutedStep[]): OutputsResult {
  const checks = new Map<string, OutputCheck>();
  // Each respond content is normalised once, however many outputs are checked against it.
  const haystacks = new Map<ExecutedStep, OutputHaystack>();
  for (const output of outputs) {
    let match: OutputCheck['match'] = null;
    for (const step of steps) {
      if (step.action.name !== RESPOND) continue;
      const content = step.action.kwargs.get('content');
      if (typeof content !== 'string')
        return { checks: [...checks.values()], crash: `AttributeError: '${typeName(content ?? null)}' object has no attribute 'lower'` };
      let haystack = haystacks.get(step);
      if (!haystack) haystacks.set(step, (haystack = new OutputHaystack(content)));
      const span = haystack.find(output);
      if (span) {
        match = { stepIndex: step.index, messageIndex: step.agentStep.messageIndex, span };
        break;
      }
    }
    checks.set(output, { output, found: match !== null, match });
  }
  return { checks: [...checks.values()], crash: null };
}

export interface RewardVerdict {
  readonly rule: RewardRule;
  readonly reward: number;
  /** `agent_hash == gt_hash`, whether or not the rule looked at it. */
  readonly rActions: boolean;
  /** Whether the rule compared the DB for this task. */
  readonly dbChecked: boolean;
  /** null when the task lists no outputs. */
  readonly outputs: OutputsResult | null;
  /** The `info` τ-bench records: `{r_actions, gt_data_hash}` or `{r_outputs, outputs}`. */
  readonly infoKind: 'actions' | 'outputs';
}

// Python parity: tau_bench.envs.base.Env.calculate_reward at 14bf0ef (db-and-outputs) and 7362a17 (outputs-only).
export function computeReward(rule: RewardRule, task: Task, rActions: boolean, steps: readonly ExecutedStep[]): RewardVerdict {
  const hasOutputs = task.outputs.length > 0;
  const outputs = hasOutputs ? checkOutputs(task.outputs, steps) : null;
  const outputsOk = outputs === null || (outputs.crash === null && outputs.checks.every((c) => c.found));
  const dbChecked = rule === 'db-and-outputs' || !hasOutputs;
  const reward = (dbChecked ? rActions : true) && outputsOk ? 1 : 0;
  return { rule, reward, rActions, dbChecked, outputs, infoKind: hasOutputs ? 'outputs' : 'actions' };
}
