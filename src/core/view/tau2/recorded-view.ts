/**
 * A τ² simulation as its file records it, before τ²'s data is here (a shared link opened in a browser that has no
 * τ² DBs yet): the dialogue with each call's recorded answer, and the verdict as `reward_info` records it — the
 * reward, its basis and breakdown, the DB check's match, each env assertion, action check, communicate check and NL
 * assertion with its recorded `met`. Nothing is replayed or recomputed; the screen says so (`recordedOnly`), and the
 * recomputed view replaces it once the data is in.
 */
import { modelDump, pyJsonDumps, type TDict, type TValue } from '../../py/pydantic';
import type { PyValue } from '../../py/value';
import { recordedRewardOf } from '../../model/episode/episode-record';
import type { Tau2Run, Tau2Simulation, Tau2Task } from '../../model/episode/tau2/types';
import { communicateChecks, type ReplayedCall } from '../../judge/tau2/evaluate';
import { argsEqual } from '../../judge/tau2/compare-args';
import { communicateSpan } from './communicate-span';
import { callName, messageName } from './numbering';
import { tau2Reviews } from './reviews';
import { instructionsOf, messageViews, type Tau2ActionView, type Tau2EnvAssertionView, type Tau2SimView } from './sim-view';

const COMPLETED = new Set(['agent_stop', 'user_stop']);
const COMPONENTS = ['DB', 'ENV_ASSERTION', 'ACTION', 'COMMUNICATE', 'NL_ASSERTION'];

const json = (v: TValue): string => pyJsonDumps(modelDump(v));
const dict = (v: TValue | undefined): TDict | null => (v instanceof Map ? v : null);
const list = (v: TValue | undefined): readonly TValue[] | null => (Array.isArray(v) ? (v as readonly TValue[]) : null);
const text = (v: TValue | undefined): string | null => (typeof v === 'string' ? v : null);
const truth = (v: TValue | undefined): boolean | null => (typeof v === 'boolean' ? v : null);
const number = (v: TValue | undefined): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);

/** Each call as recorded, numbered as a replay numbers it (the order of the calls), its answer the tool message paired by position. */
function recordedCalls(sim: Tau2Simulation): ReplayedCall[] {
  const answers = sim.messages.filter((m) => m.role === 'tool' && !m.multiTool);
  const made = sim.messages.flatMap((m, messageIndex) =>
    (m.role === 'assistant' || m.role === 'user') && m.toolCalls !== null ? m.toolCalls.map((call) => ({ call, messageIndex })) : [],
  );
  return made.map(({ call, messageIndex }, index) => ({
    index,
    messageIndex,
    id: call.id,
    name: call.name,
    requestor: call.requestor,
    arguments: call.arguments,
    knownTool: true,
    mutating: false,
    output: null,
    error: answers[index]?.error ?? false,
    recordedOutput: answers[index]?.content ?? null,
    evaluatorReplayed: false,
  }));
}

function envAssertions(info: TDict): Tau2EnvAssertionView[] | null {
  const recorded = list(info.get('env_assertions'));
  if (recorded === null) return null;
  return recorded.flatMap((r) => {
    const check = dict(r);
    const a = dict(check?.get('env_assertion'));
    if (check === null || a === null) return [];
    const met = truth(check.get('met')) === true;
    return [
      {
        envType: text(a.get('env_type')) ?? '—',
        func: text(a.get('func_name')) ?? '—',
        arguments: json(a.get('arguments') ?? new Map()),
        expected: truth(a.get('assert_value')) === false ? 'False' : 'True',
        actual: met ? 'as expected (recorded)' : 'not as expected (recorded)',
        met,
        message: text(a.get('message')),
      },
    ];
  });
}

function actions(info: TDict, task: Tau2Task | null, calls: readonly ReplayedCall[]): Tau2ActionView[] | null {
  const recorded = list(info.get('action_checks'));
  if (recorded === null) return null;
  const reference = task?.criteria?.actions ?? [];
  return recorded.flatMap((r, k) => {
    const check = dict(r);
    const a = dict(check?.get('action'));
    if (check === null || a === null) return [];
    const name = text(a.get('name')) ?? '—';
    const match = truth(check.get('action_match')) === true;
    const ref = reference.find((x) => x.actionId === text(a.get('action_id'))) ?? reference[k];
    // Where a recorded match was made: the first call of the tool whose compared arguments equal the action's (τ²'s rule).
    const matched = match && ref !== undefined ? calls.find((c) => c.name === ref.name && argsEqual(ref, c.arguments)) : undefined;
    const compare = list(a.get('compare_args'));
    return [
      {
        actionId: text(a.get('action_id')) ?? '',
        name,
        requestor: text(a.get('requestor')) ?? 'assistant',
        arguments: json(a.get('arguments') ?? new Map()),
        compareArgs: compare === null ? null : compare.map((x) => String(x)),
        info: text(a.get('info')),
        match,
        matchedCall: matched?.index ?? null,
        toolType: text(check.get('tool_type')),
        sameName: calls.filter((c) => c.name === name && c.index !== matched?.index).map((c) => c.index),
      },
    ];
  });
}

