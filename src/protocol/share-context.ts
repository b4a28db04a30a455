import { NOTES_FORMAT, parseNotesExport, type EpisodeNotes, type StepEdit } from '../core/contract';

/**
 * The context a shared episode (`#ep=`, version 2) carries beside it: the place it was shared from.
 * The page sends it with `share-link`; the worker writes it into the link's envelope
 * (src/worker/shared-episode.ts) and, for a link opened, reads it back with `readShareContext`
 * and hands the page the checked fields (`run-opened.shared`).
 */
export interface ShareContext {
  /** The results file the episode came from (its name or URL), as text. */
  readonly file: string | null;
  /** The episode's index in that file. */
  readonly index: number | null;
  readonly step: number;
  /** The episode's notes and label where it was shared (its fingerprint is the episode's). */
  readonly notes: EpisodeNotes | null;
  readonly edits: readonly StepEdit[];
}

/** A shared link's context as read in the worker: every field checked, what was damaged dropped with a reason. */
export interface SharedContext {
  readonly ctx: ShareContext;
  readonly problems: readonly string[];
}

const nat = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);
/** What a JSON value is, for a sentence: "a list", "a number", "null". */
const kind = (x: unknown): string => (Array.isArray(x) ? 'a list' : x === null ? 'null' : typeof x === 'object' ? 'an object' : `a ${typeof x}`);
/** Longer file names are cut: the name is only shown. */
const MAX_FILE_NAME = 1000;

/** The context line of a version 2 link (untrusted JSON text), checked field by field. */
export function readShareContext(line: string): SharedContext {
  const problems: string[] = [];
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { ctx: { file: null, index: null, step: 0, notes: null, edits: [] }, problems: ['its context (file name, notes, edits) is not JSON'] };
  }
  const isObject = typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject) problems.push(`its context (file name, notes, edits) is ${kind(v)}, not an object, and was left out`);
  const o = isObject ? (v as Record<string, unknown>) : {};
  let notes: EpisodeNotes | null = null;
  if (o.notes !== undefined && o.notes !== null) {
    const parsed = parseNotesExport(JSON.stringify({ format: NOTES_FORMAT, version: 1, episodes: [o.notes] }));
    if (parsed.ok) notes = parsed.value.episodes[0] ?? null;
    else problems.push(`its notes were left out (${parsed.error.replace(/^this notes export is damaged: episodes\[0\]/, 'the note')})`);
  }
  let edits: StepEdit[] = [];
  if (o.edits !== undefined) {
    const e = checkEdits(o.edits);
    if ('edits' in e) edits = e.edits;
    else problems.push(Array.isArray(o.edits) ? `its what-if edits were left out: ${e.error}` : 'its what-if edits are not a list of edits and were left out');
  }
  if (o.file !== undefined && o.file !== null && typeof o.file !== 'string') problems.push(`its file name is ${kind(o.file)}, not text, and was left out`);
  for (const k of ['index', 'step'] as const)
    if (o[k] !== undefined && o[k] !== null && nat(o[k]) === null)
      problems.push(`its ${k === 'index' ? 'episode index' : 'step'} (${kind(o[k])}) is not a whole number ≥ 0 and was left out`);
  return {
    ctx: { file: typeof o.file === 'string' ? o.file.slice(0, MAX_FILE_NAME) : null, index: nat(o.index), step: nat(o.step) ?? 0, notes, edits },
    problems,
  };
}

/**
 * The most edits a link's what-if may hold (issue #35 class 8). Each inserted call is two more rows of the dialogue,
 * drawn on the page's thread: at 500 inserted calls a link's what-if was a task of seconds (0.9 s with the dialogue's
 * boxes measured together, 2.6 s before, on a loaded 2-core machine), so the cap was lowered from 500 to 100, which no
 * what-if made by hand reaches. A link past it opens without its edits, saying why (`LIMIT_WHY`).
 */
export const MAX_EDITS = 100;
/** Longer text in an edit (a message, arguments) was not typed into this app's what-if. */
export const MAX_EDIT_TEXT = 200_000;
/**
 * The most text all of a link's edits may hold together (names, arguments, messages; issue #35 class 8). The edits
 * go to the page and back and into the address bar (`whatif=`), and the dialogue lays out each: 500 inserted calls of
 * 100 KB arguments made minute-long tasks and a 554 MB heap, and 100 calls of 10 KB still a task of 0.7–0.9 s on a
 * loaded machine, so the text is capped at 200,000 characters (about a hundred calls of 2 KB). A link past it opens
 * without its edits, saying why.
 */
