import type { AppState, AppStore } from '../store/app-store';
import { formatLink, parseLink, type Link } from '../store/link';

function linkOf(s: AppState): Link {
  const src = s.pending?.info ?? s.source;
  return {
    run: src?.url ?? s.runRequest?.url ?? null,
    sample: src?.sample ?? null,
    file: src?.file ?? null,
    ep: src?.embedded ?? null,
    data: s.dataBase ?? s.linkDataBase,
    episode: s.selected,
    step: s.selected === null ? null : s.step,
  };
}

/** Restores the place in `location.hash`, then keeps the hash in step with the store (replaceState). */
export function syncLink(store: AppStore): () => void {
  store.getState().restore(parseLink(location.hash));
  let last = location.hash;
  const unsubscribe = store.subscribe((s) => {
    if ((s.pending !== null || s.runRequest !== null) && s.source === null) return;
    const hash = formatLink(linkOf(s));
    if (hash === last) return;
    last = hash;
    history.replaceState(history.state, '', hash === '' ? location.pathname + location.search : hash);
  });
  const onHashChange = (): void => {
    if (location.hash === last) return;
    last = location.hash;
    const link = parseLink(location.hash);
    const s = store.getState();
    const cur = linkOf(s);
    if (link.run !== cur.run || link.sample !== cur.sample || link.file !== cur.file || link.ep !== cur.ep || (link.data !== null && link.data !== cur.data)) s.restore(link);
    else if (link.episode !== null) s.select(link.episode, link.step ?? 0);
  };
  window.addEventListener('hashchange', onHashChange);
  return () => {
    unsubscribe();
    window.removeEventListener('hashchange', onHashChange);
  };
}
