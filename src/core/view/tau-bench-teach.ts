/**
 * A τ-bench episode as a teaching sheet (core/view/teach.ts): the parts of `calculate_reward` its rule counts — the DB
 * hash against the reference actions' DB, and each output the user must be told — with τ-bench's answer and evidence
 * from the episode's view (recomputed). A part the rule does not count for this task is said after the reveal.
 */
import { formatRecorded } from './format';
import type { EpisodeView } from './episode-view';
import type { TeachComponent, TeachSheet } from './teach';

const short = (h: string): string => h.slice(0, 12);

/** The differing records, field by field, with the step that wrote each on the agent's side. */
function dbProof(v: EpisodeView): string[] {
  return v.diff.slice(0, 20).map((d) => {
    const fields = d.fields
      .slice(0, 6)
      .map(
        (f) =>
          `${f.path}: ${f.agent ?? '(absent)'} here, ${f.reference ?? '(absent)'} in the reference DB${f.agentStep === null ? '' : ` (written at step ${f.agentStep + 1})`}`,
      )
      .join('; ');
    return `${d.table}/${d.key}: ${fields || 'differs'}`;
  });
}

function db(v: EpisodeView): TeachComponent {
  const x = v.verdict;
  const same = x.agentHash === x.gtHash;
  return {
    key: 'DB',
    name: 'DB check',
    asks:
      'Is the DB at the end exactly the DB the task’s reference actions make? τ-bench replays the agent’s calls on the initial DB, ' +
      'the reference actions on another copy, and compares the two DBs’ hashes: any difference in any record fails it.',
    context: v.reference.filter((r) => !r.isRespond).map((r) => `${r.action}(${r.kwargs})`),
    items: [],
    empty: false,
    value: same ? 1 : 0,
    evidence: `agent DB ${short(x.agentHash)}, reference DB ${short(x.gtHash)}: ${same ? 'the same' : `${v.diff.length} record(s) differ`}`,
    proof: same ? [] : dbProof(v),
    message: null,
    call: null,
  };
}

function outputs(v: EpisodeView): TeachComponent | null {
  const o = v.outputs;
  if (o === null || o.length === 0) return null;
  return {
    key: 'OUTPUTS',
    name: 'Outputs',
    asks: 'Did the agent tell the user each of these, in a message to the user (case ignored, commas removed)?',
    context: [],
    items: o.map((x, i) => ({
      key: `OUTPUTS#${i}`,
      asks: `‘${x.output}’`,
      detail: null,
      met: x.found,
      evidence: x.found
        ? `said${x.messageIndex === null ? '' : ` in message #${x.messageIndex}`}`
        : x.elsewhere.length > 0
          ? `not said to the user; it appears where τ-bench does not look (message #${x.elsewhere[0]!.messageIndex})`
          : 'not said to the user',
      message: x.messageIndex ?? x.elsewhere[0]?.messageIndex ?? null,
      call: null,
    })),
    empty: false,
    value: o.every((x) => x.found) ? 1 : 0,
    evidence: `${o.filter((x) => x.found).length} of ${o.length} said to the user`,
    proof: [],
    message: null,
    call: null,
  };
}

export function tauBenchTeachSheet(v: EpisodeView): TeachSheet {
  const x = v.verdict;
  const out = outputs(v);
  const base = db(v);
  const components = [...(x.dbChecked ? [base] : []), ...(out ? [out] : [])];
  return {
    // τ-bench's episodes name their task by a number the row shows; the view does not carry it.
    task: '',
    judge: 'τ-bench',
    rule: `The reward is 1.0 only if every component below is met (τ-bench’s calculate_reward, its ${x.rule} rule).`,
    components,
    outside: x.dbChecked ? [] : [`DB check (not counted by this rule when the task lists outputs): ${base.evidence}`],
    reward: x.reward,
    recomputed: true,
    recorded: formatRecorded(x),
    before: x.crash !== null ? `The run crashed (${x.crash.split('\n')[0]}); τ-bench judged what it left.` : null,
  };
}
