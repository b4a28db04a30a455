import { lineColumn, parseJson, parseListElement, scanList, type JsonDamage } from '../../py/json-parse';
import { ListSplitter } from '../../py/json-split';
import { pyRepr } from '../../py/repr';
import { detached, ownString, ownStrings, typeName, type PyDict, type PyValue } from '../../py/value';
import type { Action, EpisodeRecord, Task } from './types';

export class ResultsFileError extends Error {}

const num = (v: PyValue | undefined): number | null =>
  typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : null;

/** A field that should be a number (or absent/None): why it is not, else null. */
function numberProblem(v: PyValue | undefined, field: string): string | null {
  if (v === undefined || v === null || typeof v === 'bigint' || typeof v === 'boolean') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? null : `${field} is ${pyRepr(v)}, not a finite number`;
  return `${field} is a ${typeName(v)} (${pyRepr(v).slice(0, 40)}), not a number`;
}

function describe(v: PyValue | undefined): string {
  return v === undefined ? 'missing' : typeName(v);
}

function readAction(v: PyValue, where: string): Action {
  if (!(v instanceof Map)) throw new Error(`${where} is a ${describe(v)}, not an object`);
  const name = v.get('name');
  const kwargs = v.get('kwargs') ?? v.get('arguments');
  if (typeof name !== 'string') throw new Error(`${where}.name is ${describe(name)}, not a string`);
  if (!(kwargs instanceof Map)) throw new Error(`${where}.kwargs is ${describe(kwargs)}, not an object`);
  return { name, kwargs };
}

function readTask(v: PyValue | undefined): Task {
  if (!(v instanceof Map)) throw new Error(`info.task is ${describe(v)}, not an object`);
  const actions = v.get('actions');
  if (!Array.isArray(actions)) throw new Error(`info.task.actions is ${describe(actions)}, not a list`);
  const outputs = v.get('outputs') ?? [];
  if (!Array.isArray(outputs)) throw new Error(`info.task.outputs is ${describe(outputs)}, not a list of strings`);
  const bad = outputs.findIndex((o) => typeof o !== 'string');
  if (bad !== -1) throw new Error(`info.task.outputs is not a list of strings: info.task.outputs[${bad}] is ${describe(outputs[bad])}`);
  const instruction = v.get('instruction');
  return {
    userId: v.get('user_id') ?? null,
    actions: actions.map((a, i) => readAction(a, `info.task.actions[${i}]`)),
    instruction: typeof instruction === 'string' ? instruction : '',
    outputs: outputs as string[],
  };
}

const KNOWN = new Set(['task_id', 'reward', 'info', 'traj', 'trial']);

/**
 * Reads one `EnvRunResult`; never throws — problems end up in `problem`. The fields a record keeps
 * besides `raw` and `traj` are strings of their own (`ownString`/`detached`): a record and the header
 * made from it outlive the episode's parsed text, and in V8 a string cut from a longer one keeps the
 * longer one alive — a kept task instruction would hold its whole episode.
 */
export function readEpisode(v: PyValue, index: number): EpisodeRecord {
  const r = readFields(v, index);
  return {
    ...r,
    problem: r.problem === null ? null : ownString(r.problem),
    runError: r.runError === null ? null : ownString(r.runError),
    extra: ownStrings(r.extra),
    recordedRewardInfo: r.recordedRewardInfo && detached(r.recordedRewardInfo),
    task: r.task && {
      userId: detached(r.task.userId),
      actions: r.task.actions.map((a) => ({ name: ownString(a.name), kwargs: detached(a.kwargs) })),
      instruction: ownString(r.task.instruction),
      outputs: r.task.outputs.map(ownString),
    },
  };
}

