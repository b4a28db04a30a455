import type { DataVersion, RewardRule } from '../model/data/versions';
import { RESPOND } from '../model/episode/actions';
import type { EpisodeEvaluation } from '../judge/evaluate';
import { finalReward, RULES } from '../judge/evaluate';
import { pyLower } from '../py/lower';
import { blameWrite, episodeWrites, type EpisodeWrites } from './blame';
import { pathText, pyJsonInline } from './display';
import { fieldDiff } from './field-diff';
import type { PyValue } from '../py/value';
import { procedureFindings, type ProcedureKind } from './procedure';

export type BlindSpotKind =
  | 'output-inside-longer-token'
  | 'output-unmatchable-comma'
  | 'output-outside-respond'
  | 'db-differs-only-in-number-type'
  | 'tool-calls-dropped'
  | 'step-limit-after-match'
  | 'rules-disagree'
  | 'recorded-hash-minority';

export type FindingKind = ProcedureKind | BlindSpotKind;

/** Something worth knowing about how τ-bench judged (or did not judge) an episode; never part of the reward. */
export interface Finding {
  readonly kind: FindingKind;
  /** `procedure`: what the domain policy asks and the reward ignores; `blind-spot`: where the evaluator's rule misleads. */
  readonly group: 'procedure' | 'blind-spot';
  /** Index into the replay's steps; null when the finding is about the whole episode. */
  readonly step: number | null;
  /** The message it is about, when that is not the step's own message (a tool result, text beside a tool call). */
  readonly messageIndex: number | null;
  readonly text: string;
}

/** τ-bench's `max_num_steps` in run.py. */
export const STEP_LIMIT = 30;

const WORD = /[\p{L}\p{N}]/u;

/**
 * Every place `needle` occurs in τ-bench's normalised text of a respond message
 * (`content.lower().replace(",", "")`), and whether each sits inside a longer number or word.
 */
export function occurrences(output: string, content: string): { at: number; embedded: boolean; haystack: string }[] {
  // Python parity: tau_bench.envs.base.Env.calculate_reward (outputs check normalisation).
  const haystack = pyLower(content).replace(/,/g, '');
  const needle = pyLower(output);
  const out: { at: number; embedded: boolean; haystack: string }[] = [];
  if (needle === '') return out;
  const numeric = /^\d/.test(needle) || /\d$/.test(needle);
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack.slice(Math.max(0, at - 2), at);
    const after = haystack.slice(at + needle.length, at + needle.length + 2);
    const b = [...before].at(-1) ?? '';
    const a = [...after][0] ?? '';
    let embedded = (WORD.test(needle[0]!) && WORD.test(b)) || (WORD.test(needle.at(-1)!) && WORD.test(a));
    // A longer number: "327" in "1327.50" or "10" in "0.10".
    if (numeric && (/\d\.$/.test(before) || /^\.\d/.test(after))) embedded = true;
    out.push({ at, embedded, haystack });
  }
  return out;
}

/**
 * Whether two records are the same but for int vs float of equal numbers (and dict key order, which the field diff
 * does not see): the only records whose field diff can be all `intVsFloat` changes. Any other difference — a value,
 * a key, a list's length or an element at its place — is a change of another kind in it.
 */
export function equalAsNumbers(a: PyValue | undefined, b: PyValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  // NaN beside NaN: the field diff's tagged texts are equal there.
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (typeof a === 'bigint' || typeof a === 'number') return (typeof b === 'bigint' || typeof b === 'number') && a == b;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equalAsNumbers(x, b[i]));
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, x] of a) if (!b.has(k) || !equalAsNumbers(x, b.get(k))) return false;
    return true;
  }
  return false;
}

