import type { StepEdit } from '../core/contract';
import type { AppState, AppStore } from '../store/app-store';
import { decodeEdits, EMPTY_LINK, encodeEdits, formatLink, parseLink, viewFromLink, viewKey, viewToLink, type Link } from '../store/link';
import { resolveLinkUrl } from '../store/consent';
import { formatLibraryLink, parseLibraryLink } from '../store/library-link';
import type { LibraryRunAsk } from '../store/library-slice';
import { placeStep, sharedEdits } from '../store/episode-slice';

/** Edits as `whatif=` text, each list deflated once: the link is worked out on every change of the store. */
const encoded = new WeakMap<readonly StepEdit[], string>();

/** The selected episode's what-if edits, null: none. */
function editsOf(s: AppState): readonly StepEdit[] | null {
  if (s.selected === null || s.runs.a.id === null) return null;
  const edits = sharedEdits(s, s.runs.a.id, s.selected);
  return edits.length === 0 ? null : edits;
}

/** Whether writing the link now would deflate a list of edits first (not encoded yet). */
function editsToEncode(s: AppState): boolean {
  const edits = editsOf(s);
  return edits !== null && !encoded.has(edits);
}

/** The selected episode's what-if edits for the link (a τ² simulation's or a τ-bench episode's), null: none. */
function whatIfOf(s: AppState): string | null {
  const edits = editsOf(s);
  if (edits === null) return null;
  let text = encoded.get(edits);
  if (text === undefined) encoded.set(edits, (text = encodeEdits(edits)));
  return text;
}

function linkOf(s: AppState): Link {
  const src = s.pending.a?.info ?? s.runs.a.source;
  return {
    run: src?.url ?? s.runRequest?.url ?? null,
    sample: src?.sample ?? null,
    file: src?.file ?? null,
    ep: src?.embedded ?? null,
    data: s.dataBase ?? s.linkDataBase,
    episode: s.selected,
    step: s.selected === null ? null : placeStep(s),
    whatIf: whatIfOf(s),
    ...(s.teach !== null && { teach: true }),
    ...viewToLink({ filters: s.filters, sort: s.sort, query: s.query, label: s.labelFilter }),
  };
}

const sameButStep = (a: Link, b: Link): boolean =>
  a.run === b.run &&
  a.sample === b.sample &&
  a.file === b.file &&
  a.ep === b.ep &&
  a.data === b.data &&
  a.episode === b.episode &&
  a.whatIf === b.whatIf &&
  a.teach === b.teach &&
  viewKey(a) === viewKey(b);

/** How long a step-only change waits before it is written: replaceState costs milliseconds, stepping must not. */
const STEP_DELAY_MS = 100;

/** The link in the location, its run= and data= addresses resolved against the page (a relative one names the app's own server). */
function linkHere(): Link {
  const l = parseLink(location.hash);
  return { ...l, run: l.run === null ? null : resolveLinkUrl(l.run, location.href), data: l.data === null ? null : resolveLinkUrl(l.data, location.href) };
}

/** A library link's URL resolved against the page (a relative one names the app's own server). */
function libraryHere() {
  const l = parseLibraryLink(location.hash);
  return l === null || l.origin.kind !== 'url' ? l : { ...l, origin: { kind: 'url' as const, url: resolveLinkUrl(l.origin.url, location.href) } };
}

/** The run of the library on screen (opened from it, or being opened): its file as the index names it; null for another run. */
function libraryRunShown(s: AppState): string | null {
  const from = s.libraryRun;
  return !s.libraryShown && from !== null && s.library.origin !== null && from.run === (s.pending.a?.run ?? s.runs.a.id) ? from.file : null;
}

/**
 * The hash of what is on screen: the library (its origin, tab and filters) while it shows; a run of the library as the
 * library's link with `lib-run=` and the run's place (so the fragment says where the page is, a run folder too); else
 * the run's own link.
 */
