/**
 * Which hosts the app may fetch from without asking. A link can name any host (`run=`, `data=`):
 * the app fetches from it only after the user agreed, exactly as for a URL typed by hand. The
 * app's own origin needs no question; agreements the user asks to remember are kept per origin
 * in this browser (localStorage under `STORAGE_KEY`), and can be forgotten.
 */
export interface HostConsent {
  /** True when fetching from this URL needs no question. */
  agreed(url: string): boolean;
  /** Remembers the URL's origin as agreed (in this browser, when storage is given). */
  remember(url: string): void;
  /** Forgets every remembered origin. */
  forget(): void;
  remembered(): readonly string[];
}

/** The part of `Storage` this uses (localStorage in the app; absent in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const STORAGE_KEY = 'tau-inspect:agreed-origins';

/** The origin of an http(s) URL, else null (a `javascript:`, `data:` or malformed address has none to agree to). */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * An address from a link, resolved against the page it opens on: `runs/x.json` or `/runs/x.json` on
 * the app's own server becomes that server's URL (an absolute address stays as it is; one of another
 * scheme stays unusable, see `originOf`).
 */
export function resolveLinkUrl(url: string, page: string | null): string {
  if (page === null || /^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
  try {
    return new URL(url, page).href;
  } catch {
    return url;
  }
}

export function hostConsent(ownOrigin: string | null = null, storage: KeyValueStorage | null = null): HostConsent {
  const load = (): string[] => {
    try {
      const v: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]');
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  };
  const session = new Set<string>(load());
  const save = (): void => {
    try {
      storage?.setItem(STORAGE_KEY, JSON.stringify([...session]));
    } catch {
      /* storage full or blocked: remembered for this page only */
    }
  };
  return {
    agreed(url) {
      const o = originOf(url);
      return o !== null && (o === ownOrigin || session.has(o));
    },
    remember(url) {
      const o = originOf(url);
      if (o === null || o === ownOrigin) return;
      session.add(o);
      save();
    },
    forget() {
      session.clear();
      try {
        storage?.removeItem(STORAGE_KEY);
      } catch {
        /* nothing kept */
      }
    },
    remembered: () => [...session],
  };
}
