import type { StateCreator } from 'zustand/vanilla';
import type { StepEdit } from '../core/contract';
import type { AppState } from './app-store';
import { originOf, type HostConsent } from './consent';
import { decodeEdits, viewFromLink, type Link, type LinkView } from './link';

/** Where a link points: the run it names, and the place and overview to show once that run is open. */
export interface LinkSlice {
  /** Episode and step to show once the pending run is open (from a link). */
  place: { readonly episode: number; readonly step: number | null; readonly edits?: readonly StepEdit[] } | null;
  /** Filters, search and sort from a link, applied once the pending run is open. */
  linkView: LinkView | null;
  /**
   * A link named a local file (`file=`) this browser does not keep: the recipient must open it
   * themselves; then the app goes to the place the link names.
   */
  fileRequest: { readonly name: string; readonly place: LinkSlice['place']; readonly view: LinkView | null } | null;

  restore(link: Link): void;
}

export const createLinkSlice =
  (consent: HostConsent): StateCreator<AppState, [], [], LinkSlice> =>
  (set, get) => ({
    place: null,
    linkView: null,
    fileRequest: null,

    restore(link) {
      // A link never makes the app fetch from a host the user has not agreed to: it only proposes.
      if (link.data !== null) {
        if (consent.agreed(link.data)) get().agreeToFetch(link.data);
        else set({ linkDataBase: link.data });
      }
      let edits: StepEdit[] | undefined;
      if (link.whatIf != null)
        try {
          edits = decodeEdits(link.whatIf);
        } catch (e) {
          get().notify('error', `${(e as Error).message}; the episode opens without them.`);
        }
      set({
        place: link.episode === null ? null : { episode: link.episode, step: link.step, ...(edits && { edits }) },
        // A teaching link opens its episode as "judge it yourself" (the verdict hidden until revealed).
        teach: link.teach === true && (link.episode !== null || link.ep !== null) ? { run: null, episode: null, marks: {}, revealed: false } : null,
        runRequest: null,
        linkView: viewFromLink(link),
        fileRequest: null,
      });
      const s = get();
      if (link.ep !== null) {
        // Decoded in the worker (bounded inflate): a damaged or oversized fragment comes back as run-error.
        s.openRun(
          'a',
          { kind: 'shared', payload: link.ep },
          { kind: 'shared', label: 'episode shared in the link', url: null, sample: null, file: null, embedded: link.ep },
        );
        if (link.episode === null) set({ place: { episode: 0, step: link.step, ...(edits && { edits }) } });
      } else if (link.run !== null) {
        if (consent.agreed(link.run)) s.openUrl(link.run);
        else if (originOf(link.run) === null)
          s.notify('error', `The link names a results file at “${link.run.slice(0, 200)}”, which is not an http(s) address; nothing was opened.`);
        else set({ runRequest: { url: link.run } });
      } else if (link.sample !== null) s.openSample(link.sample);
      else if (link.file !== null)
        s.openRun('a', { kind: 'stored', name: link.file }, { kind: 'stored', label: link.file, url: null, sample: null, file: link.file });
      else {
        const samples = s.samples;
        if (samples && samples[0] !== undefined) s.openSample(samples[0]);
        else set({ wantSample: true });
      }
    },
  });