function readFields(v: PyValue, index: number): EpisodeRecord {
  const base = {
    raw: v,
    index,
    taskId: null,
    trial: null,
    recordedReward: null,
    task: null,
    recordedRewardInfo: null,
    traj: [] as PyDict[],
    runError: null,
    extra: {},
  };
  if (!(v instanceof Map)) return { ...base, problem: `episode ${index} is a ${describe(v)}, not an object` };
  const extra: Record<string, string> = {};
  // defineProperty: a key named `__proto__` stays an ordinary field.
  for (const [k, x] of v)
    if (!KNOWN.has(k))
      Object.defineProperty(extra, k, { value: typeof x === 'string' ? x : safeRepr(x), enumerable: true, writable: true, configurable: true });
  const info = v.get('info');
  const infoMap = info instanceof Map ? info : null;
  const runErrorValue = infoMap?.get('error');
  const runError =
    runErrorValue === undefined || runErrorValue === null ? null : String(typeof runErrorValue === 'string' ? runErrorValue : pyRepr(runErrorValue));
  const trajValue = v.get('traj');
  const traj = Array.isArray(trajValue) ? trajValue.filter((m): m is PyDict => m instanceof Map) : [];
  const rewardInfo = infoMap?.get('reward_info');
  const common = {
    ...base,
    taskId: num(v.get('task_id')),
    trial: num(v.get('trial')),
    recordedReward: num(v.get('reward')),
    traj,
    runError,
    extra,
    recordedRewardInfo: rewardInfo instanceof Map ? rewardInfo : null,
  };
  if (!Array.isArray(trajValue)) return { ...common, problem: `traj is ${describe(trajValue)}, not a list` };
  const notMessage = trajValue.findIndex((m) => !(m instanceof Map));
  if (notMessage !== -1) return { ...common, problem: `traj[${notMessage}] is a ${describe(trajValue[notMessage])}, not an object (a message)` };
  const badNumber = numberProblem(v.get('reward'), 'reward') ?? numberProblem(v.get('task_id'), 'task_id') ?? numberProblem(v.get('trial'), 'trial');
  if (badNumber !== null) return { ...common, problem: badNumber };
  if (info !== undefined && infoMap === null) return { ...common, problem: `info is a ${describe(info)}, not an object` };
  if (runError !== null && traj.length === 0) return { ...common, problem: `the run crashed before any trajectory was kept: ${runError.split('\n')[0]}` };
  try {
    const task = readTask(infoMap?.get('task'));
    return { ...common, task, problem: traj.length === 0 ? 'the trajectory is empty' : null };
  } catch (e) {
    return { ...common, problem: (e as Error).message };
  }
}

/** What kind of file was read, as the user should hear it named. */
export type FileKind = 'tau-bench-results' | 'single-episode' | 'message-list';

export const FILE_KIND_TEXT: Readonly<Record<FileKind, string>> = {
  'tau-bench-results': 'a τ-bench results file (run.py output: a list of episodes)',
  'single-episode': 'a single τ-bench episode (one object of a results file)',
  'message-list': 'a bare message list (one conversation, no task or reward): shown, not judged',
};

export interface ResultsFile {
  readonly records: EpisodeRecord[];
  readonly kind: FileKind;
  /** What is damaged in the file and where, in words. */
  readonly notes: readonly string[];
  /**
   * A lazily read episode's text as it is in the file (its JSON, not parsed), null for others: what
   * a search can look through before it parses an episode.
   */
  readonly episodeText?: (index: number) => string | null;
}

/** Each episode's place in the file, by record index, and its text read from there. */
class Places {
  private readonly at: number[] = [];
  constructor(private readonly slice: (start: number, end: number) => string) {}
  set(index: number, start: number, end: number): void {
    this.at[2 * index] = start;
    this.at[2 * index + 1] = end;
  }
  readonly text = (index: number): string | null => {
    const start = this.at[2 * index];
    return start === undefined ? null : this.slice(start, this.at[2 * index + 1]!);
  };
}

