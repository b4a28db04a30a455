/**
 * Notes and labels on episodes: the shape stored (IndexedDB in the app), exported to one JSON
 * file, imported back (merged, conflicts reported, nothing overwritten) and printed in reports.
 * Pure data and functions: storage lives in the store, display in features and the report.
 */
import { inertJson } from './inert-json';

export const NOTE_LABELS = ['agent error', 'user-simulator error', 'task or annotation bug', 'evaluator blind spot', 'other'] as const;
export type NoteLabel = (typeof NOTE_LABELS)[number];

/** Everything noted on one episode, keyed by its fingerprint (see `episodeFingerprint`). */
export interface EpisodeNotes {
  readonly fingerprint: string;
  readonly label: NoteLabel | null;
  /** The note on the episode as a whole ('' for none). */
  readonly note: string;
  /** Notes on steps, by step index (decimal string keys, for JSON). */
  readonly steps: Readonly<Record<string, string>>;
  /** Where it was written, for people reading an export (not part of the key). */
  readonly file: string | null;
  readonly index: number | null;
  readonly taskId: number | null;
  /** A τ² simulation's task id as τ² writes it (text; `taskId` is then the overview's number for it). */
  readonly task?: string;
  readonly updatedAt: string;
}

/**
 * The notes of an episode (none while its fingerprint is not computed: `EpisodeHeader.fingerprint` null); else the
 * notes kept under a fingerprint it had in an older format (`legacyFingerprints`, given only where no other row of
 * the run had that one), the newest format first.
 */
export function notesFor(
  notes: ReadonlyMap<string, EpisodeNotes>,
  h: { readonly fingerprint: string | null; readonly legacyFingerprints?: readonly string[] } | undefined,
): EpisodeNotes | undefined {
  if (h?.fingerprint == null) return undefined;
  const n = notes.get(h.fingerprint);
  if (n !== undefined || h.legacyFingerprints === undefined) return n;
  for (const k of h.legacyFingerprints) if (notes.has(k)) return notes.get(k);
  return undefined;
}

/**
 * A run's rows' keys: today's fingerprint (null: not computed yet) and, where they differ from it, those of older
 * formats (`FingerprintFormat`: before fingerprints kept JSON's types, before they told an int from a float), newest first.
 */
export interface RowKeys {
  readonly fingerprint: string | null;
  readonly legacy?: string | readonly string[] | null;
}

const olderKeys = (r: RowKeys): readonly string[] => (r.legacy == null ? [] : typeof r.legacy === 'string' ? [r.legacy] : r.legacy);

/** A fingerprint of the old format that several rows of a run had: notes kept under it are attached to no row by it. */
export interface AmbiguousKey {
  readonly fingerprint: string;
  /** The rows that had it (by index): today's fingerprint of some of them may still be it. */
  readonly rows: readonly number[];
}

/**
 * Which older-format fingerprints (`legacy`) can stand for their row: those no other row had, in any format (as an
 * old one, or as today's, which is every format's for a row without NaN, Infinity, big ints or integer-valued
 * floats: `1` and `1.0` in two rows give both rows one format-2 fingerprint). The others are `ambiguous`.
 */
export function legacyKeys(rows: readonly RowKeys[]): { readonly unique: Map<number, string[]>; readonly ambiguous: AmbiguousKey[] } {
  const holders = new Map<string, number[]>();
  const hold = (k: string, i: number): void => {
    const rowsWith = holders.get(k);
    if (rowsWith === undefined) holders.set(k, [i]);
    else if (rowsWith[rowsWith.length - 1] !== i) rowsWith.push(i);
  };
  rows.forEach((r, i) => {
    if (r.fingerprint != null) hold(r.fingerprint, i);
    for (const k of olderKeys(r)) hold(k, i);
  });
  const unique = new Map<number, string[]>();
  const ambiguous = new Map<string, AmbiguousKey>();
  rows.forEach((r, i) => {
    for (const k of olderKeys(r)) {
      const rowsWith = holders.get(k)!;
      if (rowsWith.length === 1) unique.set(i, [...(unique.get(i) ?? []), k]);
      else ambiguous.set(k, { fingerprint: k, rows: rowsWith });
    }
  });
  return { unique, ambiguous: [...ambiguous.values()] };
}

