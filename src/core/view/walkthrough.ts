import type { Db } from '../model/data/db';
import { shortCommit, type DataVersion, type RewardRule } from '../model/data/versions';
import { RESPOND } from '../model/episode/actions';
import type { EpisodeEvaluation } from '../judge/evaluate';
import { finalReward } from '../judge/evaluate';
import { changedRecords } from '../env/replay';
import { pyJsonInline } from './display';
import { occurrences, STEP_LIMIT } from './findings';
import { formatReward, RULE_TEXT } from './format';

/** One line of "how τ-bench judged this episode", with what it is about. */
export interface WalkthroughLine {
  readonly text: string;
  /** Index into the replay's steps. */
  readonly step?: number;
  /** A DB record, `table/key`. */
  readonly record?: string;
  /** Index of a reference action (`info.task.actions`). */
  readonly gold?: number;
  /** A sha256 (hex) this line shows at its end: shown whole, in monospace. */
  readonly hash?: string;
  /** Nesting: 0 a heading line, 1 a detail under it. */
  readonly level: 0 | 1;
}

const clip = (s: string, n = 90): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

const args = (kwargs: ReadonlyMap<string, unknown>, n = 100): string => clip(pyJsonInline(kwargs as never), n);

const f = (r: number): string => formatReward(r);

/**
 * An ordered, plain-language account of what τ-bench's evaluator did with this episode: how
 * messages became actions, the replay, the ending, the reference replay, the hashes, each
 * required output, the rule and the final arithmetic.
 */