export const MAX_EDITS_CHARS = 200_000;
/** Why a what-if past the caps is refused, after the numbers. */
const LIMIT_WHY = 'a bigger what-if would hold up the page while its dialogue is drawn';

const EDIT_TEXT = ['name', 'kwargsJson', 'content'] as const;
const EDIT_FLAGS = ['remove', 'insert'] as const;
const EDIT_KEYS: ReadonlySet<string> = new Set(['messageIndex', 'callIndex', 'requestor', ...EDIT_TEXT, ...EDIT_FLAGS]);
const natural = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** What is wrong with one edit (untrusted JSON), in words; null when it is one. */
function editProblem(e: unknown): string | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return `is ${kind(e)}, not an edit`;
  const r = e as Record<string, unknown>;
  const odd = Object.keys(r).find((k) => !EDIT_KEYS.has(k));
  if (odd !== undefined) return `has a field no edit has (${JSON.stringify(odd.slice(0, 40))})`;
  if (r.messageIndex === undefined) return 'names no message (it has no messageIndex)';
  if (!natural(r.messageIndex)) return `names no message: its messageIndex is ${kind(r.messageIndex)}, not a whole number ≥ 0`;
  if (r.callIndex !== undefined && !natural(r.callIndex)) return `has callIndex set to ${kind(r.callIndex)}, not a whole number ≥ 0`;
  if (r.requestor !== undefined && r.requestor !== 'assistant' && r.requestor !== 'user')
    return `has requestor set to ${kind(r.requestor)}, neither "assistant" nor "user"`;
  for (const k of EDIT_FLAGS) if (r[k] !== undefined && typeof r[k] !== 'boolean') return `has ${k} set to ${kind(r[k])}, not true or false`;
  for (const k of EDIT_TEXT) {
    const v = r[k];
    if (v === undefined) continue;
    if (typeof v !== 'string') return `has ${k} set to ${kind(v)}, not text`;
    if (v.length > MAX_EDIT_TEXT) return `has ${k} of ${v.length} characters, more than the ${MAX_EDIT_TEXT} an edit may hold`;
  }
  return null;
}

/**
 * What-if edits from untrusted JSON (a link's `whatif=`, a shared context), τ-bench's and τ²'s
 * (`callIndex`, `requestor`): each field checked, no other field allowed; else why not, in words.
 */
export function checkEdits(value: unknown): { readonly edits: StepEdit[] } | { readonly error: string } {
  if (!Array.isArray(value)) return { error: `they are ${kind(value)}, not a list of edits` };
  if (value.length > MAX_EDITS) return { error: `there are ${value.length} of them, more than the ${MAX_EDITS} a link may carry (${LIMIT_WHY})` };
  let chars = 0;
  for (const [i, e] of value.entries()) {
    const problem = editProblem(e);
    if (problem !== null) return { error: `edit ${i + 1} ${problem}` };
    for (const k of EDIT_TEXT) chars += ((e as Record<string, unknown>)[k] as string | undefined)?.length ?? 0;
  }
  if (chars > MAX_EDITS_CHARS)
    return {
      error: `together they hold ${chars.toLocaleString('en-US')} characters of text, more than the ${MAX_EDITS_CHARS.toLocaleString('en-US')} a link's what-if may hold (${LIMIT_WHY})`,
    };
  return {
    edits: (value as StepEdit[]).map((e) => ({
      messageIndex: e.messageIndex,
      ...(e.remove !== undefined && { remove: e.remove }),
      ...(e.insert !== undefined && { insert: e.insert }),
      ...(e.name !== undefined && { name: e.name }),
      ...(e.kwargsJson !== undefined && { kwargsJson: e.kwargsJson }),
      ...(e.content !== undefined && { content: e.content }),
      ...(e.callIndex !== undefined && { callIndex: e.callIndex }),
      ...(e.requestor !== undefined && { requestor: e.requestor }),
    })),
  };
}