function hashOf(s: AppState): string {
  const lib = s.library.origin ?? (s.libraryRequest && { kind: s.libraryRequest.kind, name: s.libraryRequest.name });
  if (s.libraryShown && lib) return formatLibraryLink({ origin: lib, tab: s.libraryTab, filters: s.libraryFilters });
  const run = libraryRunShown(s);
  if (run !== null && s.library.origin !== null) {
    const place = formatLink({ ...linkOf(s), run: null, sample: null, file: null, ep: null, data: null });
    return `${formatLibraryLink({ origin: s.library.origin, tab: s.libraryTab, filters: s.libraryFilters, run })}${place.replace(/^#/, '&')}`;
  }
  return formatLink(linkOf(s));
}

/** The run open is the library's run last opened from it (or being opened). */
const sameRun = (s: AppState): boolean => s.libraryRun !== null && s.libraryRun.run === (s.pending.a?.run ?? s.runs.a.id);

/** A link's `lib-run=`, with the place its fragment names. */
const runAsk = (file: string | null | undefined): LibraryRunAsk | null => (file == null ? null : { file, link: linkHere() });

/**
 * Where the page is, for the browser's history: the library, a run's overview, or an episode of it. A change of place
 * is a new history entry (Back and Forward move between them); anything else (filters, the step, the library's tab)
 * rewrites the entry. A run being opened counts as the place it opens at (a link's episode waiting for its row too).
 */
function placeOf(s: AppState): string {
  if (s.libraryShown) return 'library';
  const run = s.pending.a?.run ?? s.runs.a.id;
  return `run:${run}:${(s.selected ?? s.place?.episode ?? null) === null ? 'overview' : 'episode'}`;
}

/**
 * Restores the place in `location.hash`, then keeps the hash in step with the store: a new place (library, run,
 * episode: `placeOf`) is a new history entry (pushState), anything else rewrites the entry (replaceState); moving the
 * step cursor only is written once stepping pauses. Back and Forward show the entry's place again, a run still open
 * without opening it again, the library as it was left (its rows and views kept in memory, nothing judged again).
 */
