import type { Strategy } from '../model/episode/types';
import { API_OUTPUT_PREFIX, reactAction, RESPOND } from '../model/episode/actions';
import { jsonDumps } from '../py/json-dumps';
import { tryParseJson } from '../py/json-parse';
import type { PyDict, PyValue } from '../py/value';

/**
 * One change for a what-if replay, addressed by the index of an agent message in the recorded
 * trajectory. Without `insert`: change that message's action (new tool name and/or arguments,
 * or a respond's new text) or remove it (with the observation after it). With `insert`: a new
 * tool call goes in just before that message.
 */
export interface StepEdit {
  readonly messageIndex: number;
  readonly remove?: boolean;
  /** A new tool name (optional) and new arguments as JSON text (Python's json dialect). */
  readonly name?: string;
  readonly kwargsJson?: string;
  /** The new text of a respond. */
  readonly content?: string;
  /** Insert a new tool call (`name`, `kwargsJson`) before message `messageIndex`. */
  readonly insert?: boolean;
  /**
   * τ² only (a message may hold parallel calls): the call of message `messageIndex` meant, by its
   * position in `tool_calls`; an insert with it goes into that message, before that call.
   */
  readonly callIndex?: number;
  /** τ² only: who makes an inserted call (`user`: the user on their own device, telecom); by default whoever has the tool. */
  readonly requestor?: 'assistant' | 'user';
}

export type MessageMark = 'edited' | 'inserted' | 'recorded';

export interface EditedTrajectory {
  readonly traj: PyDict[];
  /** Per message of `traj`: how the what-if changed it; `recorded` for recorded turns after the first change. */
  readonly marks: (MessageMark | null)[];
  /** Per message of `traj`: its index in the recorded trajectory (null: inserted). */
  readonly original: (number | null)[];
  /** Indices (in `traj`) of inserted observation messages, to be filled with the replayed observation. */
  readonly insertedObservations: readonly number[];
  readonly removed: readonly { readonly before: number; readonly text: string }[];
}

const isObservation = (m: PyDict | undefined, strategy: Strategy): boolean => {
  const role = m?.get('role');
  if (role === 'tool') return true;
  if (role !== 'user' || strategy === 'tool-calling') return false;
  const c = m!.get('content');
  return typeof c === 'string' && c.startsWith(API_OUTPUT_PREFIX);
};

function toolCallsOf(m: PyDict): PyValue[] | null {
  const calls = m.get('tool_calls');
  return Array.isArray(calls) && calls.length > 0 ? calls : null;
}

const actionText = (prefix: string, name: string, args: PyValue): string =>
  `${prefix}Action:\n${jsonDumps(
    new Map<string, PyValue>([
      ['name', name],
      ['arguments', args],
    ]),
  )}`;

/** The text before the last `Action:` of a react/act message (its thought), kept when the action changes. */
const thoughtOf = (content: PyValue | undefined): string => {
  if (typeof content !== 'string') return '';
  const at = content.lastIndexOf('Action:');
  return at < 0 ? '' : content.slice(0, at);
};

function parseArgs(e: StepEdit): PyDict {
  const parsed = tryParseJson(e.kwargsJson ?? '{}');
  if (!parsed.ok || !(parsed.value instanceof Map))
    throw new WhatIfError(
      `arguments of the ${e.insert ? 'inserted call' : `action at message ${e.messageIndex}`} are not a JSON object${parsed.ok ? '' : `: ${parsed.error.text}`}`,
    );
  return parsed.value;
}

export class WhatIfError extends Error {}

/**
 * Refuses two edits of one thing (the same `key`; null for edits that add, which never clash): the app
 * replaces an edit with the next one of the same thing, so only a link made by hand holds both, and one
 * of them would be ignored. `what` names the thing in words.
 */
export function refuseSameTarget(edits: readonly StepEdit[], key: (e: StepEdit) => string | null, what: (e: StepEdit) => string): void {
  const seen = new Map<string, number>();
  edits.forEach((e, i) => {
    const k = key(e);
    if (k === null) return;
    const first = seen.get(k);
    if (first !== undefined)
      throw new WhatIfError(`edits ${first + 1} and ${i + 1} both change ${what(e)}: a what-if holds one change of each, and the second would be ignored`);
    seen.set(k, i);
  });
}

/** The messages a tool call becomes in this strategy's message shapes. */
function callMessages(strategy: Strategy, name: string, args: PyDict): [PyDict, PyDict] {
  if (strategy === 'tool-calling') {
    const fn = new Map<string, PyValue>([
      ['name', name],
      ['arguments', jsonDumps(args)],
    ]);
    const call = new Map<string, PyValue>([
      ['id', 'what-if'],
      ['type', 'function'],
      ['function', fn],
    ]);
    return [
      new Map<string, PyValue>([
        ['role', 'assistant'],
        ['content', null],
        ['tool_calls', [call]],
      ]),
      new Map<string, PyValue>([
        ['role', 'tool'],
        ['content', ''],
      ]),
    ];
  }
  return [
    new Map<string, PyValue>([
      ['role', 'assistant'],
      ['content', actionText('', name, args)],
    ]),
    new Map<string, PyValue>([
      ['role', 'user'],
      ['content', API_OUTPUT_PREFIX],
    ]),
  ];
}