/** An element of the top-level list that reading may resume at after damage. */
const isEpisodeLike = (v: PyValue): boolean => v instanceof Map && (v.has('traj') || (v.has('task_id') && v.has('info')));
const EPISODE_START = /\{\s*"(?:task_id|traj|reward|info|trial)"\s*:/;

function utf8Offset(text: string, pos: number): number {
  let n = 0;
  for (let k = 0; k < pos && k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && k + 1 < text.length && (text.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      k++;
    } else n += 3;
  }
  return n;
}

/** Where a JSON error is, as a person looks for it: line, column, char and byte offset in the file (`byteAt`, see `ReadOptions.byteOffset`). */
export function placeOf(byteAt: (pos: number) => number, d: Pick<JsonDamage, 'pos' | 'line' | 'column' | 'char'>): string {
  return `line ${d.line} column ${d.column} (char ${d.char}, byte ${byteAt(d.pos)})`;
}

const damageText = (d: JsonDamage): string =>
  d.error.pyType === 'JSONDecodeError' ? d.error.text.replace(/: line \d+ column \d+ \(char \d+\)$/, '') : `${d.error.pyType}: ${d.error.text}`;

function damagedEpisode(byteAt: (pos: number) => number, index: number, d: JsonDamage, truncated: boolean): EpisodeRecord {
  const python = d.error.pyType === 'ValueError' ? " (Python's json.loads refuses the whole file for this)" : '';
  const where = truncated ? `the file ends inside episode ${index}` : `episode ${index} is damaged`;
  return {
    raw: null,
    index,
    taskId: null,
    trial: null,
    recordedReward: null,
    task: null,
    recordedRewardInfo: null,
    traj: [],
    runError: null,
    extra: {},
    problem: `${where} at ${placeOf(byteAt, d)}: ${damageText(d)}${python}`,
  };
}

/** τ²-bench's results file: `{timestamp, info, tasks, simulations}`. */
function tau2Message(root: PyDict): string | null {
  if (!(root.has('simulations') && root.has('tasks'))) return null;
  const sims = root.get('simulations');
  const info = root.get('info');
  const env = info instanceof Map ? info.get('environment_info') : undefined;
  const domain = env instanceof Map ? env.get('domain_name') : undefined;
  return `a τ²-bench results file ({timestamp, info, tasks, simulations}${typeof domain === 'string' ? `, domain ${domain}` : ''}${
    Array.isArray(sims) ? `, ${sims.length} simulations` : ''
  }), not τ-bench run.py output: τ²-bench has its own tasks, data and evaluator; tau-inspect judges it as one (the app, or tau-inspect evaluate FILE --data TAU2_DATA)`;
}

const isMessage = (v: PyValue): boolean => v instanceof Map && typeof v.get('role') === 'string';

export interface ReadOptions {
  /**
   * Keeps every episode's messages out of memory: its `traj` and `raw` are parsed again from
   * the text when asked for (the last few asked for are kept). The rest of the record (task,
   * recorded reward, problem) stays. The same values come out either way.
   */
  readonly lazy?: boolean;
  /**
   * Sees every record once, with its messages, before `lazy` lets go of them: episodes that
   * parse in file order while the file is read, the others (damaged ones, messages) after.
   */
  readonly visit?: (record: EpisodeRecord) => void;
  /**
   * With `lazy`: where an episode's text is read again, by its UTF-8 byte range in the text (a
   * file's bytes), so the text itself need not stay. The bytes must decode to
   * exactly this text (valid UTF-8 without a byte-order mark before offset 0).
   */
  readonly elementText?: (byteStart: number, byteEnd: number) => string;
  /**
   * Where a position of the text is in the file's bytes, for damage notes (`byteOffsets` of the
   * bytes the text was decoded from); by default the text's own UTF-8 length up to it, which is the
   * file's offset only for UTF-8 without a byte-order mark or invalid bytes.
   */
  readonly byteOffset?: (pos: number) => number;
}

/** UTF-8 length of `text` from `from` to `to` (a surrogate pair is 4 bytes, a lone surrogate 3, as TextEncoder writes U+FFFD). */
function utf8Length(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && k + 1 < to && (text.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      k++;
    } else n += 3;
  }
  return n;
}

/** How many parsed episodes a lazy reader keeps (a view, its what-if and a replay in flight). */
const KEPT_PARSES = 6;

interface Parsed {
  readonly raw: PyValue;
  readonly traj: readonly PyDict[];
}

const trajOf = (raw: PyValue): PyDict[] => {
  const t = raw instanceof Map ? raw.get('traj') : undefined;
  return Array.isArray(t) ? t.filter((m): m is PyDict => m instanceof Map) : [];
};

/** Slices of `text` (a function of its own, so only readers without `elementText` hold the text). */
const textSlices =
  (text: string) =>
  (start: number, end: number): string =>
    text.slice(start, end);

/** Parses elements again by their place (`slice` gives an element's text), keeping the last few. */
function reparser(slice: (start: number, end: number) => string): (start: number, end: number) => Parsed {
  const kept = new Map<number, Parsed>();
  return (start, end) => {
    let p = kept.get(start);
    if (p !== undefined) {
      kept.delete(start);
    } else {
      const raw = parseJson(slice(start, end));
      p = { raw, traj: trajOf(raw) };
      if (kept.size >= KEPT_PARSES) kept.delete(kept.keys().next().value!);
    }
    kept.set(start, p);
    return p;
  };
}

/**
 * `r` with its messages read again on demand (see `ReadOptions.lazy`). A top-level function, so
 * the getters hold on to `read` and the range only, never to the text being scanned.
 */
