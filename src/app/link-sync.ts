import type { StepEdit } from '../core/contract';
import type { AppState, AppStore } from '../store/app-store';
import { decodeEdits, encodeEdits, formatLink, parseLink, viewFromLink, viewKey, viewToLink, type Link } from '../store/link';
import { resolveLinkUrl } from '../store/consent';
import { formatLibraryLink, parseLibraryLink } from '../store/library-link';
import { placeStep, sharedEdits } from '../store/episode-slice';

/** Edits as `whatif=` text, each list deflated once: the link is worked out on every change of the store. */
const encoded = new WeakMap<readonly StepEdit[], string>();

/** The selected episode's what-if edits for the link (a τ² simulation's or a τ-bench episode's), null: none. */
function whatIfOf(s: AppState): string | null {
  if (s.selected === null || s.runs.a.id === null) return null;
  const edits = sharedEdits(s, s.runs.a.id, s.selected);
  if (edits.length === 0) return null;
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

/**
 * Restores the place in `location.hash`, then keeps the hash in step with the store
 * (replaceState). Moving the step cursor only is written once stepping pauses.
 */
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

/** The hash of what is on screen: the library (its origin, tab and filters) while it shows, else the run's place. */
function hashOf(s: AppState): string {
  const lib = s.library.origin ?? (s.libraryRequest && { kind: s.libraryRequest.kind, name: s.libraryRequest.name });
  if (s.libraryShown && lib) return formatLibraryLink({ origin: lib, tab: s.libraryTab, filters: s.libraryFilters });
  return formatLink(linkOf(s));
}

export function syncLink(store: AppStore): () => void {
  const library = libraryHere();
  // A library link shows the library; the run behind it is the first sample, as on a fresh start.
  store.getState().restore(library === null ? linkHere() : { ...linkHere(), run: null, file: null, ep: null });
  if (library !== null) store.getState().restoreLibrary(library.origin, library.tab, library.filters);
  let last = location.hash;
  let lastLink: Link | null = null;
  let pending: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending === null) return;
    history.replaceState(history.state, '', pending === '' ? location.pathname + location.search : pending);
    pending = null;
  };
  // Set while a hash typed or pasted into the tab is applied: the store passes through states that are neither the
  // old place nor the new one (the link's place on the run it leaves), and writing one would put the run being left
  // back into the address bar — where a reload at that instant reopens it (Chromium takes each replaceState apart).
  let applying = false;
  const write = (s: AppState): void => {
    if (applying) return;
    if ((s.pending.a !== null || s.runRequest !== null) && s.runs.a.source === null && !s.libraryShown) return;
    const link = linkOf(s);
    const hash = hashOf(s);
    if (hash === last) return;
    const stepOnly = lastLink !== null && sameButStep(lastLink, link);
    last = hash;
    lastLink = link;
    pending = hash;
    if (!stepOnly) flush();
    else timer ??= setTimeout(flush, STEP_DELAY_MS);
  };
  const unsubscribe = store.subscribe(write);
  window.addEventListener('pagehide', flush);
  const onHashChange = (): void => {
    applying = true;
    try {
      applyHash();
    } finally {
      applying = false;
    }
    // A change within the open run (another episode, filters) is written as the store now has it; a run still
    // opening is written once it opens (the link stays as given meanwhile).
    const s = store.getState();
    if (s.pending.a === null && s.runRequest === null) write(s);
  };
  const applyHash = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    pending = null;
    lastLink = null;
    if (location.hash === last) return;
    last = location.hash;
    const library = libraryHere();
    if (library !== null) {
      store.getState().restoreLibrary(library.origin, library.tab, library.filters);
      return;
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
    }
  };
  window.addEventListener('hashchange', onHashChange);
  return () => {
    flush();
    unsubscribe();
    window.removeEventListener('pagehide', flush);
    window.removeEventListener('hashchange', onHashChange);
  };
}