export function walkthrough(ev: EpisodeEvaluation, version: DataVersion, rule: RewardRule): WalkthroughLine[] {
  const { replay, record } = ev;
  const task = record.task!;
  const verdict = ev.verdicts[rule];
  const lines: WalkthroughLine[] = [];
  const add = (text: string, at: Omit<WalkthroughLine, 'text' | 'level'> = {}, level: 0 | 1 = 0): void => {
    lines.push({ text, ...at, level });
  };

  const agentMessages = record.traj.filter((m) => m.get('role') === 'assistant').length;
  add(
    ev.strategy === 'tool-calling'
      ? `1. Messages → actions (tool-calling agent): each of the ${agentMessages} agent messages becomes one action — its first tool call only, or, without a tool call, a respond carrying the message text.`
      : `1. Messages → actions (${ev.strategy} agent): each of the ${agentMessages} agent messages becomes one action — the JSON after the last "Action:"; text that is not JSON becomes a respond.`,
  );

  add(`2. Replay of the agent's actions on a fresh copy of the data (${shortCommit(version.commit)}), as Env.step does:`);
  for (const s of replay.steps) {
    const n = s.index + 1;
    const msg = s.agentStep.messageIndex + 1;
    if (s.action.name === RESPOND) {
      const said = s.action.kwargs.get('content');
      add(
        `Step ${n} (message ${msg}): respond "${clip(typeof said === 'string' ? said : String(said), 70)}" → the user's recorded reply "${clip(s.observation, 50)}"${s.done ? ' (contains ###STOP###)' : ''}`,
        { step: s.index },
        1,
      );
      continue;
    }
    const result = s.unknownTool
      ? 'unknown tool'
      : s.observation.startsWith('Error')
        ? clip(s.observation, 60)
        : s.changed.length > 0
          ? `writes ${s.changed.map((c) => `${c.table}/${c.key}`).join(', ')}`
          : 'reads, changes nothing';
    add(
      `Step ${n} (message ${msg}): ${s.action.name}(${args(s.action.kwargs)}) → ${result}`,
      { step: s.index, ...(s.changed.length > 0 && { record: `${s.changed[0]!.table}/${s.changed[0]!.key}` }) },
      1,
    );
  }

  const last = replay.steps.at(-1);
  if (replay.crash)
    add(`3. τ-bench would have crashed at step ${replay.crash.stepIndex + 1}: ${replay.crash.reason}. The run records no verdict.`, {
      step: Math.max(0, replay.crash.stepIndex - 1),
    });
  else if (replay.done && last)
    add(
      `3. The episode ended at step ${last.index + 1}: ${replay.doneBy === 'stop' ? 'the user simulator answered with ###STOP###' : `the agent called ${last.action.name}, a terminate tool`}${replay.ignoredAfterDone > 0 ? `; ${replay.ignoredAfterDone} later agent message${replay.ignoredAfterDone === 1 ? ' was' : 's were'} never executed` : ''}. Now calculate_reward runs.`,
      { step: last.index },
    );
  else
    add(
      `3. The episode never ended: ${ev.agentSteps.length} agent actions, no ###STOP### and no transfer. ${ev.agentSteps.length >= STEP_LIMIT ? `τ-bench's loop stops after ${STEP_LIMIT} steps (max_num_steps=${STEP_LIMIT})` : `The trajectory stops before τ-bench's limit of ${STEP_LIMIT} steps`}; the reward is 0 and calculate_reward is never called. What follows is what it would have said.`,
      last ? { step: last.index } : {},
    );

  add(`4. Fresh replay of the task's ${task.actions.length} reference action${task.actions.length === 1 ? '' : 's'} on another copy of the initial DB:`);
  let before: Db = version.db;
  ev.groundTruth.steps.forEach((g, i) => {
    const changed = changedRecords(before, g.state);
    before = g.state;
    const what = g.skipped
      ? 'skipped (τ-bench does not replay transfers and responds)'
      : changed.length > 0
        ? `writes ${changed.map((c) => `${c.table}/${c.key}`).join(', ')}`
        : (g.observation ?? '').startsWith('Error')
          ? clip(g.observation ?? '', 60)
          : 'reads, changes nothing';
    add(
      `Reference ${i + 1}: ${g.action.name}(${args(g.action.kwargs)}) → ${what}`,
      { gold: i, ...(changed.length > 0 && { record: `${changed[0]!.table}/${changed[0]!.key}` }) },
      1,
    );
  });

  add(`5. Hashes: sha256 of str(to_hashable(db)) of each final DB.`);
  add(`agent DB ${ev.agentHash}`, { hash: ev.agentHash }, 1);
  add(`reference DB ${ev.gtHash}`, { hash: ev.gtHash }, 1);
  if (ev.sameDb) add('Equal: r_actions = 1.', {}, 1);
  else {
    add(`Different: r_actions = 0. ${ev.diff.length} record${ev.diff.length === 1 ? ' differs' : 's differ'}:`, {}, 1);
    for (const d of ev.diff) add(`${d.table}/${d.key}`, { record: `${d.table}/${d.key}` }, 1);
  }

  const responds = replay.steps.filter((s) => s.action.name === RESPOND);
  if (task.outputs.length === 0) add('6. The task lists no required outputs.');
  else {
    add(
      `6. Required outputs: each must be a substring of some respond message after lower-casing it and removing its commas (${responds.length} respond message${responds.length === 1 ? '' : 's'} executed).`,
    );
    for (const c of verdict.outputs?.checks ?? []) {
      if (!c.match) {
        add(
          `"${c.output}": not found in any respond message${c.output.includes(',') ? ' (it contains a comma, which the messages no longer have)' : ''} → r_outputs = 0.`,
          {},
          1,
        );
        continue;
      }
      const s = replay.steps[c.match.stepIndex]!;
      const content = s.action.kwargs.get('content');
      const occ = typeof content === 'string' ? occurrences(c.output, content)[0] : undefined;
      const context = occ ? `"…${occ.haystack.slice(Math.max(0, occ.at - 20), occ.at + c.output.length + 20)}…" at character ${occ.at + 1}` : '';
      add(
        `"${c.output}": found in step ${s.index + 1}, searched as ${context}${occ?.embedded ? ' — inside a longer number or word' : ''}.`,
        { step: s.index },
        1,
      );
    }
    if (verdict.outputs?.crash) add(`The outputs check would raise ${verdict.outputs.crash}.`, {}, 1);
  }

  const rOutputs = verdict.outputs === null ? null : verdict.outputs.crash === null && verdict.outputs.checks.every((c) => c.found) ? 1 : 0;
  const rActions = ev.sameDb ? 1 : 0;
  add(
    `7. Rule of the data version ${version.known ? `${shortCommit(version.commit)} (${version.known.date})` : shortCommit(version.commit)}: ${rule} — ${RULE_TEXT[rule]}.`,
  );
  let arithmetic: string;
  if (rOutputs === null) arithmetic = `reward = r_actions = ${rActions}`;
  else if (verdict.dbChecked) arithmetic = `reward = r_actions × r_outputs = ${rActions} × ${rOutputs} = ${rActions * rOutputs}`;
  else arithmetic = `reward = r_outputs = ${rOutputs} (the DB is not compared for a task with outputs under this rule; r_actions would be ${rActions})`;
  const reward = finalReward(ev, rule);
  add(replay.done ? `8. ${arithmetic}. Reward ${f(reward)}.` : `8. Had it ended: ${arithmetic}. But it never ended, so the reward is ${f(reward)}.`);
  return lines;
}
