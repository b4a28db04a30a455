import type { StateCreator } from 'zustand/vanilla';
import { mergeNotes, type EpisodeNotes, type NoteConflict } from '../core/contract';
import type { AppState } from './app-store';
import type { NotesPort } from './notes-port';
import type { ShareContext } from '../protocol/share-context';

/** Where an episode opened from a shared link came from, and what became of the notes it carried. */
export interface SharedFrom {
  /** The file name (or URL) where it was shared: untrusted text, shown as text. */
  readonly file: string | null;
  /** Its index in that file. */
  readonly index: number | null;
  /**
   * The notes the link carried: `none` (it carried none), `saving`, `added` (kept in this browser now),
   * `same` (this browser had them already), `conflict` (this browser has other notes for the episode:
   * they were kept, the link's are shown beside them), `error` (they could not be stored).
   */
  readonly notes: 'none' | 'saving' | 'added' | 'same' | 'conflict' | 'error';
  readonly conflicts: readonly NoteConflict[];
  /** What in the link could not be read (it opened without it). */
  readonly problems: readonly string[];
  /** The note and label the link carried, shown with where it came from (absent: none). */
  readonly note?: { readonly text: string; readonly label: string | null };
  readonly error: string | null;
}

export interface ShareSlice {
  sharedFrom: SharedFrom | null;
  /** Takes in a shared link's context for the episode with this fingerprint (its notes merged, never overwriting). */
  adoptShared(ctx: ShareContext | null, fingerprint: string | null, problems: readonly string[]): Promise<void>;
}

export const createShareSlice =
  (storage: NotesPort): StateCreator<AppState, [], [], ShareSlice> =>
  (set, get) => ({
    sharedFrom: null,

    async adoptShared(ctx, fingerprint, problems) {
      if (ctx === null) {
        set({ sharedFrom: problems.length ? { file: null, index: null, notes: 'none', conflicts: [], problems, error: null } : null });
        return;
      }
      const carried = ctx.notes !== null && (ctx.notes.note.trim() !== '' || ctx.notes.label !== null);
      const base: SharedFrom = {
        file: ctx.file,
        index: ctx.index,
        notes: 'none',
        conflicts: [],
        problems,
        error: null,
        ...(carried && { note: { text: ctx.notes!.note, label: ctx.notes!.label } }),
      };
      if (ctx.notes === null || fingerprint === null) {
        set({ sharedFrom: base });
        return;
      }
      const run = get().runs.a.id;
      set({ sharedFrom: { ...base, notes: 'saving' } });
      // The notes belong to the episode opened, whatever fingerprint the link claims.
      const incoming: EpisodeNotes = { ...ctx.notes, fingerprint, file: ctx.file, index: ctx.index };
      try {
        // Merged against what this browser has stored (read now, so nothing loaded late is overwritten).
        const stored = await storage.all();
        const mine = new Map([...stored.map((n) => [n.fingerprint, n] as const), ...get().notes]);
        const m = mergeNotes([...mine.values()], [incoming]);
        if (m.write.length) await storage.putMany(m.write);
        if (get().runs.a.id !== run) return;
        const notes = new Map(get().notes);
        for (const n of m.write) notes.set(n.fingerprint, n);
        const mineNow = mine.get(fingerprint);
        if (mineNow && !notes.has(fingerprint)) notes.set(fingerprint, mineNow);
        set({ notes, sharedFrom: { ...base, notes: m.conflicts.length ? 'conflict' : m.added || m.updated ? 'added' : 'same', conflicts: m.conflicts } });
      } catch (e) {
        if (get().runs.a.id === run)
          set({ sharedFrom: { ...base, notes: 'error', error: `the notes in the link could not be kept in this browser: ${(e as Error).message}` } });
      }
    },
  });
