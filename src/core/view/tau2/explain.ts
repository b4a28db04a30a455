/** How τ² judged one simulation, step by step down to the product (the CLI's `explain`). */
import { modelDump, pyJsonDumps, type TValue } from '../../py/pydantic';
import type { Tau2Evaluation } from '../../judge/tau2/evaluate';
import type { Tau2Task } from '../../model/episode/tau2/types';
import { tau2Findings } from './findings';
import { formatReward } from '../format';
import { communicateEvidence, mergedOf, speechLines, type VoiceCommunicate } from './voice/evidence';
import type { MergedSpeech } from '../../model/episode/tau2/ticks';
import { communicateSpan } from './communicate-span';
import { callName, messageName } from './numbering';

const args = (v: TValue): string => pyJsonDumps(modelDump(v));
const num = (x: number): string => formatReward(x);
const short = (h: string | null): string => (h === null ? '—' : h.slice(0, 12));

/** `findings`: end with what τ² does not count (the report lists those apart). */
export function tau2Explain(e: Tau2Evaluation, task: Tau2Task | null, findings = true): string[] {
  const s = e.simulation;
  const out: string[] = [`simulation ${s.index} (${s.id}), task ${s.taskId}, termination ${s.terminationReason}`];
  if (e.premature) {
    out.push(`1. Terminated by ${s.terminationReason}, not agent_stop/user_stop: τ² gives reward 0.0 and runs no check.`);
    return out;
  }
  if (e.error !== null) {
    out.push(`1. The evaluation could not be done: ${e.error}. Reward 0.0.`);
    return out;
  }
  const c = task?.criteria;
  if (!c) {
    out.push('1. The task has no evaluation criteria: reward 1.0.');
    return out;
  }
  const basis = c.rewardBasis;
  out.push(
    `1. Reward basis: ${basis.join(', ')} — τ² multiplies these components, each checked below in this order; the checks outside the basis follow the reward and do not count.`,
  );
  let n = 2;
  if (s.fullDuplex)
    out.push(
      `${n++}. A full-duplex (voice) simulation: judged from its ${s.ticks?.length ?? 0} ticks — the calls in them replayed in tick order (within a tick the user's before the agent's; the task's message history not used), the communicate check on the agent's merged speech.`,
    );
  const components = componentLines(e);
  const inBasis = COMPONENT_ORDER.filter((k) => basis.includes(k)).sort((a, b) => basis.indexOf(a) - basis.indexOf(b));
  for (const k of inBasis) {
    const [head, ...rest] = components[k];
    const value = e.rewardBreakdown?.get(k);
    out.push(`${n++}. ${k} (in the reward${value === undefined ? ', not in τ²’s product' : ` = ${num(value)}`}): ${head ?? ''}`, ...rest);
  }
  const parts = [...(e.rewardBreakdown ?? [])].map(([k, v]) => `${k} ${num(v)}`);
  out.push(`${n++}. Reward = ${parts.length > 0 ? parts.join(' × ') : '1.0'} = ${num(e.reward)}`);
  const rec = s.rewardInfo?.get('reward');
  if (typeof rec === 'number') out.push(`   recorded: ${num(rec)}${rec === e.reward ? ' (same)' : ' (DIFFERENT)'}`);
  for (const k of COMPONENT_ORDER.filter((x) => !basis.includes(x))) {
    const [head, ...rest] = components[k];
    if (head !== undefined && !components.empty.has(k)) out.push(`${n++}. ${k} (${NOT_IN_REWARD}): ${head}`, ...rest);
  }
  if (findings) for (const f of tau2Findings(e)) out.push(`   not counted: ${f.text}`);
  return out;
}

/** How the explain and the checks panel mark a component the task's `reward_basis` leaves out. */
export const NOT_IN_REWARD = 'not in this task’s reward';

const COMPONENT_ORDER = ['DB', 'ENV_ASSERTION', 'ACTION', 'COMMUNICATE', 'NL_ASSERTION'] as const;
type Component = (typeof COMPONENT_ORDER)[number];

