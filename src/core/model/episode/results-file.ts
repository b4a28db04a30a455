/**
 * The careful reader of a results file from its whole text: a list of episodes (run.py output), a
 * single episode, or a bare message list, with damage located and explained. The streaming reader
 * is `results-stream.ts`, one episode's fields `episode-record.ts`; both are re-exported here.
 */
import { lineColumn, parseJson, scanList, type JsonDamage } from '../../py/json-parse';
import { typeName, type PyDict, type PyValue } from '../../py/value';
import { readEpisode } from './episode-record';
import { isMessage, lazyRecord, Places, reparser, textSlices, type ResultsFile } from './lazy-records';
import type { EpisodeRecord } from './types';

export { FILE_KIND_TEXT, type FileKind, type ResultsFile } from './lazy-records';
export { ResultsStream } from './results-stream';

export class ResultsFileError extends Error {}

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

/** The episodes of a results file (see `readResults`). */
export function readResultsFile(text: string): EpisodeRecord[] {
  return readResults(text).records;
}
