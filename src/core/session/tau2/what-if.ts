/**
 * What-if for τ² simulations: the recorded messages with edited, dropped or inserted tool calls (the
 * agent's, or in telecom the user's device calls) and edited assistant text, judged again exactly as
 * `evaluateTau2` judges a recorded simulation (replay, DB hashes, env assertions, actions,
 * communicate). Every call is replayed on the edited state, so later calls answer what the edits
 * left. NL assertions were judged by an LLM when the run was made: they stay as recorded, and the
 * result says so. The edit is v1's `StepEdit` with τ²'s two extra fields (`callIndex`, `requestor`).
 */
import { tryParseJson } from '../../py/json-parse';
import type { TDict } from '../../py/pydantic';
import type { Tau2Domain } from '../../model/domains/tau2/toolkit';
import { TAU2_DOMAINS } from '../../model/domains/tau2/registry';
import type { Requestor, RewardType, Tau2Message, Tau2Simulation, Tau2Task, Tau2ToolCall } from '../../model/episode/tau2/types';
import { judgeTau2, type Tau2Context, type Tau2Evaluation } from '../../judge/tau2/evaluate';
import { tau2SimView, type Tau2CallView, type Tau2MessageView, type Tau2SimView } from '../../view/tau2/sim-view';
import { refuseSameTarget, WhatIfError, type MessageMark, type StepEdit } from '../what-if';

/** Where a message of the edited simulation comes from, and what the what-if did to it. */
export interface Tau2EditedMessage {
  /** Its index among the recorded messages; null: inserted by the what-if. */
  readonly original: number | null;
  readonly mark: MessageMark | null;
  /** Per call of the message: its position among the recorded message's calls (null: inserted). */
  readonly calls: readonly (number | null)[];
  readonly callMarks: readonly ('edited' | 'inserted' | null)[];
}

export interface Tau2EditedMessages {
  readonly messages: readonly Tau2Message[];
  readonly origin: readonly Tau2EditedMessage[];
  /** What was dropped, in words, and before which edited message. */
  readonly removed: readonly { readonly before: number; readonly text: string }[];
}

/** One check before and after the edits (met: true/false; null where it was not run). */
export interface Tau2CheckChange {
  readonly component: RewardType;
  /** The check named as the simulation screen names it (`DB`, an action's id and tool, an info, an assertion). */
  readonly what: string;
  readonly before: boolean | null;
  readonly after: boolean | null;
  /** Whether the component is in the task's reward basis. */
  readonly counts: boolean;
}

export interface Tau2WhatIfView {
  readonly benchmark: 'tau2';
  /** The edited simulation as its screen shows it (the same panels render it). */
  readonly view: Tau2SimView;
  /** Per message of `view.messages`. */
  readonly origin: readonly Tau2EditedMessage[];
  readonly removed: readonly { readonly before: number; readonly text: string }[];
  /** The unedited simulation's recomputed reward, and the edited one's. */
  readonly rewardBefore: number;
  readonly rewardAfter: number;
  readonly checks: readonly Tau2CheckChange[];
  /** How many NL assertions were kept as recorded (they are not re-judged). */
  readonly nlKept: number;
  /** What the what-if does not redo, in words. */
  readonly note: string;
}

/** A τ² tool as the insert form offers it: who calls it, its parameters (required ones without a default). */
export interface Tau2ToolChoice {
  readonly name: string;
  readonly requestor: Requestor;
  readonly params: readonly { readonly name: string; readonly required: boolean }[];
  readonly writes: boolean;
}

/** The tools a call of this domain may name: the agent's, then the user's device tools (the agent's own in solo mode). */
export function tau2ToolChoices(domain: Tau2Domain, solo: boolean): Tau2ToolChoice[] {
  const kits = [
    { kit: domain.agent, requestor: 'assistant' as const },
    ...(domain.user ? [{ kit: domain.user, requestor: solo ? ('assistant' as const) : ('user' as const) }] : []),
  ];
  return kits.flatMap(({ kit, requestor }) =>
    kit.tools.map((t) => ({ name: t.name, requestor, params: t.params.map((p) => ({ name: p.name, required: p.default === undefined })), writes: t.mutates })),
  );
}

