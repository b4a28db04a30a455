/** How τ² judged one simulation, step by step down to the product (the CLI's `explain`). */
import { modelDump, pyJsonDumps, type TValue } from '../../py/pydantic';
import type { Tau2Evaluation } from '../../judge/tau2/evaluate';
import type { Tau2Task } from '../../model/episode/tau2/types';
import { tau2Findings } from './findings';
import { formatReward } from '../format';
import { communicateEvidence, mergedOf, speechLines, type VoiceCommunicate } from './voice/evidence';
import type { MergedSpeech } from '../../model/episode/tau2/ticks';
import { communicateSpan } from './communicate-span';

const args = (v: TValue): string => pyJsonDumps(modelDump(v));
const num = (x: number): string => formatReward(x);
const short = (h: string | null): string => (h === null ? '—' : h.slice(0, 12));

export function tau2Explain(e: Tau2Evaluation, task: Tau2Task | null): string[] {
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
  out.push(`1. Reward basis: ${basis.join(', ')} — the reward is the product of these components; other checks are shown but do not count.`);
  let n = 2;
  if (s.fullDuplex)
    out.push(
      `${n++}. A full-duplex (voice) simulation: judged from its ${s.ticks?.length ?? 0} ticks — the calls in them replayed in tick order (within a tick the user's before the agent's; the task's message history not used), the communicate check on the agent's merged speech.`,
    );
  if (e.dbHash) {
    out.push(
      `${n++}. DB check: the agent's calls replayed on a fresh environment (only known tools that write; reads and unknown tools skipped), the reference actions on another;`,
      `   agent DB gold ${short(e.dbHash.goldAgent)} vs predicted ${short(e.dbHash.predictedAgent)}` +
        (e.dbHash.goldUser !== null || e.dbHash.predictedUser !== null
          ? `, user DB gold ${short(e.dbHash.goldUser)} vs predicted ${short(e.dbHash.predictedUser)}`
          : '') +
        ` → ${e.dbHashNondeterministic ? 'not comparable: a tool drew a random bill id, so no one can reproduce these hashes' : e.dbMatch ? 'match (1.0)' : 'differ (0.0)'}${basis.includes('DB') ? '' : ' — not in the basis'}`,
    );
    if (e.readLogAllowlist !== undefined)
      out.push(
        e.readLogAllowlist.length > 0
          ? `   read-log allowlist (the tools the task's gold actions call through call_discoverable_agent_tool): ${e.readLogAllowlist.join(', ')} — a read of one of these is logged into the hashed DB (agent_discoverable_tools); any other read is not, writes always are (τ² v1.0.1, #329)`
          : `   read-log allowlist: empty (no gold action calls a discoverable tool) — reads of discoverable tools are not logged into the hashed DB, writes are (τ² v1.0.1, #329)`,
      );
  } else out.push(`${n++}. No reference actions and no env assertions: no environment is built, the DB check passes.`);
  for (const a of e.envAssertions ?? [])
    out.push(
      `${n++}. Env assertion ${a.assertion.funcName}(${args(a.assertion.arguments)}) on the ${a.assertion.envType}'s environment: ${a.met ? 'met' : 'NOT met'}${basis.includes('ENV_ASSERTION') ? '' : ' — not in the basis'}`,
    );
  for (const a of e.actionChecks ?? [])
    out.push(
      `${n++}. Action ${a.action.name}(${args(a.action.arguments)})${a.action.compareArgs ? ` comparing ${a.action.compareArgs.join(', ') || 'no argument'}` : ''}: ${
        a.actionMatch ? `called (call ${a.matchedCall! + 1})` : 'never called with these arguments'
      }${basis.includes('ACTION') ? '' : ' — not in the basis'}`,
    );
  const voice = s.fullDuplex ? voiceEvidence(e) : null;
  (e.communicateChecks ?? []).forEach((m, k) => {
    if (voice === null)
      out.push(
        `${n++}. Communicate '${m.info}' (lower-cased, in an assistant message with commas removed): ${m.met ? `found in message ${m.messageIndex}` : 'not found'}${basis.includes('COMMUNICATE') ? '' : ' — not in the basis'}`,
      );
    else {
      out.push(
        `${n++}. Communicate '${m.info}' (lower-cased, commas removed, in the agent's speech merged as τ² merges it: consecutive chunks whose utterance ids overlap joined with no separator, a space where the id changes, chunks with tool calls left out): ${
          m.met ? `found in merged message ${m.messageIndex}` : 'not found'
        }${basis.includes('COMMUNICATE') ? '' : ' — not in the basis'}`,
        ...voiceLines(voice.evidence[k], voice.speech),
      );
    }
  });
  for (const m of e.nlAssertions ?? [])
    out.push(
      `${n++}. NL assertion '${m.assertion}': ${m.met === null ? 'no verdict recorded' : m.met ? 'met' : 'NOT met'} (judged by an LLM when the run was made, not recomputed)`,
    );
  const parts = [...(e.rewardBreakdown ?? [])].map(([k, v]) => `${k} ${num(v)}`);
  out.push(`${n++}. Reward = ${parts.length > 0 ? parts.join(' × ') : '1.0'} = ${num(e.reward)}`);
  const rec = s.rewardInfo?.get('reward');
  if (typeof rec === 'number') out.push(`   recorded: ${num(rec)}${rec === e.reward ? ' (same)' : ' (DIFFERENT)'}`);
  for (const f of tau2Findings(e)) out.push(`   not counted: ${f.text}`);
  return out;
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