/**
 * The notes of a run's rows by index, matched by fingerprint (notes of other runs are left out); a row without
 * notes under today's fingerprint takes those under its old one where that is unambiguous (`legacyKeys`).
 * `ambiguous`: the notes kept under an old fingerprint several rows had, attached by it to none of them.
 */
export function attachNotes(
  rows: readonly RowKeys[],
  notes: readonly EpisodeNotes[],
): { readonly byIndex: Map<number, EpisodeNotes>; readonly ambiguous: readonly (AmbiguousKey & { readonly notes: EpisodeNotes })[] } {
  const byFp = new Map(notes.map((n) => [n.fingerprint, n]));
  const { unique, ambiguous } = legacyKeys(rows);
  const byIndex = new Map<number, EpisodeNotes>();
  rows.forEach((r, i) => {
    const old = (unique.get(i) ?? []).find((k) => byFp.has(k));
    const n = (r.fingerprint === null ? undefined : byFp.get(r.fingerprint)) ?? (old === undefined ? undefined : byFp.get(old));
    if (n) byIndex.set(i, n);
  });
  return { byIndex, ambiguous: ambiguous.flatMap((a) => (byFp.has(a.fingerprint) ? [{ ...a, notes: byFp.get(a.fingerprint)! }] : [])) };
}

/** The notes of a run's episodes by index, matched by fingerprint (`fingerprints[i]`: episode i's, null: none yet); notes of other runs are left out. */
export function notesByIndex(fingerprints: readonly (string | null)[], notes: readonly EpisodeNotes[]): Map<number, EpisodeNotes> {
  return attachNotes(
    fingerprints.map((fingerprint) => ({ fingerprint })),
    notes,
  ).byIndex;
}

