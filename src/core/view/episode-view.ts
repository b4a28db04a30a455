import type { Db } from '../model/data/db';
import { dataLabel, type DataLabel, type DataVersion } from '../model/data/versions';
import { RESPOND } from '../model/episode/actions';
import type { EpisodeEvaluation } from '../judge/evaluate';
import { finalReward } from '../judge/evaluate';
import type { RewardRule } from '../env/reward';
import { pyRepr } from '../py/repr';
import type { PyDict, PyValue } from '../py/value';
import { blameWrite, episodeWrites } from './blame';
import { nearThingsSaid, type NearSaid, type SaidText } from './near-outputs';
import { pathText, prettyJson, pyJson, pyJsonInline, pyJsonLines, type RecordLine } from './display';
import { explain, reasons, type Reason } from './explain';
import { fieldDiff, type FieldChange } from './field-diff';
import { OutputHaystack, type Span } from '../env/output-match';
import { alignActions, type Alignment } from './alignment';
import { findings, rewardsByRule, type Finding } from './findings';
import { walkthrough, type WalkthroughLine } from './walkthrough';

/** Everything the episode screen shows, as plain structured-cloneable data. */
export interface EpisodeView {
  /** Which benchmark's screen data this is (a τ² simulation's is `Tau2SimView`). */
  readonly benchmark: 'tau-bench';
  readonly index: number;
  readonly strategy: string;
  readonly messages: readonly MessageView[];
  readonly steps: readonly StepView[];
  readonly verdict: VerdictView;
  readonly diff: readonly RecordDiffView[];
  readonly outputs: readonly OutputView[] | null;
  readonly reference: readonly ReferenceStepView[];
  readonly instruction: string;
  /** What the reward does not check (procedure) and where its rule misleads (blind spots): not counted by τ-bench. */
  readonly findings: readonly Finding[];
  /** The agent's tool calls lined up against the reference actions. */
  readonly alignment: Alignment;
  /** How τ-bench judged this episode, in order. */
  readonly walkthrough: readonly WalkthroughLine[];
  /** τ-bench's reward under each of its two rules. */
  readonly rules: Readonly<Record<RewardRule, number>>;
  /** Set on a what-if replay: what was removed, and the reward of the episode as recorded. */
  readonly whatIf: WhatIfInfo | null;
}

export interface WhatIfInfo {
  /** Removed agent messages: their action, and the index (in `messages`) of the message now in their place. */
  readonly removed: readonly { readonly before: number; readonly text: string }[];
  /** τ-bench's reward (recomputed) of the episode without the edits. */
  readonly recordedEpisodeReward: number;
  readonly note: string;
}

export interface MessageView {
  readonly index: number;
  readonly role: string;
  readonly content: string | null;
  readonly toolCalls: readonly ToolCallView[];
  /** The executed step this agent message became, if any. */
  readonly stepIndex: number | null;
  /** For a tool result or user turn: the step whose observation it records. */
  readonly observationOf: number | null;
  /** Index of this message in the recorded trajectory (null: inserted by a what-if). */
  readonly originalIndex: number | null;
  /** In a what-if: `edited`/`inserted` by it, or a `recorded` turn after the first change (not re-simulated). */
  readonly whatIf: 'edited' | 'inserted' | 'recorded' | null;
}

export interface ToolCallView {
  readonly name: string;
  /** The arguments as recorded (a JSON string in OpenAI-style messages). */
  readonly arguments: string;
  /** The same arguments pretty-printed (Python's number text kept); null when they are not valid JSON. */
  readonly argumentsPretty: string | null;
}

export type { RecordLine };

export interface FieldChangeView {
  readonly path: string;
  readonly kind: FieldChange['kind'];
  readonly agent: string | null;
  readonly reference: string | null;
  readonly intVsFloat: boolean;
}