function lazyRecord(r: EpisodeRecord, read: (start: number, end: number) => Parsed, start: number, end: number): EpisodeRecord {
  // The rest of the record is strings of their own already (see `readEpisode`).
  const { traj: _traj, raw: _raw, ...rest } = r;
  return Object.defineProperties(rest, {
    traj: { enumerable: true, get: () => read(start, end).traj },
    raw: { enumerable: true, get: () => read(start, end).raw },
  }) as EpisodeRecord;
}

/**
 * Reads a results file: a list of episodes (run.py output), a single episode object, or a bare
 * list of messages. Damage costs only what it touches: every episode before it is kept, reading
 * resumes at the next complete episode after it, and each damaged episode says where and why.
 * Throws ResultsFileError only when nothing in the file can be read as episodes.
 */
export function readResults(text: string, options: ReadOptions = {}): ResultsFile {
  const { lazy = false, visit = () => undefined, elementText } = options;
  // Positions are asked for in file order (damage, then notes), so `byteOffsets` counts on.
  const byteAt = options.byteOffset ?? ((pos: number) => utf8Offset(text, pos));
  const slice = elementText ?? textSlices(text);
  const read = !lazy ? null : reparser(slice);
  const places = lazy ? new Places(slice) : null;
  // Byte offsets for `elementText`, counted along as the elements come (in order).
  let atChar = 0;
  let atByte = 0;
  const place = (pos: number): number => {
    if (!elementText) return pos;
    atByte += utf8Length(text, atChar, pos);
    atChar = pos;
    return atByte;
  };
  // Each element becomes its record at once (seen by `visit`); messages stay as values, for a bare message list.
  const scan = scanList(text, isEpisodeLike, EPISODE_START, (v, i, start, end) => {
    if (isMessage(v)) return { message: v, record: null };
    const r = readEpisode(v, i);
    visit(r);
    if (!read) return { message: null, record: r };
    const [a, b] = [place(start), place(end)];
    places?.set(i, a, b);
    return { message: null, record: lazyRecord(r, read, a, b) };
  });
  if (scan === null) {
    let root: PyValue;
    try {
      root = parseJson(text);
    } catch (e) {
      const msg = e instanceof Error && 'text' in e ? String((e as { text: string }).text) : String(e);
      throw new ResultsFileError(`not valid JSON: ${msg}`);
    }
    if (root instanceof Map) {
      const tau2 = tau2Message(root);
      if (tau2) throw new ResultsFileError(tau2);
      if (root.has('traj') || root.has('info')) {
        const record = readEpisode(root, 0);
        visit(record);
        return { records: [record], kind: 'single-episode', notes: [] };
      }
      throw new ResultsFileError('a JSON object that is not a τ-bench episode (no "traj" or "info")');
    }
    throw new ResultsFileError(`expected a list of episodes, got a ${typeName(root)}`);
  }
  const notes: string[] = [];
  const firstDamage = scan.items.length > 0 && scan.items.every((it) => !it.ok) ? scan.items[0]!.damage : scan.items.length === 0 ? scan.outside[0] : undefined;
  // Nothing readable at all: the file as a whole is not JSON (Python's message, with the byte offset).
  if (firstDamage)
    throw new ResultsFileError(
      `not valid JSON: ${firstDamage.error.pyType === 'JSONDecodeError' ? '' : `${firstDamage.error.pyType}: `}${firstDamage.error.text} (byte ${byteAt(firstDamage.pos)})`,
    );
  if (scan.items.length > 0 && scan.items.every((it) => it.ok && it.value.message !== null)) {
    const traj = scan.items.map((it) => (it.ok ? it.value.message : null)) as PyDict[];
    const read = readEpisode(new Map<string, PyValue>([['traj', traj]]), 0);
    const record = { ...read, problem: 'a bare message list has no task, so there is nothing to judge it against' };
    visit(record);
    return { records: [record], kind: 'message-list', notes };
  }
  const records = scan.items.map((it, i) => {
    if (it.ok && it.value.record) return it.value.record;
    const r = it.ok
      ? readEpisode(it.value.message, i)
      : damagedEpisode(
          byteAt,
          i,
          it.damage,
          it.end >= text.length &&
            it.damage.error.pyType === 'JSONDecodeError' &&
            (it.damage.pos >= text.trimEnd().length - 1 || it.damage.error.text.startsWith('Unterminated string')),
        );
    visit(r);
    return r;
  });
  for (const d of scan.outside)
    notes.push(
      d.error.text.startsWith('Extra data')
        ? `text after the list of episodes at ${placeOf(byteAt, d)} is ignored (Python's json.loads refuses such a file)`
        : d.pos >= text.trimEnd().length
          ? `the file is cut off after episode ${records.length - 1} (${placeOf(byteAt, d)}): the list is never closed`
          : `the list of episodes is damaged between episodes at ${placeOf(byteAt, d)}: ${damageText(d)}`,
    );
  const damaged = scan.items.filter((it) => !it.ok).length;
  if (damaged > 0)
    notes.push(
      `${damaged} of ${records.length} episodes could not be read as JSON (${records
        .filter((r) => r.raw === null && r.problem !== null)
        .slice(0, 3)
        .map((r) => r.problem)
        .join('; ')}${damaged > 3 ? '; …' : ''}); every other episode is read and judged`,
    );
  // Invalid UTF-8 became U+FFFD when the bytes were decoded: say which episodes hold one.
  const replaced: { i: number; k: number }[] = [];
  for (let k = text.indexOf('\ufffd'), i = 0; k !== -1 && i < scan.items.length; k = text.indexOf('\ufffd', k + 1)) {
    while (i < scan.items.length && scan.items[i]!.end <= k) i++;
    const it = scan.items[i];
    if (it && it.start <= k && replaced.at(-1)?.i !== i) replaced.push({ i, k });
  }
  if (replaced.length > 0) {
    const first = replaced[0]!;
    notes.push(
      `episode${replaced.length > 1 ? 's' : ''} ${replaced
        .slice(0, 10)
        .map((r) => r.i)
        .join(
          ', ',
        )}${replaced.length > 10 ? ', …' : ''} ${replaced.length > 1 ? 'hold' : 'holds'} U+FFFD (�), the mark of bytes that are not UTF-8 or of a character lost before this file was written; first at ${placeOf(
        byteAt,
        { pos: first.k, ...lineColumn(text, first.k) },
      )} in episode ${first.i}`,
    );
  }
  return { records, kind: 'tau-bench-results', notes, ...(places && { episodeText: places.text }) };
}