/** The tool choices of a τ² domain by its name (none for a domain this version does not judge). */
export function tau2ToolCatalog(domainName: string, solo: boolean): Tau2ToolChoice[] {
  const domain = TAU2_DOMAINS.get(domainName);
  return domain ? tau2ToolChoices(domain, solo) : [];
}

const OF_THE_RECORDING: ReadonlySet<string> = new Set(['recorded-pass-recomputed-fail', 'recorded-fail-recomputed-pass', 'recorded-differs']);

const NOTE =
  'User turns are the recorded ones: τ²’s user simulator is not re-run, so later replies may no longer fit the edited simulation. Tool outputs are replayed on the edited state.';

function parseArgs(text: string | undefined, where: string): TDict {
  const parsed = tryParseJson(text ?? '{}');
  if (!parsed.ok) throw new WhatIfError(`the arguments of ${where} are not valid JSON: ${parsed.error.text}`);
  if (!(parsed.value instanceof Map)) throw new WhatIfError(`the arguments of ${where} are not a JSON object (τ² calls a tool with named arguments)`);
  return parsed.value;
}

/** Who makes a call of `name`: the requestor asked for, checked against the domain's toolkits; refused in words when no toolkit has it. */
function requestorFor(domain: Tau2Domain, solo: boolean, name: string, asked: Requestor | undefined, where: string): Requestor {
  const agent = domain.agent.tools.some((t) => t.name === name);
  const user = domain.user?.tools.some((t) => t.name === name) ?? false;
  if (!agent && !user)
    throw new WhatIfError(
      `${where}: '${name}' is not a tool of τ²'s ${domain.name} domain${domain.user ? ' (neither the agent’s nor the user’s device)' : ''}`,
    );
  if (asked === 'user') {
    if (solo) throw new WhatIfError(`${where}: in solo mode the agent makes the device calls; insert '${name}' as the agent’s call`);
    if (!user) throw new WhatIfError(`${where}: '${name}' is an agent tool, not one of the user’s device tools`);
    return 'user';
  }
  if (asked === 'assistant' && !agent && !solo) throw new WhatIfError(`${where}: '${name}' is a tool of the user’s device, not one the agent can call`);
  return agent || solo ? 'assistant' : 'user';
}

/** A recorded call in words: by its tool, and its position when the message makes several. */
const callWhere = (m: number, k: number, calls: readonly Tau2ToolCall[]): string =>
  k >= calls.length
    ? `the end of message #${m}'s calls`
    : `the ${calls[k]!.name} call${calls.length > 1 ? ` (${k + 1} of ${calls.length})` : ''} of message #${m}`;

/**
 * Applies what-if edits to a simulation's recorded messages. Edits address recorded messages
 * (`messageIndex`) and calls (`callIndex`, the position in that message's `tool_calls`); a call and
 * its tool message go together (paired by position, as τ²'s replay pairs them). Throws `WhatIfError`
 * for an edit that cannot apply, in words.
 */