export interface RecordChangeView {
  readonly table: string;
  readonly key: string;
  /** The record existed before this step (false: the step created it). */
  readonly existedBefore: boolean;
  /** The record after this step, line by line, the fields this step changed marked; null: deleted. */
  readonly afterLines: readonly RecordLine[] | null;
  /** Field changes of this step (before → after). */
  readonly fields: readonly FieldChangeView[];
}

export interface StepView {
  readonly index: number;
  readonly messageIndex: number;
  readonly observationIndex: number | null;
  readonly action: string;
  /** The action is a `respond` (a message to the user, where outputs are searched). */
  readonly isRespond: boolean;
  /** The arguments, pretty-printed with Python's number text. */
  readonly kwargs: string;
  /** For a respond: the text the user got (the evaluator searches outputs in it). */
  readonly respondText: string | null;
  readonly observation: string;
  readonly recordedObservation: string | null;
  readonly observationDiffers: boolean;
  readonly done: boolean;
  readonly unknownTool: boolean;
  readonly exception: string | null;
  readonly changes: readonly RecordChangeView[];
}

export interface VerdictView {
  readonly reward: number;
  readonly recordedReward: number | null;
  /** A recorded reward that is not a finite number, as shown (`NaN (not a number)`). */
  readonly recordedRewardText?: string;
  readonly hypotheticalReward: number | null;
  readonly done: boolean;
  readonly doneBy: string | null;
  readonly agentHash: string;
  readonly gtHash: string;
  readonly recordedGtHash: string | null;
  readonly rActions: boolean;
  readonly dbChecked: boolean;
  readonly rule: RewardRule;
  readonly dataCommit: string;
  /** What the data version is, typed (worded by `describeData`). */
  readonly data: DataLabel;
  readonly sentence: string;
  readonly reasons: readonly Reason[];
  readonly crash: string | null;
}

export interface RecordDiffView {
  readonly table: string;
  readonly key: string;
  /** Each side's record line by line, its differing fields marked; null where the record is absent. */
  readonly agentLines: readonly RecordLine[] | null;
  readonly referenceLines: readonly RecordLine[] | null;
  /**
   * agentStep / referenceStep: the last step (0-based) whose call wrote this field on that side,
   * even with the value it already had; null when no call touched it (the initial value, or
   * absent from the start).
   */
  readonly fields: readonly (FieldChangeView & { readonly agentStep: number | null; readonly referenceStep: number | null })[];
  /** Every field difference is int vs float only. */
  readonly intVsFloatOnly: boolean;
}

export interface Elsewhere {
  readonly messageIndex: number;
  readonly kind: 'tool-result' | 'beside-tool-call' | 'user-turn' | 'not-a-respond';
  readonly span: Span;
}

export interface OutputView {
  readonly output: string;
  readonly found: boolean;
  readonly stepIndex: number | null;
  readonly messageIndex: number | null;
  /** Offsets into the matching step's `respondText`. */
  readonly span: Span | null;
  /** Places the output appears that τ-bench does not look at. */
  readonly elsewhere: readonly Elsewhere[];
  /** For an output not found: the closest things the agent did say to the user (`nearThingsSaid`). */
  readonly near: readonly NearSaid[];
}

export interface ReferenceStepView {
  readonly action: string;
  /** The action is a `respond` (a message to the user, where outputs are searched). */
  readonly isRespond: boolean;
  /** The arguments, pretty-printed with Python's number text. */
  readonly kwargs: string;
  readonly observation: string | null;
  readonly skipped: boolean;
}

const show = (v: PyValue | undefined): string | null => (v === undefined ? null : pyJsonInline(v));

function fieldViews(changes: readonly FieldChange[]): FieldChangeView[] {
  return changes.map((c) => ({ path: pathText(c.path), kind: c.kind, agent: show(c.agent), reference: show(c.reference), intVsFloat: c.intVsFloat }));
}

const textOf = (v: PyValue | undefined): string | null => (typeof v === 'string' ? v : v === undefined ? null : pyRepr(v));

const rec = (db: Db, table: string, key: string): PyValue | undefined => {
  const t = db.get(table);
  return t instanceof Map ? t.get(key) : undefined;
};

