import type { StateCreator } from 'zustand/vanilla';
import {
  canKeepBoth,
  exportNotes,
  hasContent,
  mergeNotes,
  notesFileTooBig,
  notesFor,
  parseNotesExport,
  resolveConflict,
  TAU2_TASK_KEY,
  type ConflictChoice,
  type EpisodeHeader,
  type EpisodeNotes,
  type NoteConflict,
  type NoteLabel,
} from '../core/contract';
import { NOTES_CHUNK, type FromWorker } from '../protocol/messages';
import type { AppState } from './app-store';
import type { NotesPort } from './notes-port';
import type { EvaluatorPort } from './ports';
import type { StoreHandlers } from './receive';

export type LabelFilter = NoteLabel | 'labelled' | 'unlabelled';

export type NotesImportResult =
  | {
      readonly ok: true;
      readonly file: string;
      readonly added: number;
      readonly updated: number;
      readonly unchanged: number;
      readonly conflicts: readonly NoteConflict[];
      /** How each settled conflict was settled, by its position in `conflicts` (the stored value is kept until then). */
      readonly resolved: ReadonlyMap<number, ConflictChoice>;
    }
  | { readonly ok: false; readonly file: string; readonly error: string };

/** What one edit changes; `step` sets the note of one step. */
export interface NotesPatch {
  readonly label?: NoteLabel | null;
  readonly note?: string;
  readonly step?: { readonly index: number; readonly text: string };
}

export interface NotesSlice {
  /** Every note in this browser, by episode fingerprint. */
  notes: ReadonlyMap<string, EpisodeNotes>;
  notesReady: boolean;
  notesError: string | null;
  /** The last write: 'saved' only once the storage has confirmed it. */
  noteSave: { readonly fingerprint: string; readonly seq: number; readonly state: 'saving' | 'saved' | 'error'; readonly error: string | null } | null;
  labelFilter: LabelFilter | null;
  notesImport: NotesImportResult | null;
  /** The file being imported (read and checked in the worker, merged a chunk at a time), or null. */
  notesImporting: string | null;

  loadNotes(): Promise<void>;
  editNotes(index: number, patch: NotesPatch): Promise<void>;
  setLabelFilter(f: LabelFilter | null): void;
  /** Notes and labels of the open run's episodes as one JSON file's text. */
  exportRunNotes(): string;
  /** A notes export's text, merged into the stored notes a chunk at a time. */
  importNotes(file: string, text: string): Promise<void>;
  /** A notes export file: read and checked in the worker (`parse-notes`), then merged a chunk at a time. */
  importNotesFile(file: Blob & { readonly name: string }): Promise<void>;
  /** The worker's answer to `parse-notes` (see `notesHandlers`). */
  notesParsed(m: FromWorker<'parse-notes'>): void;
  /** Deletes the notes of the open run's episodes from this browser. */
  clearRunNotes(): Promise<number>;
  dismissImport(): void;
  /** Settles conflict `i` of the last import: keep mine, take theirs, or keep both texts. */
  resolveImportConflict(i: number, choice: ConflictChoice): Promise<void>;
}

/** The notes of an episode, or null. */
export const notesOf = (s: Pick<AppState, 'notes'>, h: EpisodeHeader | undefined): EpisodeNotes | null => notesFor(s.notes, h) ?? null;

/** Rows whose fingerprint is not computed yet (a τ² run's, for a moment after it opens): their notes are not known yet. */
export const fingerprintsPending = (headers: readonly EpisodeHeader[]): number => headers.reduce((n, h) => n + (h.fingerprint === null ? 1 : 0), 0);

/** Why nothing can be noted on this row yet, in words; null when it can. */
export const notesRefusal = (h: EpisodeHeader): string | null =>
  h.fingerprint === null
    ? `notes cannot be kept on #${h.index} yet: the key they are kept under (a hash of the simulation's content) is being computed; try again in a moment`
    : null;

/** Rows kept by the label filter. */
export function filterByLabel(
  rows: readonly number[],
  headers: readonly EpisodeHeader[],
  notes: ReadonlyMap<string, EpisodeNotes>,
  f: LabelFilter | null,
): readonly number[] {
  if (f === null) return rows;
  return rows.filter((i) => {
    const label = notesFor(notes, headers[i])?.label ?? null;
    return f === 'labelled' ? label !== null : f === 'unlabelled' ? label === null : label === f;
  });
}

/** How many episodes of the run carry each label. */
export function labelCounts(headers: readonly EpisodeHeader[], notes: ReadonlyMap<string, EpisodeNotes>): Map<NoteLabel, number> {
  const out = new Map<NoteLabel, number>();
  for (const h of headers) {
    const l = notesFor(notes, h)?.label;
    if (l) out.set(l, (out.get(l) ?? 0) + 1);
  }
  return out;
}

