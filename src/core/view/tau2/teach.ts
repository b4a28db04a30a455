/**
 * A τ² simulation as a teaching sheet (core/view/teach.ts): the components of the task's `reward_basis`, in its
 * order, each with what τ² checks for it — the DB hash against the reference actions' DB, each env assertion, each
 * reference action, each communicate string, each NL assertion — and τ²'s answer with its evidence (the same
 * components and evidence as the verdict panel's, `tau2Components`). Read from the simulation's view: recomputed, or
 * as the file records it (`recordedOnly`).
 */
import { formatRecorded } from '../format';
import type { TeachComponent, TeachItem, TeachSheet } from '../teach';
import { tau2Components, type Tau2ComponentName } from './components';
import { NOT_IN_REWARD } from './explain';
import { callName, callNames, messageName } from './numbering';
import type { Tau2SimView } from './sim-view';

const NAMES: Readonly<Record<Tau2ComponentName, string>> = {
  DB: 'DB check',
  ENV_ASSERTION: 'Env assertions',
  ACTION: 'Reference actions',
  COMMUNICATE: 'Communicate',
  NL_ASSERTION: 'NL assertions',
};

const ASKS: Readonly<Record<Tau2ComponentName, string>> = {
  DB:
    'Is the DB at the end exactly the DB the task’s reference actions make? τ² replays the calls of the dialogue on the initial DB, ' +
    'the reference actions on another copy, and compares the two DBs’ hashes: any difference in any record fails it.',
  ENV_ASSERTION: 'Does each of these hold on the environment at the end of the dialogue?',
  ACTION: 'Was each of these called, with these arguments (only those compared, when the task names them)?',
  COMMUNICATE: 'Did the agent tell the user each of these (the text inside an agent message, case and commas ignored)?',
  NL_ASSERTION: 'Does the dialogue satisfy each of these? (An LLM judged them when the run was made; its answer is shown as recorded.)',
};

const EMPTY: Readonly<Record<Tau2ComponentName, string>> = {
  DB: 'The task has no reference actions and no env assertions: there is nothing to compare.',
  ENV_ASSERTION: 'The task has no env assertions.',
  ACTION: 'The task has no reference actions.',
  COMMUNICATE: 'The task has no communicate_info: nothing has to be said.',
  NL_ASSERTION: 'The task has no NL assertions.',
};

const who = (r: string): string => (r === 'user' ? 'the user (on their device)' : 'the agent');

function items(v: Tau2SimView, k: Tau2ComponentName): TeachItem[] {
  switch (k) {
    case 'DB':
      return [];
    case 'ENV_ASSERTION':
      return (v.envAssertions ?? []).map((a, i) => ({
        key: `${k}#${i}`,
        asks: `${a.func}(${a.arguments}) is ${a.expected}`,
        detail: a.message,
        met: a.met,
        evidence: `${a.met ? 'holds' : 'does not hold'}: expected ${a.expected}, actual ${a.actual}`,
        message: null,
        call: null,
      }));
    case 'ACTION':
      return (v.actions ?? []).map((a, i) => ({
        key: `${k}#${i}`,
        asks: `${a.name}(${a.arguments}) by ${who(a.requestor)}`,
        detail: a.compareArgs === null ? null : `compared: ${a.compareArgs.length === 0 ? 'no argument' : a.compareArgs.join(', ')}`,
        met: a.match,
        evidence:
          a.match && a.matchedCall !== null
            ? `called as written: ${callName(a.matchedCall)}`
            : a.match
              ? 'called as written'
              : a.sameName.length > 0
                ? `never called as written; ${callNames(a.sameName)} of ${a.name} differ in the arguments compared`
                : `never called as written: ${a.name} was not called`,
        message: null,
        call: a.matchedCall ?? a.sameName[0] ?? null,
      }));
    case 'COMMUNICATE':
      return (v.communicate ?? []).map((c, i) => ({
        key: `${k}#${i}`,
        asks: `‘${c.info}’`,
        detail: null,
        met: c.met,
        evidence: c.met ? `said${c.messageIndex === null ? '' : ` in ${messageName(c.messageIndex)}`}` : 'no agent message says it',
        message: c.messageIndex,
        call: null,
      }));
    case 'NL_ASSERTION':
      return (v.nl ?? []).map((c, i) => ({
        key: `${k}#${i}`,
        asks: c.assertion,
        detail: null,
        met: c.met,
        evidence: `${c.met === null ? 'not judged' : c.met ? 'met' : 'not met'} (recorded)${c.justification ? `: ${c.justification}` : ''}`,
        message: null,
        call: null,
      }));
  }
}

/** A DB check's differing records, field by field, each with the calls that wrote it (predicted vs the reference actions' DB). */
function dbProof(v: Tau2SimView): string[] {
  return (v.db?.diff ?? []).slice(0, 20).map((d) => {
    const where = `${d.db === 'user' ? 'user DB · ' : ''}${d.table}${d.key === null ? '' : `/${d.key}`}`;
    const fields = d.fields
      .slice(0, 6)
      .map((f) => `${f.path}: ${f.predicted ?? '(absent)'} here, ${f.gold ?? '(absent)'} in the reference DB`)
      .join('; ');
    const by = d.blame.length > 0 ? ` (written by ${callNames(d.blame)})` : ' (no call of the dialogue wrote it: the reference actions did)';
    return `${where}${by}: ${fields || (d.predicted === null ? 'missing here' : d.gold === null ? 'not in the reference DB' : 'differs')}`;
  });
}

/** The reference actions a DB check replays, for the student to hold against the dialogue. */
const references = (v: Tau2SimView): string[] => (v.actions ?? []).map((a) => `${a.name}(${a.arguments}) by ${who(a.requestor)}`);

export function tau2TeachSheet(v: Tau2SimView): TeachSheet {
  const lines = tau2Components(v);
  const components: TeachComponent[] = lines
    .filter((l) => l.inBasis)
    .map((l) => ({
      key: l.component,
      name: NAMES[l.component],
      asks: l.empty ? EMPTY[l.component] : ASKS[l.component],
      context: l.component === 'DB' && !l.empty ? references(v) : [],
      items: items(v, l.component),
      empty: l.empty,
      value: l.value,
      evidence: l.evidence,
      proof: l.component === 'DB' ? dbProof(v) : [],
      message: null,
      call: l.component === 'DB' ? (v.db?.diff.flatMap((d) => d.blame)[0] ?? null) : null,
    }));
  const before =
    v.error !== null
      ? `τ² could not judge this simulation (${v.error}).`
      : v.premature
        ? `The simulation stopped early (${v.termination}): τ² gives 0 without checking anything.`
        : v.basis === null
          ? (v.note ?? 'The task has no evaluation criteria.')
          : null;
  return {
    judge: 'τ²',
    task: v.taskId,
    rule: 'The reward is the product of the components of the task’s reward basis: 1.0 only if every one is met.',
    components,
    outside: lines.filter((l) => !l.inBasis).map((l) => `${NAMES[l.component]} (${NOT_IN_REWARD}): ${l.evidence}`),
    reward: v.recordedOnly ? v.recordedReward : v.reward,
    recomputed: v.recordedOnly !== true,
    recorded: formatRecorded(v),
    before,
  };
}