/** Applies what-if edits to a recorded trajectory; throws `WhatIfError` for an edit that cannot apply. */
export function editTrajectory(traj: readonly PyDict[], strategy: Strategy, edits: readonly StepEdit[]): EditedTrajectory {
  const out: PyDict[] = [];
  const marks: (MessageMark | null)[] = [];
  const original: (number | null)[] = [];
  const insertedObservations: number[] = [];
  const removed: { before: number; text: string }[] = [];
  let changed = false;
  const push = (m: PyDict, mark: MessageMark | null, from: number | null): void => {
    out.push(m);
    marks.push(mark ?? (changed && from !== null && m.get('role') !== 'assistant' && m.get('role') !== 'system' ? 'recorded' : null));
    original.push(from);
  };
  for (const e of edits) {
    if (!Number.isInteger(e.messageIndex) || e.messageIndex < 0 || e.messageIndex > traj.length)
      throw new WhatIfError(`the edit names message ${e.messageIndex}, but the episode has ${traj.length} messages`);
    if ((e.callIndex ?? 0) !== 0 || e.requestor === 'user') throw new WhatIfError('a τ-bench step makes one call, by the agent: the edit names another');
  }
  refuseSameTarget(
    edits,
    (e) => (e.insert ? null : String(e.messageIndex)),
    (e) => `message ${e.messageIndex}`,
  );
  let skipObservation = false;
  for (let i = 0; i <= traj.length; i++) {
    for (const e of edits.filter((x) => x.insert && x.messageIndex === i)) {
      if (!e.name) throw new WhatIfError('an inserted call needs a tool name');
      const [call, obs] = callMessages(strategy, e.name, parseArgs(e));
      changed = true;
      push(call, 'inserted', null);
      insertedObservations.push(out.length);
      push(obs, 'inserted', null);
    }
    if (i === traj.length) break;
    const m = traj[i]!;
    if (skipObservation) {
      skipObservation = false;
      continue;
    }
    const edit = edits.find((x) => !x.insert && x.messageIndex === i);
    if (!edit) {
      push(m, null, i);
      continue;
    }
    if (m.get('role') !== 'assistant') throw new WhatIfError(`message ${i} is not an agent message`);
    const calls = toolCallsOf(m);
    if (edit.remove) {
      changed = true;
      const fn = calls?.[0] instanceof Map ? calls[0].get('function') : null;
      const name = fn instanceof Map ? fn.get('name') : null;
      let label = typeof name === 'string' ? name : 'respond';
      if (strategy !== 'tool-calling')
        try {
          label = reactAction(m).name;
        } catch {
          label = 'action';
        }
      removed.push({ before: out.length, text: label });
      // The tool result goes with its call; a respond's user reply goes with the respond.
      const next = traj[i + 1];
      skipObservation = isObservation(next, strategy) || (label === RESPOND && next?.get('role') === 'user');
      continue;
    }
    const copy = new Map(m);
    if (edit.content !== undefined) {
      if (strategy === 'tool-calling') {
        if (calls) throw new WhatIfError(`message ${i} is a tool call, not a respond`);
        copy.set('content', edit.content);
      } else copy.set('content', actionText(thoughtOf(m.get('content')), 'respond', new Map([['content', edit.content]])));
    } else if (edit.kwargsJson !== undefined || edit.name !== undefined) {
      const args = parseArgs(edit);
      if (strategy === 'tool-calling') {
        if (!calls) throw new WhatIfError(`message ${i} is a respond, not a tool call: edit its text instead`);
        const first = calls[0];
        const fn = first instanceof Map ? first.get('function') : null;
        if (!(first instanceof Map) || !(fn instanceof Map)) throw new WhatIfError(`the tool call of message ${i} has no function`);
        const newFn = new Map(fn);
        if (edit.name !== undefined) newFn.set('name', edit.name);
        newFn.set('arguments', jsonDumps(args));
        copy.set('tool_calls', [new Map([...first, ['function', newFn]]), ...calls.slice(1)]);
      } else {
        let oldName = RESPOND;
        try {
          oldName = reactAction(m).name;
        } catch {
          // keep respond
        }
        copy.set('content', actionText(thoughtOf(m.get('content')), edit.name ?? oldName, args));
      }
    }
    changed = true;
    push(copy, 'edited', i);
  }
  return { traj: out, marks, original, insertedObservations, removed };
}
