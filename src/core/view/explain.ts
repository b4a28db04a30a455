import type { RewardVerdict } from '../env/reward';
import type { Replay } from '../env/replay';
import type { RecordDiff } from '../model/data/diff-records';

export type ReasonCode = 'db-mismatch' | 'missing-output' | 'never-finished' | 'crash' | 'db-not-judged';

export interface Reason {
  readonly code: ReasonCode;
  readonly text: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Why the reward is what it is, as reason codes (for chips) and texts. */
export function reasons(verdict: RewardVerdict, replay: Replay, diff: readonly RecordDiff[]): Reason[] {
  const out: Reason[] = [];
  if (!replay.done)
    out.push({ code: 'never-finished', text: 'the episode never ended (no ###STOP### after a respond, no transfer), so τ-bench gave 0 without evaluating it' });
  if (!verdict.rActions) {
    const names = diff
      .slice(0, 3)
      .map((d) => `${d.table}/${d.key}`)
      .join(', ');
    const text = `the agent's DB differs from the reference DB in ${plural(diff.length, 'record')} (${names}${diff.length > 3 ? ', …' : ''})`;
    out.push(
      verdict.dbChecked
        ? { code: 'db-mismatch', text }
        : { code: 'db-not-judged', text: `${text}, but the ${verdict.rule} rule does not compare the DB of tasks with required outputs` },
    );
  }
  if (verdict.outputs?.crash) out.push({ code: 'crash', text: `τ-bench's outputs check would raise ${verdict.outputs.crash}` });
  const missing = verdict.outputs?.checks.filter((c) => !c.found) ?? [];
  if (missing.length > 0)
    out.push({
      code: 'missing-output',
      text: `no respond message contains ${missing.map((m) => JSON.stringify(m.output)).join(', ')} (case-insensitive, commas removed from the message)`,
    });
  if (replay.crash) out.push({ code: 'crash', text: `τ-bench would crash at step ${replay.crash.stepIndex + 1}: ${replay.crash.reason}` });
  return out;
}

/** One sentence on why τ-bench gave this reward. */
export function explain(verdict: RewardVerdict, replay: Replay, diff: readonly RecordDiff[]): string {
  const rs = reasons(verdict, replay, diff);
  if (!replay.done) {
    const hypo = verdict.reward;
    return `Reward 0: ${rs[0]!.text}; had it ended here, the verdict would have been ${hypo.toFixed(1)}${
      hypo === 0
        ? ` because ${
            rs
              .slice(1)
              .map((r) => r.text)
              .join(' and ') || 'of the checks below'
          }`
        : ''
    }.`;
  }
  const ended = replay.doneBy === 'stop' ? 'the user sent ###STOP###' : 'the agent transferred to a human agent';
  if (verdict.reward === 1) {
    const parts: string[] = [];
    if (verdict.dbChecked) parts.push('the agent’s final DB hashes exactly like the reference DB (same sha256 of str(to_hashable(db)))');
    if (verdict.outputs)
      parts.push(`every required output appears in a respond message (${verdict.outputs.checks.map((c) => JSON.stringify(c.output)).join(', ')})`);
    const notJudged = rs.find((r) => r.code === 'db-not-judged');
    return `Reward 1: ${ended}, and ${parts.join(' and ')}${notJudged ? `; note: ${notJudged.text}` : ''}. Which tools were called does not matter, only the final state.`;
  }
  const failing = rs.filter((r) => r.code !== 'db-not-judged');
  return `Reward 0: ${ended}, but ${failing.map((r) => r.text).join('; and ')}.`;
}
