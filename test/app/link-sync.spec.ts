/**
 * The address bar while a link typed or pasted into an open tab is applied (src/app/link-sync.ts): the app must never
 * write the run it is leaving back over the new link. It did, for an instant: restoring the link sets the store in
 * steps (the place first, then the run to open), and the first step — the new place on the old run — was written
 * with replaceState, then the next step wrote the new link again. A reload landing between the two (Chromium hands
 * each replaceState to the browser process on its own) reopened the old run: test/browser/tau2-review.spec.ts's
 * "a τ-bench run beside a τ² run is refused…" failed so under load.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { syncLink } from '../../src/app/link-sync';
import { createAppStore, type AppStore } from '../../src/store/app-store';
import { NO_RUN } from '../../src/store/run-state';

/** The page's location, history and window as link-sync uses them, with every hash written. */
function fakePage(hash: string): { written: string[]; go(hash: string): void } {
  const written: string[] = [];
  const location = { hash, pathname: '/', search: '', href: `https://app.example/${hash}` };
  const target = new EventTarget();
  const setHash = (h: string): void => {
    location.hash = h;
    location.href = `https://app.example/${h}`;
  };
  vi.stubGlobal('location', location);
  vi.stubGlobal('history', {
    state: null,
    replaceState(_state: unknown, _title: string, url: string) {
      const h = url.startsWith('#') ? url : '';
      written.push(h);
      setHash(h);
    },
  });
  vi.stubGlobal('window', { addEventListener: target.addEventListener.bind(target), removeEventListener: target.removeEventListener.bind(target) });
  return {
    written,
    go(h) {
      setHash(h);
      target.dispatchEvent(new Event('hashchange'));
    },
  };
}

/** A store showing sample `name` as run A (as once it is open). */
function storeShowing(name: string): AppStore {
  const store = createAppStore({ send: () => undefined });
  store.setState((s) => ({
    samples: ['retail-sample', 'tau2-mock-sample'],
    runs: { ...s.runs, a: { ...NO_RUN, id: 1, source: { kind: 'sample', label: `${name}.json`, url: null, sample: name, file: null } } },
  }));
  return store;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('link-sync while a new link is applied', () => {
  it('never writes the run being left over a link to another sample', () => {
    const page = fakePage('#sample=tau2-mock-sample');
    const store = storeShowing('tau2-mock-sample');
    const stop = syncLink(store);
    try {
      page.written.length = 0;
      page.go('#sample=retail-sample&episode=2');
      expect(store.getState().pending.a?.info.sample).toBe('retail-sample');
      expect(page.written.filter((h) => h.includes('tau2-mock-sample'))).toEqual([]);
      expect(location.hash).toBe('#sample=retail-sample&episode=2');
    } finally {
      stop();
    }
  });

  it('keeps a link to another host’s run in the address bar while the app asks before fetching it', () => {
    const page = fakePage('#sample=tau2-mock-sample');
    const store = storeShowing('tau2-mock-sample');
    const stop = syncLink(store);
    try {
      page.written.length = 0;
      page.go('#run=https%3A%2F%2Felsewhere.example%2Frun.json');
      expect(store.getState().runRequest).toEqual({ url: 'https://elsewhere.example/run.json' });
      expect(page.written).toEqual([]);
      expect(location.hash).toBe('#run=https%3A%2F%2Felsewhere.example%2Frun.json');
    } finally {
      stop();
    }
  });
});
