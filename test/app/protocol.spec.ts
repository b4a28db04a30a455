import { afterEach, describe, expect, it } from 'vitest';
import { connectWorker, type WorkerLike } from '../../src/app/evaluator-client';
import {
  dispatch,
  EVENTS,
  FROM_WORKER_NAMES,
  REQUEST_NAMES,
  REQUESTS,
  type FromWorker,
  type FromWorkerName,
  type RequestName,
  type ToWorker,
} from '../../src/protocol/messages';
import { createAppStore, type AppStore } from '../../src/store/app-store';
import { STORE_HANDLERS } from '../../src/store/receive';
import { requestHandlers } from '../../src/worker/handlers';
import type { LibraryController } from '../../src/worker/library/library-controller';
import type { RunController } from '../../src/worker/run-controller';
import type { RunHandle } from '../../src/worker/run-handle';
import { fakePort } from '../support/fake-port';

/**
 * The page ↔ worker messages are declared once (src/protocol/messages.ts). Everything else is
 * derived from that declaration; these specs check that each side covers every message, from the
 * protocol's own name lists, so a message added there is covered here without editing this file.
 * The type-level checks (each side typed from the declaration) are in protocol.types.ts, checked by `tsc`
 * (`npm run typecheck`), not here: vitest does not check types.
 */

/** Fields enough for any request or answer: handlers take what their message has. */
const ANY_FIELDS = {
  slot: 'a',
  run: 99,
  id: 99,
  episode: 0,
  devDataUrl: 'http://localhost/tau-bench-data/',
  source: { kind: 'sample', name: 'nothing' },
  files: [],
  name: 'folder',
  base: 'http://localhost/data',
  indices: [],
  query: 'q',
  edits: [],
  context: { file: null, index: null, step: 0, notes: null, edits: [] },
  title: 't',
  notes: [],
} as const;
const request = (type: RequestName): ToWorker => ({ ...ANY_FIELDS, type }) as unknown as ToWorker;
const answer = (type: FromWorkerName): FromWorker =>
  ({ ...ANY_FIELDS, type, samples: [], headers: [], summaries: [], view: null, error: 'x', file: null, payload: null }) as unknown as FromWorker;

describe('the protocol, declared once', () => {
  it('names every request and every message back, with no name both an event and a request', () => {
    expect(REQUEST_NAMES).toEqual(Object.keys(REQUESTS));
    expect(new Set(REQUEST_NAMES).size).toBe(REQUEST_NAMES.length);
    expect(FROM_WORKER_NAMES).toEqual([...Object.keys(EVENTS), ...REQUEST_NAMES.filter((k) => REQUESTS[k].answered)]);
    expect(Object.keys(EVENTS).filter((k) => k in REQUESTS)).toEqual([]);
    // The answered requests are the ones whose answers the page waits for.
    expect(REQUEST_NAMES.filter((k) => REQUESTS[k].answered).sort()).toEqual([
      'audio',
      'init',
      'library-stats',
      'open-library',
      'parse-notes',
      'report',
      'search',
      'share-link',
      'state-at-step',
      'transcript',
      'use-folder',
      'view',
      'what-if',
    ]);
  });
});

describe('the page’s side covers every message', () => {
  function standIn(): WorkerLike & { posted: ToWorker[] } {
    const posted: ToWorker[] = [];
    return { posted, postMessage: (m) => void posted.push(m), onmessage: null, onerror: null };
  }

  it('the client posts every request as it is, and hands every message back to the store’s receive', () => {
    const worker = standIn();
    const { port, attach } = connectWorker(worker, 'http://localhost/tau-bench-data/');
    const received: FromWorker[] = [];
    attach({ getState: () => ({ receive: (m: FromWorker) => void received.push(m), notify: () => undefined }) } as unknown as AppStore);
    expect(worker.posted).toEqual([{ type: 'init', devDataUrl: 'http://localhost/tau-bench-data/' }]);
    for (const name of REQUEST_NAMES) {
      const m = request(name);
      port.send(m);
      expect(worker.posted.at(-1)).toBe(m);
    }
    for (const name of FROM_WORKER_NAMES) {
      const m = answer(name);
      worker.onmessage!({ data: m } as MessageEvent<FromWorker>);
      expect(received.at(-1)).toBe(m);
    }
    expect(received.map((m) => m.type)).toEqual(FROM_WORKER_NAMES);
  });

  it('the fake port records every request the protocol declares', () => {
    const seen: RequestName[] = [];
    const { port, calls } = fakePort((m) => void seen.push(m.type));
    for (const name of REQUEST_NAMES) port.send(request(name));
    expect(calls.map((m) => m.type)).toEqual(REQUEST_NAMES);
    expect(seen).toEqual(REQUEST_NAMES);
  });

  it('the store has a handler for every event and answer, and one about a run it never opened changes nothing', () => {
    expect(Object.keys(STORE_HANDLERS).sort()).toEqual([...FROM_WORKER_NAMES].sort());
    for (const name of FROM_WORKER_NAMES) expect(typeof STORE_HANDLERS[name]).toBe('function');
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    const before = store.getState();
    for (const name of FROM_WORKER_NAMES) if (name !== 'init') store.getState().receive(answer(name));
    expect(store.getState()).toBe(before);
    expect(calls).toEqual([]);
  });
});

describe('the worker’s side covers every request', () => {
  const self = globalThis as { self?: unknown };
  afterEach(() => void delete self.self);

  it('dispatches each request to its handler, which acts on the run controller or the named run’s handle (or answers)', () => {
    const acted: string[] = [];
    const locator = { devDataUrl: '', agreedBases: new Set<string>() };
    // The run every request names is open: its handle records what it is asked.
    const handle = new Proxy({} as RunHandle, {
      get:
        (_target, key) =>
        (...args: unknown[]) =>
          void acted.push(`run.${String(key)}:${args.length}`),
    });
    const runs = new Proxy({ locator } as unknown as RunController, {
      get: (_target, key) =>
        key === 'locator'
          ? locator
          : key === 'withRun'
            ? (_run: number, act: (h: RunHandle) => void) => act(handle)
            : (...args: unknown[]) => void acted.push(`${String(key)}:${args.length}`),
    });
    const posted: FromWorker[] = [];
    self.self = { postMessage: (m: FromWorker) => void posted.push(m) };
    const library = new Proxy({} as LibraryController, {
      get:
        (_target, key) =>
        (...args: unknown[]) =>
          void acted.push(`library.${String(key)}:${args.length}`),
    });
    const handlers = requestHandlers(runs, library);
    expect(Object.keys(handlers)).toEqual(REQUEST_NAMES);
    for (const name of REQUEST_NAMES) {
      const before = acted.length + posted.length;
      dispatch(handlers, request(name));
      expect(acted.length + posted.length, name).toBeGreaterThan(before);
    }
    expect(posted.map((m) => m.type)).toEqual(['init', 'use-folder']);
  });
});
