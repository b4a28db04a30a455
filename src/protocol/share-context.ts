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
const kind = (x: unknown): string => (Array.isArray(x) ? 'a list' : x === null ? 'null' : `a ${typeof x}`);
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
    const e = readEdits(o.edits);
    if (e === null) problems.push('its what-if edits are not a list of edits and were left out');
    else edits = e;
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

/** What-if edits from untrusted JSON (a link's `whatif=`, a shared context); null when it is not a list of edits. */
export function readEdits(value: unknown): StepEdit[] | null {
  const ok = (e: unknown): e is StepEdit => {
    if (typeof e !== 'object' || e === null) return false;
    const r = e as Record<string, unknown>;
    return (
      Number.isInteger(r.messageIndex) &&
      (r.remove === undefined || typeof r.remove === 'boolean') &&
      (r.insert === undefined || typeof r.insert === 'boolean') &&
      ['name', 'kwargsJson', 'content'].every((k) => r[k] === undefined || typeof r[k] === 'string')
    );
  };
  if (!Array.isArray(value) || !value.every(ok)) return null;
  return value.map((e) => ({
    messageIndex: e.messageIndex,
    ...(e.remove !== undefined && { remove: e.remove }),
    ...(e.insert !== undefined && { insert: e.insert }),
    ...(e.name !== undefined && { name: e.name }),
    ...(e.kwargsJson !== undefined && { kwargsJson: e.kwargsJson }),
    ...(e.content !== undefined && { content: e.content }),
  }));
}