export function editTau2Messages(recorded: readonly Tau2Message[], edits: readonly StepEdit[], domain: Tau2Domain, solo: boolean): Tau2EditedMessages {
  for (const e of edits) {
    if (!Number.isInteger(e.messageIndex) || e.messageIndex < 0 || e.messageIndex > recorded.length)
      throw new WhatIfError(`the edit names message #${e.messageIndex}, but the simulation has ${recorded.length} messages`);
    if (e.callIndex !== undefined && (!Number.isInteger(e.callIndex) || e.callIndex < 0)) throw new WhatIfError(`the edit names call ${e.callIndex}`);
    if (!e.insert && e.messageIndex === recorded.length) throw new WhatIfError(`the edit names message #${e.messageIndex}, past the last message`);
  }
  // One edit of each message's text, each whole message and each call (as the app's what-if keeps them).
  refuseSameTarget(
    edits,
    (e) => (e.insert ? null : `${e.messageIndex}/${e.content !== undefined ? 'text' : (e.callIndex ?? '')}`),
    (e) =>
      e.content !== undefined
        ? `the text of message #${e.messageIndex}`
        : e.callIndex !== undefined
          ? `call ${e.callIndex + 1} of message #${e.messageIndex}`
          : `message #${e.messageIndex}`,
  );
  const messages: Tau2Message[] = [];
  const origin: Tau2EditedMessage[] = [];
  const removed: { before: number; text: string }[] = [];
  const consumed = new Set<number>();
  let inserted = 0;
  let changed = false;
  const newCall = (e: StepEdit, asked: Requestor | undefined, where: string): Tau2ToolCall => {
    if (!e.name) throw new WhatIfError(`${where}: an inserted call needs a tool name`);
    const requestor = requestorFor(domain, solo, e.name, asked, where);
    return { id: `what-if-${++inserted}`, name: e.name, arguments: parseArgs(e.kwargsJson, `the inserted call of ${e.name}`), requestor };
  };
  const toolMessage = (c: Tau2ToolCall): Tau2Message => ({
    role: 'tool',
    content: null,
    toolCalls: null,
    id: c.id,
    requestor: c.requestor,
    error: false,
    unrecorded: true,
  });
  const push = (m: Tau2Message, o: Tau2EditedMessage): void => {
    messages.push(m);
    const later = changed && o.mark === null && o.original !== null && m.role === 'user' && m.toolCalls === null;
    origin.push(later ? { ...o, mark: 'recorded' } : o);
  };
  for (let i = 0; i <= recorded.length; i++) {
    for (const e of edits.filter((x) => x.insert && x.callIndex === undefined && x.messageIndex === i)) {
      if (recorded[i]?.role === 'tool' && consumed.has(i))
        throw new WhatIfError(`message #${i} is the result of a call: insert before the call's message or after its results`);
      const call = newCall(e, e.requestor, `the call inserted before message #${i}`);
      changed = true;
      push(
        { role: call.requestor, content: null, toolCalls: [call], id: null, requestor: null, error: false },
        { original: null, mark: 'inserted', calls: [null], callMarks: ['inserted'] },
      );
      push(toolMessage(call), { original: null, mark: 'inserted', calls: [], callMarks: [] });
    }
    if (i === recorded.length) break;
    const m = recorded[i]!;
    if (consumed.has(i)) {
      if (edits.some((x) => x.messageIndex === i && !x.insert))
        throw new WhatIfError(`message #${i} is a tool message: only the agent's messages and calls can be edited`);
      continue;
    }
    const mine = edits.filter((x) => x.messageIndex === i && !(x.insert && x.callIndex === undefined));
    const calls = m.toolCalls ?? [];
    // Python parity: set_state's get_actions_from_messages — the tool messages that answer this message's calls follow it, by position.
    const results = calls.map((_, k) => {
      const r = recorded[i + 1 + k];
      return r?.role === 'tool' ? i + 1 + k : null;
    });
    if (m.toolCalls !== null) for (const r of results) if (r !== null) consumed.add(r);
    if (mine.length === 0) {
      push(m, { original: i, mark: null, calls: calls.map((_, k) => k), callMarks: calls.map(() => null) });
      for (const r of results) if (r !== null) push(recorded[r]!, { original: r, mark: null, calls: [], callMarks: [] });
      continue;
    }
    if (m.role !== 'assistant' && m.role !== 'user')
      throw new WhatIfError(`message #${i} is a ${m.role} message: only the agent's messages and calls can be edited`);
    changed = true;
    if (mine.some((e) => e.remove && e.callIndex === undefined)) {
      removed.push({ before: messages.length, text: calls.length > 0 ? calls.map((c) => c.name).join(', ') : `message #${i}` });
      continue;
    }
    for (const e of mine)
      if (e.callIndex !== undefined && e.callIndex >= calls.length + (e.insert ? 1 : 0))
        throw new WhatIfError(
          calls.length === 0
            ? `message #${i} makes no tool call`
            : `message #${i} makes ${calls.length} call${calls.length === 1 ? '' : 's'}, not ${e.callIndex + 1}`,
        );
    let content = m.content;
    for (const e of mine)
      if (e.content !== undefined) {
        if (m.role !== 'assistant') throw new WhatIfError(`message #${i} is the user's: only the agent's text can be edited`);
        content = e.content;
      }
    const outCalls: Tau2ToolCall[] = [];
    const outResults: Tau2Message[] = [];
    const callOrigin: (number | null)[] = [];
    const callMarks: ('edited' | 'inserted' | null)[] = [];
    const resultOrigin: (number | null)[] = [];
    for (let k = 0; k <= calls.length; k++) {
      for (const e of mine.filter((x) => x.insert && x.callIndex === k)) {
        const call = newCall(e, m.role === 'user' ? 'user' : 'assistant', `the call inserted before ${callWhere(i, k, calls)}`);
        if (call.requestor !== m.role) throw new WhatIfError(`${callWhere(i, k, calls)}: '${call.name}' cannot be called in a ${m.role} message`);
        outCalls.push(call);
        outResults.push(toolMessage(call));
        callOrigin.push(null);
        callMarks.push('inserted');
        resultOrigin.push(null);
      }
      if (k === calls.length) break;
      const c = calls[k]!;
      const r = results[k];
      if (r === null || r === undefined) throw new WhatIfError(`${callWhere(i, k, calls)} has no tool message after it: it cannot be edited`);
      const own = mine.filter((x) => !x.insert && x.callIndex === k);
      if (own.some((x) => x.remove)) {
        removed.push({ before: messages.length, text: c.name });
        continue;
      }
      const edit = own.find((x) => x.kwargsJson !== undefined || x.name !== undefined);
      if (edit) {
        const name = edit.name ?? c.name;
        if (edit.name !== undefined) requestorFor(domain, solo, name, c.requestor, callWhere(i, k, calls));
        outCalls.push({ ...c, name, arguments: parseArgs(edit.kwargsJson, callWhere(i, k, calls)) });
        callMarks.push('edited');
      } else {
        outCalls.push(c);
        callMarks.push(null);
      }
      outResults.push(recorded[r]!);
      callOrigin.push(k);
      resultOrigin.push(r);
    }
    if (outCalls.length === 0 && calls.length > 0 && (content === null || content.trim() === '')) continue; // nothing left of the message
    push({ ...m, content, toolCalls: outCalls.length === 0 ? null : outCalls }, { original: i, mark: 'edited', calls: callOrigin, callMarks });
    outResults.forEach((t, k) => push(t, { original: resultOrigin[k]!, mark: resultOrigin[k] === null ? 'inserted' : null, calls: [], callMarks: [] }));
  }
  return { messages, origin, removed };
}