/** Each component's evidence (first line: what it found; the rest indented), and which components the task gives nothing to check. */
function componentLines(e: Tau2Evaluation): Record<Component, string[]> & { empty: Set<Component> } {
  const empty = new Set<Component>();
  const none = (k: Component, what: string): string[] => {
    empty.add(k);
    return [`the task has no ${what}, so τ² counts 1`];
  };
  const db: string[] = [];
  if (e.dbHash) {
    db.push(
      `the agent's calls replayed on a fresh environment (only known tools that write; reads and unknown tools skipped), the reference actions on another;`,
      `   agent DB gold ${short(e.dbHash.goldAgent)} vs predicted ${short(e.dbHash.predictedAgent)}` +
        (e.dbHash.goldUser !== null || e.dbHash.predictedUser !== null
          ? `, user DB gold ${short(e.dbHash.goldUser)} vs predicted ${short(e.dbHash.predictedUser)}`
          : '') +
        ` → ${e.dbHashNondeterministic ? 'not comparable: a tool drew a random bill id, so no one can reproduce these hashes' : e.dbMatch ? 'match (1.0)' : 'differ (0.0)'}`,
    );
    if (e.readLogAllowlist !== undefined)
      db.push(
        e.readLogAllowlist.length > 0
          ? `   read-log allowlist (the tools the task's gold actions call through call_discoverable_agent_tool): ${e.readLogAllowlist.join(', ')} — a read of one of these is logged into the hashed DB (agent_discoverable_tools); any other read is not, writes always are (τ² v1.0.1, #329)`
          : `   read-log allowlist: empty (no gold action calls a discoverable tool) — reads of discoverable tools are not logged into the hashed DB, writes are (τ² v1.0.1, #329)`,
      );
  } else {
    empty.add('DB');
    db.push('the task has no reference actions and no env assertions: no environment is built, so τ² counts 1');
  }
  const env = (e.envAssertions ?? []).map(
    (a) => `   Env assertion ${a.assertion.funcName}(${args(a.assertion.arguments)}) on the ${a.assertion.envType}'s environment: ${a.met ? 'met' : 'NOT met'}`,
  );
  const actions = (e.actionChecks ?? []).map(
    (a) =>
      `   Action ${a.action.name}(${args(a.action.arguments)})${a.action.compareArgs ? ` comparing ${a.action.compareArgs.join(', ') || 'no argument'}` : ''}: ${
        a.actionMatch ? `called (${callName(a.matchedCall!)})` : 'never called with these arguments'
      }`,
  );
  const voice = e.simulation.fullDuplex ? voiceEvidence(e) : null;
  const communicate = (e.communicateChecks ?? []).flatMap((m, k) =>
    voice === null
      ? [
          `   Communicate '${m.info}' (lower-cased, in an assistant message with commas removed): ${m.met ? `found in ${messageName(m.messageIndex!)}` : 'not found'}`,
        ]
      : [
          `   Communicate '${m.info}' (lower-cased, commas removed, in the agent's speech merged as τ² merges it: consecutive chunks whose utterance ids overlap joined with no separator, a space where the id changes, chunks with tool calls left out): ${
            m.met ? `found in merged message ${m.messageIndex}` : 'not found'
          }`,
          ...voiceLines(voice.evidence[k], voice.speech),
        ],
  );
  const nl = (e.nlAssertions ?? []).map(
    (m) =>
      `   NL assertion '${m.assertion}': ${m.met === null ? 'no verdict recorded' : m.met ? 'met' : 'NOT met'} (judged by an LLM when the run was made, not recomputed)`,
  );
  const all = (xs: readonly { met?: boolean | null; actionMatch?: boolean }[]): string =>
    xs.every((x) => x.met === true || x.actionMatch === true)
      ? 'all met'
      : `${xs.filter((x) => !(x.met === true || x.actionMatch === true)).length} of ${xs.length} not met`;
  return {
    empty,
    DB: db,
    ENV_ASSERTION:
      env.length > 0 ? [`${e.envAssertions!.length} env assertion(s), ${all(e.envAssertions!)}:`, ...env] : none('ENV_ASSERTION', 'env_assertions'),
    ACTION: actions.length > 0 ? [`${e.actionChecks!.length} reference action(s), ${all(e.actionChecks!)}:`, ...actions] : none('ACTION', 'reference actions'),
    COMMUNICATE:
      communicate.length > 0
        ? [`${e.communicateChecks!.length} communicate info(s), ${all(e.communicateChecks!)}:`, ...communicate]
        : none('COMMUNICATE', 'communicate_info'),
    NL_ASSERTION: nl.length > 0 ? [`${e.nlAssertions!.length} NL assertion(s), ${all(e.nlAssertions!)}:`, ...nl] : none('NL_ASSERTION', 'nl_assertions'),
  };
}

const quoted = (t: string, max = 160): string => `'${t.length > max ? `${t.slice(0, max - 1)}…` : t}'`;

/** The text around where `info` is in it (as τ² finds it), else its start. */
function around(text: string, info: string): string {
  const span = communicateSpan(text, info);
  if (span === null || text.length <= 160) return quoted(text);
  const from = Math.max(0, span.start - 70);
  const to = Math.min(text.length, span.end + 70);
  return `${from > 0 ? '…' : ''}'${text.slice(from, to)}'${to < text.length ? '…' : ''}`;
}

function voiceEvidence(e: Tau2Evaluation): { evidence: readonly VoiceCommunicate[]; speech: readonly MergedSpeech[] } | null {
  const ticks = e.simulation.ticks;
  if (!ticks || !e.spoken) return null;
  let user: ReturnType<typeof speechLines> = [];
  try {
    user = speechLines(mergedOf(ticks, 'user'), 'user');
  } catch {
    user = [];
  }
  return { evidence: communicateEvidence(e, e.spoken, speechLines(e.spoken, 'agent'), user) ?? [], speech: e.spoken };
}

/** The merge a communicate check was found in (its chunks, tick by tick, where the info lies), or its nearest miss. */
function voiceLines(c: VoiceCommunicate | undefined, speech: readonly MergedSpeech[]): string[] {
  if (c === undefined) return [];
  if (c.found) {
    const m = speech[c.found.line]!;
    const parts = m.parts.filter((p) => c.found!.ticks.includes(p.tickId));
    const joined = parts.map(
      (p, i) =>
        `${i > 0 && p.at !== null && parts[i - 1]!.at !== null && p.at > parts[i - 1]!.at! + parts[i - 1]!.text.length ? '␣ + ' : ''}tick ${p.tickId} '${p.text}'`,
    );
    return [
      `   merged message ${c.found.line} (${m.parts.length} chunk${m.parts.length === 1 ? '' : 's'}, ticks ${m.ticks[0]}–${m.ticks[m.ticks.length - 1]}): ${around(c.found.text, c.info)}`,
      `   the info is in: ${joined.join(' + ')}`,
    ];
  }
  if (c.nearMiss)
    return [`   nearest miss (${c.nearMiss.kind}, ticks ${c.nearMiss.ticks.join(', ') || '—'}): ${c.nearMiss.why}`, `   ${around(c.nearMiss.text, c.info)}`];
  return ['   nowhere near: not said by the agent or the user, not in any tool output'];
}