/**
 * Reads a results file from its bytes as they arrive, never holding its whole text: each episode is
 * decoded and parsed on its own, seen by `visit`, and kept as a lazy record read again through
 * `elementText` (by absolute byte range in the bytes pushed). For a plain, undamaged list of
 * episodes in UTF-8 it gives the same records as `readResults(text, { lazy: true })`; for
 * anything else — damage, UTF-16, bytes that are not UTF-8 (or U+FFFD in the text), a bare message
 * list, a single episode, an empty list — `end()` returns null and the caller reads the whole text
 * with `readResults`, which locates and explains what is wrong. `push` returning false says that
 * already (the rest of the bytes need not be looked at, but the whole text is needed).
 */
export class ResultsStream {
  private readonly records: EpisodeRecord[] = [];
  private readonly splitter: ListSplitter;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly read: (start: number, end: number) => Parsed;
  private readonly places: Places;

  constructor(
    elementText: (byteStart: number, byteEnd: number) => string,
    private readonly visit: (record: EpisodeRecord) => void = () => undefined,
  ) {
    this.read = reparser(elementText);
    this.places = new Places(elementText);
    this.splitter = new ListSplitter((bytes, start, end) => this.element(bytes, start, end));
  }

  push(chunk: Uint8Array): boolean {
    return this.splitter.push(chunk);
  }

  end(): ResultsFile | null {
    if (!this.splitter.end()) return null;
    return { records: this.records, kind: 'tau-bench-results', notes: [], episodeText: this.places.text };
  }

  private element(parts: readonly Uint8Array[], start: number, end: number): boolean {
    let text = '';
    try {
      for (let k = 0; k < parts.length - 1; k++) text += this.decoder.decode(parts[k], { stream: true });
      text += this.decoder.decode(parts.at(-1));
    } catch {
      return false;
    }
    if (text.includes('\ufffd')) return false;
    const parsed = parseListElement(text);
    if (parsed === null || isMessage(parsed.value)) return false;
    const r = readEpisode(parsed.value, this.records.length);
    this.visit(r);
    this.places.set(r.index, start, end);
    this.records.push(lazyRecord(r, this.read, start, end));
    return true;
  }
}

/** The episodes of a results file (see `readResults`). */
export function readResultsFile(text: string): EpisodeRecord[] {
  return readResults(text).records;
}

function safeRepr(x: PyValue): string {
  try {
    return pyRepr(x).slice(0, 200);
  } catch {
    return `<${typeName(x)}>`;
  }
}
