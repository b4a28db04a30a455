import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../src/store/app-store';
import { hostConsent, originOf, STORAGE_KEY, type KeyValueStorage } from '../../src/store/consent';
import { EMPTY_LINK } from '../../src/store/link';
import { says } from '../support/worker-says';
import { fakePort } from '../support/fake-port';

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const OWN = 'http://127.0.0.1:4173';

describe('hosts a link may make the app contact', () => {
  it('knows the origin of http(s) URLs only', () => {
    expect(originOf('https://elsewhere.example:8443/a/b.json?x')).toBe('https://elsewhere.example:8443');
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('data:text/plain,x')).toBeNull();
    expect(originOf('not a url')).toBeNull();
  });

  it('agrees to the own origin, remembers others per origin in storage, and forgets them', () => {
    const storage = memoryStorage();
    const c = hostConsent(OWN, storage);
    expect(c.agreed(`${OWN}/runs/a.json`)).toBe(true);
    expect(c.agreed('https://elsewhere.example/a.json')).toBe(false);
    c.remember('https://elsewhere.example/tau-bench/x');
    expect(c.agreed('https://elsewhere.example/other.json')).toBe(true);
    expect(c.agreed('https://elsewhere.example.evil/other.json')).toBe(false);
    expect(c.agreed('http://elsewhere.example/other.json')).toBe(false);
    expect(JSON.parse(storage.data.get(STORAGE_KEY)!)).toEqual(['https://elsewhere.example']);
    expect(hostConsent(OWN, storage).agreed('https://elsewhere.example/y')).toBe(true);
    c.forget();
    expect(c.agreed('https://elsewhere.example/other.json')).toBe(false);
    expect(hostConsent(OWN, storage).remembered()).toEqual([]);
  });

  it('survives garbage in storage', () => {
    const storage = memoryStorage();
    storage.data.set(STORAGE_KEY, '{not json');
    expect(hostConsent(OWN, storage).remembered()).toEqual([]);
    storage.data.set(STORAGE_KEY, JSON.stringify([1, 'https://a.example', null]));
    expect(hostConsent(OWN, storage).remembered()).toEqual(['https://a.example']);
  });

  it('a link with data= from a host not agreed to proposes it and fetches nothing', () => {
    const { port, calls } = fakePort();
    const s = createAppStore(port, hostConsent(OWN, memoryStorage())).getState;
    s().restore({ ...EMPTY_LINK, sample: 'a', data: 'https://elsewhere.example/tau' });
    expect(calls.filter((c) => c.type === 'use-data-url')).toEqual([]);
    expect(s().linkDataBase).toBe('https://elsewhere.example/tau');
    expect(s().dataBase).toBeNull();
    s().agreeToFetch('https://elsewhere.example/tau', true);
    expect(calls.filter((c) => c.type === 'use-data-url')).toEqual([{ type: 'use-data-url', base: 'https://elsewhere.example/tau' }]);
    expect(s().rememberedHosts).toEqual(['https://elsewhere.example']);
  });

  it('a link with data= from an agreed host uses it at once', () => {
    const { port, calls } = fakePort();
    const storage = memoryStorage();
    hostConsent(OWN, storage).remember('https://raw.example');
    const s = createAppStore(port, hostConsent(OWN, storage)).getState;
    s().restore({ ...EMPTY_LINK, sample: 'a', data: 'https://raw.example/tau' });
    expect(calls.map((c) => c.type)).toEqual(['use-data-url', 'open-run']);
    expect(s().linkDataBase).toBeNull();
  });

  it('a link with run= from a host not agreed to waits for an answer; yes opens it, remembered if asked', () => {
    const { port, calls } = fakePort();
    const storage = memoryStorage();
    const s = createAppStore(port, hostConsent(OWN, storage)).getState;
    s().restore({ ...EMPTY_LINK, run: 'https://elsewhere.example/run.json', episode: 1 });
    expect(calls).toEqual([]);
    expect(s().runRequest).toEqual({ url: 'https://elsewhere.example/run.json' });
    s().answerRunRequest(true, true);
    expect(calls).toEqual([{ type: 'open-run', slot: 'a', run: 1, source: { kind: 'url', url: 'https://elsewhere.example/run.json' } }]);
    expect(s().runRequest).toBeNull();
    expect(s().place).toEqual({ episode: 1, step: null });
    expect(hostConsent(OWN, storage).agreed('https://elsewhere.example/other.json')).toBe(true);
  });

  it('no to a run= link opens the first sample instead; a same-origin run= opens without asking', () => {
    const { port, calls } = fakePort();
    const s = createAppStore(port, hostConsent(OWN, memoryStorage())).getState;
    s().receive(says.samples(['retail-sample']));
    s().restore({ ...EMPTY_LINK, run: 'https://elsewhere.example/run.json' });
    s().answerRunRequest(false);
    expect(calls).toEqual([{ type: 'open-run', slot: 'a', run: 1, source: { kind: 'sample', name: 'retail-sample' } }]);
    s().restore({ ...EMPTY_LINK, run: `${OWN}/runs/a.json` });
    expect(calls.at(-1)).toEqual({ type: 'open-run', slot: 'a', run: 2, source: { kind: 'url', url: `${OWN}/runs/a.json` } });
  });

  it('a run= that is not an http(s) address is refused with a message', () => {
    const { port, calls } = fakePort();
    const s = createAppStore(port, hostConsent(OWN, memoryStorage())).getState;
    s().restore({ ...EMPTY_LINK, run: 'javascript:alert(1)' });
    expect(calls).toEqual([]);
    expect(s().runRequest).toBeNull();
    expect(s().notices.at(-1)?.text).toMatch(/not an http\(s\) address/);
  });
});
