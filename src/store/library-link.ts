import { LIBRARY_FILTER_KEYS, NO_LIBRARY_FILTERS, type LibraryFilters } from '../core/contract';
import { LIBRARY_TABS, type LibraryOrigin, type LibraryTab } from './library-slice';

/**
 * A library's link: `#library=<url>` (a runs.parquet on a server), or `#library-folder=<name>` / `#library-file=<name>`
 * for a local folder or file (which only its owner can pick again: the app asks for it), with the view —
 * `lib-tab=heatmap|health` and the filters `lib-benchmark=`, `lib-domain=`, `lib-model=`, `lib-data=`; and a run of it shown, `lib-run=<file>`,
 * with the run's place (`episode=`, `step=`, `task=`, `q=`…, as a run's link has them).
 */
export interface LibraryLink {
  readonly origin: LibraryOrigin;
  readonly tab: LibraryTab;
  readonly filters: LibraryFilters;
  /** A run of the library shown (`lib-run=`: its file as the index names it); the run's place follows in the same fragment (`episode=`, `task=`…). */
  readonly run?: string | null;
}

const PARAM: Readonly<Record<keyof LibraryFilters, string>> = { benchmark: 'lib-benchmark', domain: 'lib-domain', model: 'lib-model', dataVersion: 'lib-data' };

/** Keeps `:/` readable; `&`, `#`, `%`, `=` and spaces stay escaped. */
const enc = (v: string): string => encodeURIComponent(v).replace(/%2F/gi, '/').replace(/%3A/gi, ':');

/** The library a link names, or null when it names none. Values are only ever shown as text and compared. */
export function parseLibraryLink(hash: string): LibraryLink | null {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const get = (k: string): string | null => {
    const v = p.get(k);
    return v === null || v === '' ? null : v.slice(0, 2000);
  };
  const url = get('library');
  const folder = get('library-folder');
  const file = get('library-file');
  const origin: LibraryOrigin | null =
    url !== null ? { kind: 'url', url } : folder !== null ? { kind: 'folder', name: folder } : file !== null ? { kind: 'file', name: file } : null;
  if (origin === null) return null;
  const tab = get('lib-tab');
  const run = get('lib-run');
  const filters = Object.fromEntries(LIBRARY_FILTER_KEYS.map((k) => [k, get(PARAM[k])])) as unknown as LibraryFilters;
  return { origin, tab: LIBRARY_TABS.find((t) => t === tab) ?? 'leaderboard', filters: { ...NO_LIBRARY_FILTERS, ...filters }, ...(run !== null && { run }) };
}

export function formatLibraryLink(l: LibraryLink): string {
  const o = l.origin;
  const parts = [o.kind === 'url' ? `library=${enc(o.url)}` : `library-${o.kind}=${enc(o.name)}`];
  if (l.tab !== 'leaderboard') parts.push(`lib-tab=${l.tab}`);
  for (const k of LIBRARY_FILTER_KEYS) {
    const v = l.filters[k];
    if (v !== null) parts.push(`${PARAM[k]}=${enc(v)}`);
  }
  if (l.run != null) parts.push(`lib-run=${enc(l.run)}`);
  return `#${parts.join('&')}`;
}