let seq = 0;
let importSeq = 0;

/** Stored notes copied per task, and records per storage write, during an import. */
const COPY_SLICE = 20_000;
const WRITE_SLICE = 100;

/** Lets the page paint and handle input between two chunks of an import. */
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export const createNotesSlice =
  (storage: NotesPort, port: EvaluatorPort): StateCreator<AppState, [], [], NotesSlice> =>
  (set, get) => {
    const waiting = new Map<number, (m: FromWorker<'parse-notes'>) => void>();
    /**
     * Merges imported records a chunk at a time (a task per chunk, pauses between), writes each
     * chunk's new and completed records, and reports counts and every conflict (the stored value kept).
     */
    const merge = async (file: string, chunks: readonly (() => EpisodeNotes[])[]): Promise<void> => {
      const base = get().notes;
      // A copy of the stored notes, made only once a record is to be written (an import of conflicts
      // alone changes nothing), a slice per task: a copy of 100,000 at once is a long task.
      let working: Map<string, EpisodeNotes> | null = null;
      const copy = async (): Promise<Map<string, EpisodeNotes>> => {
        const out = new Map<string, EpisodeNotes>();
        let copied = 0;
        for (const [k, n] of base) {
          out.set(k, n);
          if (++copied % COPY_SLICE === 0) await pause();
        }
        return out;
      };
      const conflicts: NoteConflict[] = [];
      let added = 0;
      let updated = 0;
      let unchanged = 0;
      let written = 0;
      for (const chunk of chunks) {
        const incoming = chunk();
        const stored: EpisodeNotes[] = [];
        for (const n of incoming) {
          const s = (working ?? base).get(n.fingerprint);
          if (s) stored.push(s);
        }
        const m = mergeNotes(stored, incoming);
        if (m.write.length > 0) working ??= await copy();
        try {
          // Small transactions: each write is cloned on the page's thread.
          for (let i = 0; i < m.write.length; i += WRITE_SLICE) {
            await storage.putMany(m.write.slice(i, i + WRITE_SLICE));
            written += Math.min(WRITE_SLICE, m.write.length - i);
          }
        } catch (e) {
          set({
            notes: working ?? base,
            notesImporting: null,
            notesImport: {
              ok: false,
              file,
              error: `the notes could not be stored in this browser: ${(e as Error).message}${written > 0 ? ` (${written} records were stored before)` : ''}`,
            },
          });
          return;
        }
        for (const n of m.write) working!.set(n.fingerprint, n);
        added += m.added;
        updated += m.updated;
        unchanged += m.unchanged;
        for (const c of m.conflicts) conflicts.push(c);
        await pause();
      }
      set({
        ...(working !== null && { notes: working }),
        notesImporting: null,
        notesImport: { ok: true, file, added, updated, unchanged, conflicts, resolved: new Map() },
      });
    };
    return {
      notes: new Map(),
      notesReady: false,
      notesError: null,
      noteSave: null,
      labelFilter: null,
      notesImport: null,
      notesImporting: null,

      async loadNotes() {
        try {
          const all = await storage.all();
          // Edits made before the stored notes arrived win over what was stored.
          set((s) => ({ notes: new Map([...all.map((n) => [n.fingerprint, n] as const), ...s.notes]), notesReady: true, notesError: null }));
        } catch (e) {
          set({ notesReady: true, notesError: `Notes cannot be kept in this browser: ${(e as Error).message}` });
        }
      },

      async editNotes(index, patch) {
        const s = get();
        const h = s.runs.a.headers[index];
        if (!h) return;
        const fingerprint = h.fingerprint;
        // A row whose fingerprint is not in yet: the edit is refused in words (the panel's fields wait meanwhile), never kept under another key.
        if (fingerprint === null) return s.notify('error', notesRefusal(h)!);
        // A row's notes kept under its old-format fingerprint (`notesFor`) are carried over to today's with the edit.
        const old = notesFor(s.notes, h);
        const steps = Object.assign(Object.create(null) as Record<string, string>, old?.steps);
        if (patch.step) {
          if (patch.step.text.trim() === '') delete steps[String(patch.step.index)];
          else steps[String(patch.step.index)] = patch.step.text;
        }
        const next: EpisodeNotes = {
          fingerprint,
          label: patch.label !== undefined ? patch.label : (old?.label ?? null),
          note: patch.note ?? old?.note ?? '',
          steps,
          file: s.runs.a.source?.label ?? old?.file ?? null,
          index,
          taskId: h.taskId,
          updatedAt: new Date().toISOString(),
        };
        const mine = ++seq;
        const notes = new Map(s.notes);
        // Notes cleared on a row that showed them from its old-format fingerprint go under both keys (none shows again).
        const keys = [fingerprint, ...(h.legacyFingerprints ?? [])];
        if (hasContent(next)) notes.set(fingerprint, next);
        else for (const k of keys) notes.delete(k);
        set({ notes, noteSave: { fingerprint, seq: mine, state: 'saving', error: null } });
        try {
          if (hasContent(next)) await storage.put(next);
          else await storage.remove(keys);
          if (get().noteSave?.seq === mine) set({ noteSave: { fingerprint, seq: mine, state: 'saved', error: null } });
        } catch (e) {
          if (get().noteSave?.seq === mine) set({ noteSave: { fingerprint, seq: mine, state: 'error', error: (e as Error).message } });
        }
      },

      setLabelFilter: (labelFilter) => set({ labelFilter }),

      exportRunNotes() {
        const s = get();
        const { headers, source } = s.runs.a;
        const ns = headers.flatMap((h) => {
          const n = notesFor(s.notes, h);
          const task = h.extra[TAU2_TASK_KEY];
          // Under the row's fingerprint of today (a note shown from its old-format one is exported under the new).
          return n
            ? [
                {
                  ...n,
                  fingerprint: h.fingerprint ?? n.fingerprint,
                  index: h.index,
                  taskId: h.taskId,
                  ...(task !== undefined && { task }),
                  file: source?.label ?? n.file,
                },
              ]
            : [];
        });
        return exportNotes(source?.label ?? null, ns);
      },

      async importNotes(file, text) {
        const parsed = parseNotesExport(text);
        if (!parsed.ok) {
          set({ notesImport: { ok: false, file, error: parsed.error } });
          return;
        }
        const { episodes } = parsed.value;
        const chunks: (() => EpisodeNotes[])[] = [];
        for (let i = 0; i < episodes.length; i += NOTES_CHUNK) chunks.push(() => episodes.slice(i, i + NOTES_CHUNK));
        set({ notesImporting: file, notesImport: null });
        await merge(file, chunks);
      },

      async importNotesFile(f) {
        const big = notesFileTooBig(f.size);
        if (big !== null) {
          set({ notesImport: { ok: false, file: f.name, error: big } });
          return;
        }
        const id = ++importSeq;
        set({ notesImporting: f.name, notesImport: null });
        const answer = await new Promise<FromWorker<'parse-notes'>>((resolve) => {
          waiting.set(id, resolve);
          port.send({ type: 'parse-notes', id, file: f });
        });
        if (answer.error !== null) {
          set({ notesImporting: null, notesImport: { ok: false, file: f.name, error: answer.error } });
          return;
        }
        const decoder = new TextDecoder();
        // Each chunk's bytes are let go once it is read, so the import holds less as it goes.
        const bytes: (Uint8Array | null)[] = [...answer.chunks];
        await merge(
          f.name,
          bytes.map((_, i) => () => {
            const text = decoder.decode(bytes[i]!);
            bytes[i] = null;
            return JSON.parse(text) as EpisodeNotes[];
          }),
        );
      },

      notesParsed(m) {
        waiting.get(m.id)?.(m);
        waiting.delete(m.id);
      },

      async clearRunNotes() {
        const s = get();
        const fps = s.runs.a.headers.flatMap((h) => (h.fingerprint !== null && s.notes.has(h.fingerprint) ? [h.fingerprint] : []));
        await storage.remove(fps);
        const notes = new Map(get().notes);
        for (const f of fps) notes.delete(f);
        set({ notes });
        return fps.length;
      },

      dismissImport: () => set({ notesImport: null }),

      async resolveImportConflict(i, choice) {
        const r = get().notesImport;
        const c = r?.ok ? r.conflicts[i] : undefined;
        const stored = c ? get().notes.get(c.fingerprint) : undefined;
        if (!r?.ok || !c || !stored || r.resolved.has(i) || (choice === 'both' && !canKeepBoth(c))) return;
        const next = resolveConflict(stored, c, choice);
        if (next !== stored)
          try {
            await storage.putMany([next]);
          } catch (e) {
            set({ notesError: `the note could not be stored in this browser: ${(e as Error).message}` });
            return;
          }
        set((s) => {
          const notes = new Map(s.notes);
          notes.set(next.fingerprint, next);
          const cur = s.notesImport;
          const notesImport = cur?.ok ? { ...cur, resolved: new Map(cur.resolved).set(i, choice) } : cur;
          return { notes, notesImport };
        });
      },
    };
  };

/** The worker's answer to a notes import, to the import waiting for it. */
export const notesHandlers: StoreHandlers<'parse-notes'> = {
  'parse-notes': (m, { get }) => get().notesParsed(m),
};