const nameOf = (a: { readonly actionId: string; readonly name: string }): string => (a.actionId ? `${a.actionId} (${a.name})` : a.name);

/** Each check of the unedited and the edited evaluation, side by side (in the order the simulation screen lists them). */
export function checkChanges(before: Tau2Evaluation, after: Tau2Evaluation): Tau2CheckChange[] {
  const basis = after.rewardBasis ?? before.rewardBasis ?? [];
  const counts = (c: RewardType): boolean => basis.includes(c);
  const out: Tau2CheckChange[] = [];
  if (before.dbHash !== null || after.dbHash !== null)
    out.push({ component: 'DB', what: 'DB', before: before.dbMatch, after: after.dbMatch, counts: counts('DB') });
  const n = (xs: readonly unknown[] | null | undefined): number => xs?.length ?? 0;
  for (let i = 0; i < Math.max(n(before.envAssertions), n(after.envAssertions)); i++) {
    const a = after.envAssertions?.[i] ?? before.envAssertions?.[i];
    out.push({
      component: 'ENV_ASSERTION',
      what: a!.assertion.funcName,
      before: before.envAssertions?.[i]?.met ?? null,
      after: after.envAssertions?.[i]?.met ?? null,
      counts: counts('ENV_ASSERTION'),
    });
  }
  for (let i = 0; i < Math.max(n(before.actionChecks), n(after.actionChecks)); i++) {
    const a = after.actionChecks?.[i] ?? before.actionChecks?.[i];
    out.push({
      component: 'ACTION',
      what: nameOf(a!.action),
      before: before.actionChecks?.[i]?.actionMatch ?? null,
      after: after.actionChecks?.[i]?.actionMatch ?? null,
      counts: counts('ACTION'),
    });
  }
  for (let i = 0; i < Math.max(n(before.communicateChecks), n(after.communicateChecks)); i++) {
    const a = after.communicateChecks?.[i] ?? before.communicateChecks?.[i];
    out.push({
      component: 'COMMUNICATE',
      what: a!.info,
      before: before.communicateChecks?.[i]?.met ?? null,
      after: after.communicateChecks?.[i]?.met ?? null,
      counts: counts('COMMUNICATE'),
    });
  }
  for (const a of after.nlAssertions ?? [])
    out.push({ component: 'NL_ASSERTION', what: a.assertion, before: a.met, after: a.met, counts: counts('NL_ASSERTION') });
  return out;
}