function communicate(info: TDict, sim: Tau2Simulation): Tau2SimView['communicate'] {
  const recorded = list(info.get('communicate_checks'));
  if (recorded === null) return null;
  return recorded.flatMap((r) => {
    const check = dict(r);
    const s = text(check?.get('info'));
    if (check === null || s === null) return [];
    const met = truth(check.get('met')) === true;
    // Where it was said: the message τ²'s check finds it in (a voice simulation's merged speech is not rebuilt here).
    const at = met && !sim.fullDuplex ? (communicateChecks([s], sim.messages)[0]?.messageIndex ?? null) : null;
    const content = at === null ? null : sim.messages[at]?.content;
    return [{ info: s, met, messageIndex: at, span: content ? communicateSpan(content, s) : null }];
  });
}

function nl(info: TDict): Tau2SimView['nl'] {
  const recorded = list(info.get('nl_assertions'));
  if (recorded === null) return null;
  return recorded.flatMap((r) => {
    const check = dict(r);
    const assertion = text(check?.get('nl_assertion'));
    if (check === null || assertion === null) return [];
    return [{ assertion, met: truth(check.get('met')), justification: text(check.get('justification')) }];
  });
}

/** The lines of "how τ² judged" for a recorded verdict: what was recorded, component by component. */
function walkthrough(v: Omit<Tau2SimView, 'walkthrough'>): string[] {
  const lines = [
    'τ²’s data is not in this browser yet: nothing here is recomputed. This is the verdict the file records (reward_info).',
    `Recorded reward: ${v.recordedRewardText ?? (v.recordedReward === null ? 'none' : String(v.recordedReward))}.`,
  ];
  if (v.premature) lines.push(`Terminated prematurely (${v.termination}): τ² gives 0 without checking anything.`);
  for (const k of v.basis ?? []) lines.push(`${k} (in the reward): recorded ${v.breakdown?.[k] ?? '—'}.`);
  const bad = (v.actions ?? []).filter((a) => !a.match);
  if (v.actions !== null && v.actions.length > 0)
    lines.push(
      `Reference actions: ${v.actions.length - bad.length} of ${v.actions.length} matched as recorded${bad.length ? `; not: ${bad.map((a) => a.name).join(', ')}` : ''}.`,
    );
  for (const c of v.communicate ?? [])
    lines.push(`Communicate '${c.info}': ${c.met ? `said${c.messageIndex === null ? '' : ` in ${messageName(c.messageIndex)}`}` : 'never said'} (recorded).`);
  for (const a of v.actions ?? []) if (a.matchedCall !== null) lines.push(`Action ${a.name}: called (${callName(a.matchedCall)}).`);
  return lines;
}

/** The screen data of simulation `index` from the file alone (see the module's comment). */
export function tau2RecordedSimView(run: Tau2Run, index: number): Tau2SimView {
  const sim = run.simulations[index];
  if (sim === undefined) throw new RangeError(`no simulation ${index} (the file has ${run.simulations.length})`);
  const task = run.tasks.get(sim.taskId) ?? null;
  const info: TDict = sim.rewardInfo ?? new Map();
  const { recordedReward, recordedRewardText } = recordedRewardOf(info.get('reward') as PyValue | undefined);
  const calls = recordedCalls(sim);
  const basisRecorded = list(info.get('reward_basis'));
  const basis = task?.criteria?.rewardBasis ?? basisRecorded?.flatMap((x) => (typeof x === 'string' && COMPONENTS.includes(x) ? [x] : [])) ?? null;
  const breakdownRecorded = dict(info.get('reward_breakdown'));
  const breakdown =
    breakdownRecorded === null
      ? null
      : Object.fromEntries([...breakdownRecorded].flatMap(([k, x]) => (typeof k === 'string' && number(x) !== null ? [[k, number(x)!]] : [])));
  const db = dict(info.get('db_check'));
  const view: Omit<Tau2SimView, 'walkthrough'> = {
    benchmark: 'tau2',
    index: sim.index,
    simulationId: sim.id,
    taskId: sim.taskId,
    trial: sim.trial === null ? '—' : String(sim.trial),
    termination: sim.terminationReason,
    premature: !COMPLETED.has(sim.terminationReason),
    reward: recordedReward ?? 0,
    recordedReward,
    ...(recordedRewardText !== undefined && { recordedRewardText }),
    agrees: null,
    error: null,
    note: COMPLETED.has(sim.terminationReason) ? null : `Simulation terminated prematurely. Termination reason: ${sim.terminationReason}`,
    basis,
    breakdown,
    instructions: instructionsOf(task),
    messages: messageViews(sim, calls),
    db:
      db === null
        ? null
        : {
            match: truth(db.get('db_match')),
            hashes: { goldAgent: null, predictedAgent: null, goldUser: null, predictedUser: null },
            nondeterministic: false,
            diff: [],
            diffError: null,
          },
    envAssertions: envAssertions(info),
    actions: actions(info, task, calls),
    communicate: communicate(info, sim),
    nl: nl(info),
    findings: [],
    reviews: tau2Reviews(sim),
    writes: [],
    recordedOnly: true,
  };
  return { ...view, walkthrough: walkthrough(view) };
}