/** Procedure findings and the evaluator's blind spots for one evaluated episode, in step order. */
export function findings(ev: EpisodeEvaluation, version: DataVersion, rule: RewardRule): Finding[] {
  const { replay, record } = ev;
  const task = record.task!;
  const steps = replay.steps;
  const reward = finalReward(ev, rule);
  const out: Finding[] = [];
  const opening = record.traj
    .slice(
      0,
      Math.max(
        0,
        record.traj.findIndex((m) => m.get('role') === 'assistant'),
      ),
    )
    .filter((m) => m.get('role') === 'user')
    .map((m) => m.get('content'))
    .filter((c): c is string => typeof c === 'string')
    .join('\n');
  for (const p of procedureFindings(ev.domain, version.db, steps, {
    reward,
    goldTransfers: task.actions.some((a) => a.name === 'transfer_to_human_agents'),
    opening,
  }))
    out.push({ ...p, group: 'procedure', messageIndex: null });

  const blind = (kind: BlindSpotKind, step: number | null, text: string, messageIndex: number | null = null): void => {
    out.push({ kind, group: 'blind-spot', step, messageIndex, text });
  };
  const stepOfMessage = new Map<number, number>();
  for (const s of steps) {
    stepOfMessage.set(s.agentStep.messageIndex, s.index);
    if (s.agentStep.observationIndex !== null) stepOfMessage.set(s.agentStep.observationIndex, s.index);
  }
  const verdict = ev.verdicts[rule];

  // Messages with more than one tool call: τ-bench's agents act on the first only.
  for (const s of steps) {
    const m = record.traj[s.agentStep.messageIndex];
    const calls = m?.get('tool_calls');
    let dropped: string[] = [];
    if (ev.strategy === 'tool-calling' && Array.isArray(calls) && calls.length > 1)
      dropped = calls.slice(1).map((c) => {
        const fn = c instanceof Map ? c.get('function') : null;
        const name = fn instanceof Map ? fn.get('name') : null;
        return typeof name === 'string' ? name : '?';
      });
    else if (ev.strategy !== 'tool-calling') {
      const content = m?.get('content');
      if (typeof content === 'string') {
        const parts = content.split('Action:');
        dropped = parts.slice(1, -1).map((p) => /"name"\s*:\s*"([^"]+)"/.exec(p)?.[1] ?? '?');
      }
    }
    if (dropped.length > 0)
      blind(
        'tool-calls-dropped',
        s.index,
        `This message carries ${dropped.length + 1} ${ev.strategy === 'tool-calling' ? 'tool calls' : 'actions'}; τ-bench ran only ${ev.strategy === 'tool-calling' ? 'the first' : 'the one after the last "Action:"'} (${s.action.name}) and dropped ${dropped.join(', ')}.`,
      );
  }

  // Required outputs.
  for (const output of [...new Set(task.outputs)]) {
    if (output.includes(',')) {
      blind(
        'output-unmatchable-comma',
        null,
        `The required output "${output}" contains a comma; τ-bench removes commas from the message before searching, so it can never be found.`,
      );
      continue;
    }
    const check = verdict.outputs?.checks.find((c) => c.output === output);
    if (check?.found) {
      let whole = false;
      let firstEmbedded: { step: number; haystack: string; at: number } | null = null;
      for (const s of steps) {
        const content = s.action.name === RESPOND ? s.action.kwargs.get('content') : undefined;
        if (typeof content !== 'string') continue;
        for (const o of occurrences(output, content)) {
          if (!o.embedded) whole = true;
          else firstEmbedded ??= { step: s.index, haystack: o.haystack, at: o.at };
        }
      }
      if (!whole && firstEmbedded) {
        const { haystack, at } = firstEmbedded;
        const from = Math.max(0, at - 12);
        blind(
          'output-inside-longer-token',
          firstEmbedded.step,
          `The required output "${output}" counts as found only inside a longer number or word ("…${haystack.slice(from, at + output.length + 12)}…" after lower-casing and removing commas); no respond message states it on its own.`,
        );
      }
      continue;
    }
    // Not found where τ-bench looks: is it beside a tool call or in a tool result?
    const respondMessages = new Set(steps.filter((s) => s.action.name === RESPOND).map((s) => s.agentStep.messageIndex));
    for (let i = 0; i < record.traj.length; i++) {
      const m = record.traj[i]!;
      const role = m.get('role');
      const content = m.get('content');
      if (typeof content !== 'string' || respondMessages.has(i) || role === 'system') continue;
      let where: string | null = null;
      if (role === 'tool' || (role === 'user' && content.startsWith('API output: '))) where = 'in a tool result';
      else if (role === 'assistant') {
        const calls = m.get('tool_calls');
        where =
          Array.isArray(calls) && calls.length > 0
            ? 'as text beside a tool call'
            : ev.strategy === 'tool-calling'
              ? null
              : 'in an agent message that is not a respond';
      }
      if (where === null || occurrences(output, content).length === 0) continue;
      blind(
        'output-outside-respond',
        stepOfMessage.get(i) ?? null,
        `The required output "${output}" appears ${where} (message ${i + 1}), where τ-bench does not look; only respond messages count.`,
        i,
      );
      break;
    }
  }

  // Records that differ only in int vs float.
  let writes: EpisodeWrites | null = null;
  for (const d of ev.diff) {
    // The field diff (jsondiffpatch over both records) only where it can find nothing but int vs float.
    if (!equalAsNumbers(d.agent, d.reference)) continue;
    const changes = fieldDiff(d.agent, d.reference);
    if (changes.length === 0 || !changes.every((c) => c.intVsFloat)) continue;
    const paths = changes.map(
      (c) =>
        `${pathText(c.path)} (agent ${c.agent === undefined ? '-' : pyJsonInline(c.agent)}, reference ${c.reference === undefined ? '-' : pyJsonInline(c.reference)})`,
    );
    blind(
      'db-differs-only-in-number-type',
      blameWrite((writes ??= episodeWrites(ev.domain, version.db, steps, ev.groundTruth.steps)).agent, d.table, d.key, changes[0]!.path),
      `${d.table}/${d.key} differs from the reference only in int vs float: ${paths.join(', ')}. Equal as numbers, but τ-bench hashes str() of the DB, where 49 and 49.0 differ.`,
    );
  }

  // Step limit although everything matched.
  const outputsOk = verdict.outputs === null || (verdict.outputs.crash === null && verdict.outputs.checks.every((c) => c.found));
  if (!replay.done && replay.crash === null && ev.sameDb && outputsOk)
    blind(
      'step-limit-after-match',
      steps.length > 0 ? steps.length - 1 : null,
      `The episode never ended (${ev.agentSteps.length} agent actions${ev.agentSteps.length === STEP_LIMIT ? `, τ-bench's limit of ${STEP_LIMIT} steps` : ''}, no ###STOP###, no transfer), so τ-bench gave 0 — although the agent's DB already hashes like the reference DB${task.outputs.length > 0 ? ' and every required output was given' : ''}.`,
    );

  // The two rules of τ-bench's history.
  const byRule = Object.fromEntries(RULES.map((r) => [r, finalReward(ev, r)])) as Record<RewardRule, number>;
  if (byRule['outputs-only'] !== byRule['db-and-outputs'])
    blind(
      'rules-disagree',
      null,
      `τ-bench's two rules disagree on this episode: outputs only (before 2024-12-10) gives ${byRule['outputs-only'].toFixed(1)}, DB and outputs (after) gives ${byRule['db-and-outputs'].toFixed(1)}${byRule['outputs-only'] === 1 ? ' — the outputs are right but the DB is not' : ''}.`,
    );
  return out.sort((a, b) => (a.step ?? Infinity) - (b.step ?? Infinity));
}

/** τ-bench's reward under each rule (0 for an episode that never ended). */
export function rewardsByRule(ev: EpisodeEvaluation): Record<RewardRule, number> {
  return { 'outputs-only': finalReward(ev, 'outputs-only'), 'db-and-outputs': finalReward(ev, 'db-and-outputs') };
}