/** `sim` (judged as `before`) with `edits` applied, judged again as τ² would; `{ error }` for an edit that cannot apply. */
export function tau2WhatIf(
  ctx: Tau2Context,
  task: Tau2Task | null,
  sim: Tau2Simulation,
  before: Tau2Evaluation,
  edits: readonly StepEdit[],
): Tau2WhatIfView | { readonly error: string } {
  // A voice simulation's messages are derived from its ticks (and its speech is read from them): edits of them would not
  // be what τ² judges.
  if (sim.fullDuplex && edits.length > 0)
    return {
      error: 'What-if edits a text simulation’s messages; this is a full-duplex (voice) simulation, judged from its ticks, which what-if does not edit yet.',
    };
  let edited: Tau2EditedMessages;
  try {
    edited = editTau2Messages(sim.messages, edits, ctx.domain, ctx.solo);
  } catch (e) {
    if (e instanceof WhatIfError) return { error: e.message };
    throw e;
  }
  // The edited calls answer otherwise than the recorded tool messages (and so may every write after them): the edited
  // simulation is replayed leniently, whatever rule judged the recorded one.
  const { evaluateTrajs: _, ...rules } = ctx;
  const after = judgeTau2({ ...rules, strict: false }, task, { ...sim, messages: edited.messages });
  const view = tau2SimView(ctx, after, task);
  const nlKept = after.nlAssertions?.length ?? 0;
  return {
    benchmark: 'tau2',
    // The file's records are of the unedited simulation: what compares them with the edited one is left out.
    view: {
      ...view,
      messages: replayedAnswers(view.messages, edited.origin, before),
      agrees: null,
      findings: view.findings.filter((f) => !OF_THE_RECORDING.has(f.kind)),
    },
    origin: edited.origin,
    removed: edited.removed,
    rewardBefore: before.reward,
    rewardAfter: after.reward,
    checks: checkChanges(before, after),
    nlKept,
    note: NOTE,
  };
}

/**
 * The edited simulation's dialogue as its replay answers it: each tool message that answers a replayed call carries
 * that call's output and error (the recorded tool message is of the unedited run: an edit that makes a call succeed
 * must not still read "an error"), and each call whose output is not what the unedited run's replay gave is marked.
 */
function replayedAnswers(messages: readonly Tau2MessageView[], origin: readonly Tau2EditedMessage[], before: Tau2Evaluation): Tau2MessageView[] {
  const unedited = new Map<string, string | null>();
  const seen = new Map<number, number>();
  for (const c of before.toolCalls) {
    const k = seen.get(c.messageIndex) ?? 0;
    seen.set(c.messageIndex, k + 1);
    unedited.set(`${c.messageIndex}/${k}`, c.output);
  }
  const calls = new Map<number, Tau2CallView>();
  const out = messages.map((m, i) => {
    const o = origin[i];
    const withMarks = m.calls.map((c, k): Tau2CallView => {
      const at = o?.original === null || o?.original === undefined ? null : o.calls[k];
      const was = at === null || at === undefined ? undefined : unedited.get(`${o!.original}/${at}`);
      const whatIf = was === undefined || o?.callMarks[k] === 'inserted' ? 'inserted' : was === c.output ? null : 'changed';
      if (whatIf === null) return c;
      const v = { ...c, whatIf } as const;
      calls.set(c.index, v);
      return v;
    });
    return withMarks.length > 0 ? { ...m, calls: withMarks } : m;
  });
  return out.map((m) => {
    const c = m.answers === null ? undefined : calls.get(m.answers);
    return c === undefined || c.output === null ? m : { ...m, content: c.output, error: c.error };
  });
}