export function syncLink(store: AppStore): () => void {
  const library = libraryHere();
  // A library link shows the library (or its run, `lib-run=`, once it is read); the run behind it is the first sample, as on a fresh start.
  store.getState().restore(library === null ? linkHere() : { ...EMPTY_LINK, data: linkHere().data });
  if (library !== null) store.getState().restoreLibrary(library.origin, library.tab, library.filters, runAsk(library.run));
  let last = location.hash;
  let lastLink: Link | null = null;
  let lastPlace: string | null = null;
  /** True while the page follows Back or Forward: what changes then rewrites the entry gone to, never adds one. */
  let following = false;
  let pending: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const urlOf = (hash: string): string => (hash === '' ? location.pathname + location.search : hash);
  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending === null) return;
    history.replaceState(history.state, '', urlOf(pending));
    pending = null;
  };
  // Set while a hash typed or pasted into the tab (or Back, Forward) is applied: the store passes through states that
  // are neither the old place nor the new one (the link's place on the run it leaves), and writing one would put the
  // run being left back into the address bar — where a reload at that instant reopens it (Chromium takes each
  // replaceState apart). Nothing is written meanwhile; onHashChange writes the place reached once.
  let applying = false;
  const write = (s: AppState, quiet: boolean): void => {
    if ((s.pending.a !== null || s.runRequest !== null) && s.runs.a.source === null && !s.libraryShown) return;
    const place = placeOf(s);
    // Back or Forward (`quiet`) and a run shown in place of one that could not be opened rewrite the entry.
    const moved = lastPlace !== null && place !== lastPlace && !quiet && s.pending.a?.fallback !== true;
    lastPlace = place;
    const link = linkOf(s);
    const hash = hashOf(s);
    if (hash === last) return;
    const stepOnly = lastLink !== null && sameButStep(lastLink, link);
    last = hash;
    lastLink = link;
    if (moved) {
      flush();
      history.pushState(null, '', urlOf(hash));
      return;
    }
    pending = hash;
    if (!stepOnly) flush();
    else timer ??= setTimeout(flush, STEP_DELAY_MS);
  };
  // The store is read once the changes of one event are all made (a run opened selects its link's episode in steps):
  // the place it passes through on the way is no history entry.
  let queued = false;
  const unsubscribe = store.subscribe(() => {
    if (queued || applying) return;
    queued = true;
    const quiet = following;
    const run = (): void => {
      queued = false;
      write(store.getState(), quiet);
    };
    // Edits not encoded yet (a link's what-if at the caps: 200,000 characters deflated, tens of ms) are written from a
    // task of their own, not in the one that draws the screen they arrived with (issue #35: no task over 200 ms).
    if (editsToEncode(store.getState())) setTimeout(run, 0);
    else queueMicrotask(run);
  });
  window.addEventListener('pagehide', flush);
  const onHashChange = (): void => {
    applying = true;
    try {
      applyHash();
    } finally {
      applying = false;
    }
    // The entry followed is the place reached: what follows rewrites it. A change within the open run (another
    // episode, filters) is written as the store now has it; a run still opening is written once it opens (the link
    // stays as given meanwhile).
    const s = store.getState();
    lastPlace = placeOf(s);
    if (s.pending.a === null && s.runRequest === null) write(s, true);
  };
  const applyHash = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    pending = null;
    lastLink = null;
    if (location.hash === last) return;
    last = location.hash;
    following = true;
    try {
      follow();
    } finally {
      following = false;
    }
  };
  const follow = (): void => {
    const library = libraryHere();
    if (library !== null) {
      // The library's run still open (Back or Forward to it): shown at the entry's place, not opened again.
      if (library.run == null || library.run !== store.getState().libraryRun?.file || !sameRun(store.getState())) {
        store.getState().restoreLibrary(library.origin, library.tab, library.filters, runAsk(library.run));
        return;
      }
      store.setState({ libraryShown: false });
      return showPlace(linkHere());
    }
    if (store.getState().libraryShown) store.setState({ libraryShown: false });
    const link = linkHere();
    const s = store.getState();
    const cur = linkOf(s);
    if (link.run !== cur.run || link.sample !== cur.sample || link.file !== cur.file || link.ep !== cur.ep || (link.data !== null && link.data !== cur.data)) {
      s.restore(link);
      return;
    }
    if (s.pending.a !== null) {
      // The run named is still opening: the place (and overview) apply once it is open, not to the run it replaces.
      let edits: StepEdit[] | undefined;
      try {
        edits = link.whatIf != null ? decodeEdits(link.whatIf) : undefined;
      } catch (e) {
        s.notify('error', (e as Error).message);
      }
      store.setState({
        place: link.episode === null ? null : { episode: link.episode, step: link.step, ...(edits && { edits }) },
        linkView: viewFromLink(link),
      });
      return;
    }
    showPlace(link);
  };
  /** The open run shown at a link's place: its overview (filters, search, sort), its episode and step, or no episode. */
  const showPlace = (link: Link): void => {
    const s = store.getState();
    const cur = linkOf(s);
    if (viewKey(link) !== viewKey(cur)) {
      const v = viewFromLink(link);
      store.setState({ filters: v.filters, sort: v.sort, labelFilter: v.label });
      if (v.query !== s.query) s.setQuery(v.query);
    }
    if (link.episode !== null) {
      if (link.whatIf != null && link.whatIf !== cur.whatIf)
        try {
          store.setState({ whatIfEdits: { ...s.whatIfEdits, [link.episode]: decodeEdits(link.whatIf) } });
        } catch (e) {
          s.notify('error', (e as Error).message);
        }
      s.select(link.episode, link.step ?? 0);
    } else if (s.selected !== null) s.select(null);
  };
  // Back and Forward between the entries this page pushed fire popstate (and hashchange when the fragment differs): either one, once.
  window.addEventListener('hashchange', onHashChange);
  window.addEventListener('popstate', onHashChange);
  return () => {
    flush();
    unsubscribe();
    window.removeEventListener('pagehide', flush);
    window.removeEventListener('hashchange', onHashChange);
    window.removeEventListener('popstate', onHashChange);
  };
}