/** One message as the dialogue shows it, before any replay (no step links yet). */
export function messageView(m: PyDict, index: number): MessageView {
  const content = m.get('content');
  const calls = m.get('tool_calls');
  const toolCalls: ToolCallView[] = [];
  if (Array.isArray(calls))
    for (const c of calls) {
      const fn = c instanceof Map ? c.get('function') : null;
      if (!(fn instanceof Map)) continue;
      const name = fn.get('name');
      const args = fn.get('arguments');
      const text = typeof args === 'string' ? args : pyRepr(args ?? null);
      toolCalls.push({ name: typeof name === 'string' ? name : pyRepr(name ?? null), arguments: text, argumentsPretty: prettyJson(text) });
    }
  const role = m.get('role');
  return {
    index,
    role: typeof role === 'string' ? role : 'unknown',
    content: typeof content === 'string' ? content : content === null || content === undefined ? null : pyRepr(content),
    toolCalls,
    stepIndex: null,
    observationOf: null,
    originalIndex: index,
    whatIf: null,
  };
}

/** Builds the episode screen's data from an evaluation. */
/** `fileFindings`: what the file's other episodes show about this one (see `InspectSession`), after its own findings. */
export function episodeView(ev: EpisodeEvaluation, version: DataVersion, rule: RewardRule, fileFindings: readonly Finding[] = []): EpisodeView {
  const verdict = ev.verdicts[rule];
  const { replay } = ev;
  const messages = ev.record.traj.map(messageView);
  const states: Db[] = [version.db, ...replay.steps.map((s) => s.state)];
  const steps: StepView[] = replay.steps.map((s, i) => {
    const before = states[i]!;
    const changes = s.changed.map(({ table, key }) => {
      const b = rec(before, table, key);
      const a = rec(s.state, table, key);
      const changes = fieldDiff(a, b);
      const marked = changes.filter((c) => c.kind !== 'removed').map((c) => c.path);
      return { table, key, existedBefore: b !== undefined, afterLines: a === undefined ? null : pyJsonLines(a, marked), fields: fieldViews(changes) };
    });
    const m = messages[s.agentStep.messageIndex];
    if (m) messages[s.agentStep.messageIndex] = { ...m, stepIndex: i };
    const oi = s.agentStep.observationIndex;
    if (oi !== null && messages[oi]) messages[oi] = { ...messages[oi]!, observationOf: i };
    const recorded = s.agentStep.recordedObservation;
    return {
      index: i,
      messageIndex: s.agentStep.messageIndex,
      observationIndex: oi,
      action: s.action.name,
      isRespond: s.action.name === RESPOND,
      kwargs: pyJson(s.action.kwargs),
      respondText: s.action.name === RESPOND ? textOf(s.action.kwargs.get('content')) : null,
      observation: s.observation,
      recordedObservation: recorded,
      observationDiffers: s.action.name !== RESPOND && recorded !== null && recorded !== s.observation,
      done: s.done,
      unknownTool: s.unknownTool,
      exception: s.exception ? `${s.exception.pyType}: ${s.exception.text}` : null,
      changes,
    };
  });
  const writes = ev.diff.length === 0 ? null : episodeWrites(ev.domain, version.db, replay.steps, ev.groundTruth.steps);
  const diff: RecordDiffView[] = ev.diff.map((d) => {
    const changes = fieldDiff(d.agent, d.reference);
    const fields = changes.map((c, k) => ({
      ...fieldViews([c])[0]!,
      // Each side is blamed on the last call that wrote this field (or the record or list holding
      // it), whether or not the value changed; null when no call touched it.
      agentStep: blameWrite(writes!.agent, d.table, d.key, c.path),
      referenceStep: blameWrite(writes!.reference, d.table, d.key, c.path),
      k,
    }));
    return {
      table: d.table,
      key: d.key,
      agentLines:
        d.agent === undefined
          ? null
          : pyJsonLines(
              d.agent,
              changes.filter((c) => c.kind !== 'removed').map((c) => c.path),
            ),
      referenceLines:
        d.reference === undefined
          ? null
          : pyJsonLines(
              d.reference,
              changes.filter((c) => c.kind !== 'added').map((c) => c.path),
            ),
      fields: fields.map(({ k: _k, ...f }) => f),
      intVsFloatOnly: changes.length > 0 && changes.every((c) => c.intVsFloat),
    };
  });
  // Each message is normalised once, however many outputs are looked for in it.
  const haystacks = new Map<number, OutputHaystack>();
  const said: SaidText[] = steps.flatMap((s) =>
    s.isRespond && s.respondText !== null ? [{ stepIndex: s.index, messageIndex: s.messageIndex, text: s.respondText }] : [],
  );
  const outputs =
    verdict.outputs === null
      ? null
      : verdict.outputs.checks.map((c) => ({
          output: c.output,
          found: c.found,
          stepIndex: c.match?.stepIndex ?? null,
          messageIndex: c.match?.messageIndex ?? null,
          span: c.match?.span ?? null,
          elsewhere: elsewhere(c.output, messages, steps, c.match?.messageIndex ?? null, haystacks),
          near: c.found ? [] : nearThingsSaid(c.output, said),
        }));
  const reward = finalReward(ev, rule);
  return {
    benchmark: 'tau-bench',
    index: ev.record.index,
    strategy: ev.strategy,
    instruction: ev.record.task?.instruction ?? '',
    messages,
    steps,
    verdict: {
      reward,
      recordedReward: ev.record.recordedReward,
      ...(ev.record.recordedRewardText !== undefined && { recordedRewardText: ev.record.recordedRewardText }),
      hypotheticalReward: replay.done ? null : verdict.reward,
      done: replay.done,
      doneBy: replay.doneBy,
      agentHash: ev.agentHash,
      gtHash: ev.gtHash,
      recordedGtHash: ev.recordedGtHash,
      rActions: verdict.rActions,
      dbChecked: verdict.dbChecked,
      rule,
      dataCommit: version.commit,
      data: dataLabel(version),
      sentence: explain(verdict, replay, ev.diff),
      reasons: reasons(verdict, replay, ev.diff),
      crash: replay.crash?.reason ?? verdict.outputs?.crash ?? null,
    },
    diff,
    outputs,
    findings: [...findings(ev, version, rule), ...fileFindings],
    alignment: alignActions(ev.domain, version.db, replay.steps, ev.record.task?.actions ?? [], ev.groundTruth, ev.diff),
    walkthrough: walkthrough(ev, version, rule),
    rules: rewardsByRule(ev),
    whatIf: null,
    reference: ev.groundTruth.steps.map((s) => ({
      action: s.action.name,
      isRespond: s.action.name === RESPOND,
      kwargs: pyJson(s.action.kwargs),
      observation: s.observation,
      skipped: s.skipped,
    })),
  };
}

function elsewhere(
  output: string,
  messages: readonly MessageView[],
  steps: readonly StepView[],
  matched: number | null,
  haystacks: Map<number, OutputHaystack>,
): Elsewhere[] {
  const out: Elsewhere[] = [];
  const respondMessages = new Set(steps.filter((s) => s.action === RESPOND).map((s) => s.messageIndex));
  for (const m of messages) {
    if (m.index === matched || m.content === null || m.role === 'system') continue;
    let kind: Elsewhere['kind'];
    if (m.role === 'tool') kind = 'tool-result';
    else if (m.role === 'user') kind = m.content.startsWith('API output: ') ? 'tool-result' : 'user-turn';
    else if (m.role === 'assistant') {
      if (respondMessages.has(m.index)) continue;
      kind = m.toolCalls.length > 0 ? 'beside-tool-call' : 'not-a-respond';
    } else continue;
    let haystack = haystacks.get(m.index);
    if (!haystack) haystacks.set(m.index, (haystack = new OutputHaystack(m.content)));
    const span = haystack.find(output);
    if (span) out.push({ messageIndex: m.index, kind, span });
  }
  return out;
}
