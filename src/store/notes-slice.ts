import type { StateCreator } from 'zustand/vanilla';
import {
  canKeepBoth,
  exportNotes,
  hasContent,
  mergeNotes,
  parseNotesExport,
  resolveConflict,
  type ConflictChoice,
  type EpisodeHeader,
  type EpisodeNotes,
  type NoteConflict,
  type NoteLabel,
} from '../core/contract';
import type { AppState } from './app-store';
import type { NotesPort } from './notes-port';

export type LabelFilter = NoteLabel | 'labelled' | 'unlabelled';

export type NotesImportResult =
  | {
      readonly ok: true;
      readonly file: string;
      readonly added: number;
      readonly updated: number;
      readonly unchanged: number;
      readonly conflicts: readonly NoteConflict[];
      /** How each conflict was settled (null: not yet; the stored value is kept meanwhile). */
      readonly resolved: readonly (ConflictChoice | null)[];
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

  loadNotes(): Promise<void>;
  editNotes(index: number, patch: NotesPatch): Promise<void>;
  setLabelFilter(f: LabelFilter | null): void;
  /** Notes and labels of the open run's episodes as one JSON file's text. */
  exportRunNotes(): string;
  importNotes(file: string, text: string): Promise<void>;
  /** Deletes the notes of the open run's episodes from this browser. */
  clearRunNotes(): Promise<number>;
  dismissImport(): void;
  /** Settles conflict `i` of the last import: keep mine, take theirs, or keep both texts. */
  resolveImportConflict(i: number, choice: ConflictChoice): Promise<void>;
}

/** The notes of an episode, or null. */
export const notesOf = (s: Pick<AppState, 'notes'>, h: EpisodeHeader | undefined): EpisodeNotes | null => (h ? (s.notes.get(h.fingerprint) ?? null) : null);

/** Rows kept by the label filter. */
export function filterByLabel(
  rows: readonly number[],
  headers: readonly EpisodeHeader[],
  notes: ReadonlyMap<string, EpisodeNotes>,
  f: LabelFilter | null,
): readonly number[] {
  if (f === null) return rows;
  return rows.filter((i) => {
    const label = notes.get(headers[i]!.fingerprint)?.label ?? null;
    return f === 'labelled' ? label !== null : f === 'unlabelled' ? label === null : label === f;
  });
}

/** How many episodes of the run carry each label. */
export function labelCounts(headers: readonly EpisodeHeader[], notes: ReadonlyMap<string, EpisodeNotes>): Map<NoteLabel, number> {
  const out = new Map<NoteLabel, number>();
  for (const h of headers) {
    const l = notes.get(h.fingerprint)?.label;
    if (l) out.set(l, (out.get(l) ?? 0) + 1);
  }
  return out;
}

let seq = 0;

export const createNotesSlice =
  (storage: NotesPort): StateCreator<AppState, [], [], NotesSlice> =>
  (set, get) => ({
    notes: new Map(),
    notesReady: false,
    notesError: null,
    noteSave: null,
    labelFilter: null,
    notesImport: null,

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
      const old = s.notes.get(h.fingerprint);
      const steps = { ...(old?.steps ?? {}) };
      if (patch.step) {
        if (patch.step.text.trim() === '') delete steps[String(patch.step.index)];
        else steps[String(patch.step.index)] = patch.step.text;
      }
      const next: EpisodeNotes = {
        fingerprint: h.fingerprint,
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
      if (hasContent(next)) notes.set(h.fingerprint, next);
      else notes.delete(h.fingerprint);
      set({ notes, noteSave: { fingerprint: h.fingerprint, seq: mine, state: 'saving', error: null } });
      try {
        if (hasContent(next)) await storage.put(next);
        else await storage.remove([h.fingerprint]);
        if (get().noteSave?.seq === mine) set({ noteSave: { fingerprint: h.fingerprint, seq: mine, state: 'saved', error: null } });
      } catch (e) {
        if (get().noteSave?.seq === mine) set({ noteSave: { fingerprint: h.fingerprint, seq: mine, state: 'error', error: (e as Error).message } });
      }
    },

    setLabelFilter: (labelFilter) => set({ labelFilter }),

    exportRunNotes() {
      const s = get();
      const { headers, source } = s.runs.a;
      const ns = headers.flatMap((h) => {
        const n = s.notes.get(h.fingerprint);
        return n ? [{ ...n, index: h.index, taskId: h.taskId, file: source?.label ?? n.file }] : [];
      });
      return exportNotes(source?.label ?? null, ns);
    },

    async importNotes(file, text) {
      const parsed = parseNotesExport(text);
      if (!parsed.ok) {
        set({ notesImport: { ok: false, file, error: parsed.error } });
        return;
      }
      const m = mergeNotes([...get().notes.values()], parsed.value.episodes);
      try {
        await storage.putMany(m.write);
      } catch (e) {
        set({ notesImport: { ok: false, file, error: `the notes could not be stored in this browser: ${(e as Error).message}` } });
        return;
      }
      const notes = new Map(get().notes);
      for (const n of m.write) notes.set(n.fingerprint, n);
      set({
        notes,
        notesImport: {
          ok: true,
          file,
          added: m.added,
          updated: m.updated,
          unchanged: m.unchanged,
          conflicts: m.conflicts,
          resolved: m.conflicts.map(() => null),
        },
      });
    },

    async clearRunNotes() {
      const s = get();
      const fps = s.runs.a.headers.map((h) => h.fingerprint).filter((f) => s.notes.has(f));
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
      if (!r?.ok || !c || !stored || r.resolved[i] !== null || (choice === 'both' && !canKeepBoth(c))) return;
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
        const notesImport = cur?.ok ? { ...cur, resolved: cur.resolved.map((x, k) => (k === i ? choice : x)) } : cur;
        return { notes, notesImport };
      });
    },
  });