/** What a report says of notes kept under an old fingerprint several rows had: which rows, and where they are shown. */
export const ambiguousNotesText = (a: readonly AmbiguousKey[], noun: string): string =>
  a.length === 0
    ? ''
    : `${a.length} note${a.length === 1 ? '' : 's'} made before fingerprints kept JSON's types could be on any of several ${noun} (${a
        .map((x) => x.rows.map((i) => `#${i}`).join(' and '))
        .join('; ')}): shown only on one whose fingerprint is still the one the note was kept under`;

export const NOTES_FORMAT = 'tau-inspect-notes';

export interface NotesExport {
  readonly format: typeof NOTES_FORMAT;
  readonly version: 1;
  readonly run: string | null;
  readonly exportedAt: string;
  readonly episodes: readonly EpisodeNotes[];
}

/** Whether a record carries anything worth keeping. */
export const hasContent = (n: Pick<EpisodeNotes, 'label' | 'note' | 'steps'>): boolean =>
  n.label !== null || n.note.trim() !== '' || Object.values(n.steps).some((s) => s.trim() !== '');

export function exportNotes(run: string | null, notes: readonly EpisodeNotes[], now = new Date()): string {
  const e: NotesExport = {
    format: NOTES_FORMAT,
    version: 1,
    run,
    exportedAt: now.toISOString(),
    episodes: [...notes].filter(hasContent).sort((a, b) => (a.index ?? 0) - (b.index ?? 0) || (a.fingerprint < b.fingerprint ? -1 : 1)),
  };
  return inertJson(e, 2) + '\n';
}

const FP = /^[0-9a-f]{64}$/;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optNat = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);

/** Reads one episode's notes; the reason it is not valid otherwise. */
function readEpisode(v: unknown, i: number): EpisodeNotes | string {
  const where = `episodes[${i}]`;
  if (!isObj(v)) return `${where} is not an object`;
  if (typeof v.fingerprint !== 'string' || !FP.test(v.fingerprint)) return `${where}.fingerprint is not a sha256 in hex`;
  if (v.label !== null && v.label !== undefined && !NOTE_LABELS.includes(v.label as NoteLabel))
    return `${where}.label must be one of ${NOTE_LABELS.map((l) => `"${l}"`).join(', ')} or null`;
  if (v.note !== undefined && typeof v.note !== 'string') return `${where}.note is not text`;
  const steps = Object.create(null) as Record<string, string>;
  if (v.steps !== undefined) {
    if (!isObj(v.steps)) return `${where}.steps is not an object`;
    for (const [k, s] of Object.entries(v.steps)) {
      if (!/^\d+$/.test(k)) return `${where}.steps has a key that is not a step number`;
      if (typeof s !== 'string') return `${where}.steps["${k}"] is not text`;
      steps[String(Number(k))] = s;
    }
  }
  return {
    fingerprint: v.fingerprint,
    label: (v.label ?? null) as NoteLabel | null,
    note: (v.note as string | undefined) ?? '',
    steps,
    file: typeof v.file === 'string' ? v.file : null,
    index: optNat(v.index),
    taskId: optNat(v.taskId),
    ...(typeof v.task === 'string' && { task: v.task }),
    updatedAt: typeof v.updatedAt === 'string' ? v.updatedAt : '',
  };
}

/**
 * What a notes import accepts: a file of at most 64 MB, at most 200,000 records, a note (and each
 * step's note) of at most 64 KB of UTF-8. Past them the import is refused with a sentence that says so.
 */
export const NOTES_LIMITS = { fileBytes: 64 * 1024 * 1024, records: 200_000, noteBytes: 64 * 1024 } as const;

const mb = (n: number): string => `${(n / 1024 / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/** Why a file of `size` bytes is too big to be a notes export (nothing of it is read), or null. */
export const notesFileTooBig = (size: number): string | null =>
  size > NOTES_LIMITS.fileBytes
    ? `this file is too big to be a notes export: ${mb(size)}, and a notes export may be at most ${mb(NOTES_LIMITS.fileBytes)}`
    : null;

const utf8Bytes = (s: string): number => (s.length * 3 <= NOTES_LIMITS.noteBytes ? s.length : new TextEncoder().encode(s).length);

/** A note or step note past `NOTES_LIMITS.noteBytes`, in words (null when every text fits). */
function overLongNote(e: EpisodeNotes, where: string): string | null {
  const texts: [string, string][] = [[`${where}.note`, e.note], ...Object.entries(e.steps).map(([k, s]): [string, string] => [`${where}.steps["${k}"]`, s])];
  for (const [field, s] of texts) {
    const n = utf8Bytes(s);
    if (n > NOTES_LIMITS.noteBytes)
      return `${field} is ${n.toLocaleString('en-US')} bytes long, and a note may be at most ${NOTES_LIMITS.noteBytes.toLocaleString('en-US')} bytes`;
  }
  return null;
}

/** Parses an export; a file that is not one gets a sentence saying why (and nothing is read from it). */
export function parseNotesExport(text: string): { ok: true; value: NotesExport } | { ok: false; error: string } {
  let v: unknown;
  try {
    // A leading UTF-8 byte-order mark (an editor's "UTF-8 with BOM") is no part of the JSON: dropped, as the browser's File.text() drops it.
    v = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // UTF-16 bytes read as UTF-8: its byte-order mark becomes two U+FFFD, its ASCII a NUL after each character.
    const utf16 = /^\uFFFD\uFFFD|\u0000/.test(text.slice(0, 4));
    return { ok: false, error: `this file is not a tau-inspect notes export: ${utf16 ? 'it is UTF-16 text, not UTF-8: save it as UTF-8' : 'it is not JSON'}` };
  }
  if (!isObj(v) || v.format !== NOTES_FORMAT) return { ok: false, error: `this file is not a tau-inspect notes export: it has no "format": "${NOTES_FORMAT}"` };
  if (v.version !== 1) return { ok: false, error: `this notes export has version ${inertJson(v.version)}; this tau-inspect reads version 1` };
  if (!Array.isArray(v.episodes)) return { ok: false, error: 'this notes export has no "episodes" list' };
  if (v.episodes.length > NOTES_LIMITS.records)
    return {
      ok: false,
      error: `this notes export holds ${v.episodes.length.toLocaleString('en-US')} records, and one import may hold at most ${NOTES_LIMITS.records.toLocaleString('en-US')}: split it into smaller files`,
    };
  const episodes: EpisodeNotes[] = [];
  for (let i = 0; i < v.episodes.length; i++) {
    const e = readEpisode(v.episodes[i], i);
    if (typeof e === 'string') return { ok: false, error: `this notes export is damaged: ${e}` };
    const long = overLongNote(e, `episodes[${i}]`);
    if (long !== null) return { ok: false, error: `this notes export has a note too long to import: ${long}` };
    episodes.push(e);
  }
  return {
    ok: true,
    value: {
      format: NOTES_FORMAT,
      version: 1,
      run: typeof v.run === 'string' ? v.run : null,
      exportedAt: typeof v.exportedAt === 'string' ? v.exportedAt : '',
      episodes,
    },
  };
}

/** One field both sides filled differently: the stored value was kept, the imported one is shown. */
export interface NoteConflict {
  readonly fingerprint: string;
  readonly index: number | null;
  readonly taskId: number | null;
  /** 'label', 'note' or 'step N'. */
  readonly field: string;
  readonly kept: string;
  readonly imported: string;
}

export interface NotesMerge {
  /** Records to write (new or completed); unchanged ones are left out. */
  readonly write: readonly EpisodeNotes[];
  readonly added: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly conflicts: readonly NoteConflict[];
}

/**
 * Merges imported notes into stored ones, field by field: an empty side takes the other's
 * value; equal values stay; two different values are a conflict — the stored one is kept and
 * the conflict reported, so nothing is overwritten silently.
 */
export function mergeNotes(stored: readonly EpisodeNotes[], imported: readonly EpisodeNotes[]): NotesMerge {
  const byFp = new Map(stored.map((n) => [n.fingerprint, n]));
  const write: EpisodeNotes[] = [];
  const conflicts: NoteConflict[] = [];
  let added = 0;
  let updated = 0;
  let unchanged = 0;
  for (const inc of imported) {
    const mine = byFp.get(inc.fingerprint);
    if (!mine) {
      if (!hasContent(inc)) continue;
      byFp.set(inc.fingerprint, inc);
      write.push(inc);
      added++;
      continue;
    }
    let changed = false;
    const pick = (field: string, a: string, b: string): string => {
      if (b.trim() === '' || a === b) return a;
      if (a.trim() === '') {
        changed = true;
        return b;
      }
      conflicts.push({ fingerprint: inc.fingerprint, index: mine.index ?? inc.index, taskId: mine.taskId ?? inc.taskId, field, kept: a, imported: b });
      return a;
    };
    const label = pick('label', mine.label ?? '', inc.label ?? '');
    const note = pick('note', mine.note, inc.note);
    const steps = Object.assign(Object.create(null) as Record<string, string>, mine.steps);
    for (const [k, s] of Object.entries(inc.steps)) steps[k] = pick(`step ${k}`, mine.steps[k] ?? '', s);
    if (changed) {
      const next = { ...mine, label: (label || null) as NoteLabel | null, note, steps };
      byFp.set(inc.fingerprint, next);
      write.push(next);
      updated++;
    } else unchanged++;
  }
  return { write, added, updated, unchanged, conflicts };
}

/** How one import conflict is settled: the stored value, the imported one, or both texts one after the other (not for a label). */
export type ConflictChoice = 'mine' | 'theirs' | 'both';

/** Whether a conflict's field can keep both values (texts can; a label is one of a list). */
export const canKeepBoth = (c: Pick<NoteConflict, 'field'>): boolean => c.field !== 'label';

/** The stored notes with one conflict settled; the record unchanged for `mine` (or a choice that does not apply). */
export function resolveConflict(stored: EpisodeNotes, c: NoteConflict, choice: ConflictChoice, now = new Date()): EpisodeNotes {
  if (choice === 'mine' || (choice === 'both' && !canKeepBoth(c))) return stored;
  const value = choice === 'theirs' ? c.imported : `${c.kept}\n\n${c.imported}`;
  const at = now.toISOString();
  if (c.field === 'label') return { ...stored, label: (value || null) as NoteLabel | null, updatedAt: at };
  if (c.field === 'note') return { ...stored, note: value, updatedAt: at };
  const step = /^step (\d+)$/.exec(c.field)?.[1];
  return step === undefined ? stored : { ...stored, steps: { ...stored.steps, [step]: value }, updatedAt: at };
}
