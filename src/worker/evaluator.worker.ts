/// <reference lib="webworker" />
import type { EpisodeView } from '../core/analysis/episode-view';
import { DOMAIN_TABLES, type Domain } from '../core/data/db';
import { domainOnlyTools } from '../core/domains/registry';
import { loadDataVersions, type DataVersion, type ReadText } from '../core/data/versions';
import { prepareSha256 } from '../core/py/sha256';
import { InspectSession, type Detection, type EpisodeSummary } from '../core/session';
import { allCached, browserCache, candidatePaths, folderIndex, folderReader, loadStoredFile, prefetchUrl, storeFile, type TextCache } from './data-sources';
import type { DataOrigin, FromWorker, RunSource, ToWorker } from './protocol';
import { hasSampleData, readSampleData, sampleNames, sampleRunText } from './sample';

declare const self: DedicatedWorkerGlobalScope;

/** How the invented sample data is named where a τ-bench commit would be. */
const SAMPLE_COMMIT = 'sample-runs/data';

const DEFAULT_DATA_BASE = 'https://raw.githubusercontent.com/sierra-research/tau-bench';

const post = (m: FromWorker): void => self.postMessage(m);

/** The WebAssembly sha256 (the pure-TS fallback works too, only slower). */
const hashReady = prepareSha256().catch(() => undefined);

/** Lets queued messages (view, search, prioritize) run between episodes. */
const yieldToMessages = (() => {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return (): Promise<void> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });
})();

interface Current {
  readonly run: number;
  readonly session: InspectSession;
  readonly label: string;
  readonly sample: boolean;
  detection: Detection | null;
  origin: DataOrigin;
  /** Bumped whenever data changes, so a running loop stops. */
  epoch: number;
  evaluated: Uint8Array;
  count: number;
  priority: number[];
  next: number;
  finished: boolean;
}

let devDataUrl = '';
let current: Current | null = null;
let folder: { name: string; index: Map<string, File> } | null = null;
const agreedBases = new Set<string>();
const versionMemo = new Map<string, Promise<DataVersion[]>>();
let cache: TextCache | null = null;
let devAvailable: Promise<string | null> | null = null;

const textCache = (): TextCache | null => {
  try {
    return (cache ??= browserCache());
  } catch {
    return null;
  }
};

function probeDev(): Promise<string | null> {
  devAvailable ??= (async () => {
    if (!devDataUrl) return null;
    try {
      const res = await fetch(devDataUrl, { cache: 'no-store' });
      if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return null;
      const body = (await res.json()) as { tauBenchData?: boolean; source?: string };
      return body.tauBenchData ? (body.source ?? 'TAU_BENCH_DATA') : null;
    } catch {
      return null;
    }
  })();
  return devAvailable;
}

async function readRun(source: RunSource): Promise<{ text: string; label: string }> {
  switch (source.kind) {
    case 'sample': {
      const text = await sampleRunText(source.name);
      if (text === null) throw new Error(`there is no sample run named "${source.name}" (have: ${sampleNames.join(', ') || 'none'})`);
      return { text, label: `${source.name}.json` };
    }
    case 'file':
      return { text: await source.file.text(), label: source.file.name };
    case 'stored': {
      const file = await loadStoredFile();
      if (!file || file.name !== source.name) throw new Error('it is no longer kept in this browser; open the file again');
      return { text: await file.text(), label: file.name };
    }
    case 'url': {
      let res: Response;
      try {
        res = await fetch(source.url);
      } catch (e) {
        throw new Error(`could not fetch it (${e instanceof Error ? e.message : String(e)}; offline, or the server does not allow cross-origin requests)`);
      }
      if (!res.ok) throw new Error(`the server answered HTTP ${res.status}`);
      return { text: await res.text(), label: source.url };
    }
  }
}

const sourceLabel = (s: RunSource): string => (s.kind === 'sample' ? `${s.name}.json` : s.kind === 'file' ? s.file.name : s.kind === 'stored' ? s.name : s.url);

async function openRun(run: number, source: RunSource): Promise<void> {
  let session: InspectSession;
  let label = sourceLabel(source);
  let early: { domain: Domain; located: Promise<Located | null> } | null = null;
  try {
    const r = await readRun(source);
    label = r.label;
    const guess = guessDomain(r.text);
    if (guess) {
      const progress = (label: string): Progress => (p) => post({ type: 'data-progress', run, label, ...p });
      early = { domain: guess, located: locate(guess, source.kind === 'sample', progress, () => undefined).catch(() => null) };
      await yieldToMessages();
    }
    await hashReady;
    session = new InspectSession(r.text);
  } catch (e) {
    post({ type: 'run-error', run, label, message: e instanceof Error ? e.message : String(e) });
    return;
  }
  if (source.kind === 'file') void storeFile(source.file);
  if (current) current.epoch++;
  const n = session.records.length;
  current = {
    run,
    session,
    label,
    sample: source.kind === 'sample',
    detection: null,
    origin: { kind: 'sample', label: '' },
    epoch: 0,
    evaluated: new Uint8Array(n),
    count: 0,
    priority: [],
    next: 0,
    finished: false,
  };
  post({ type: 'run-opened', run, label, domain: session.domain, domainWhy: session.domainWhy, headers: session.headers() });
  await resolveData(current, early);
}

function versions(key: string, read: ReadText, domain: Domain, label: string, session: InspectSession): Promise<DataVersion[]> {
  const k = `${key}|${domain}`;
  let hit = versionMemo.get(k);
  if (!hit) {
    hit = loadDataVersions(read, domain, label, session.hashOf);
    if (key === 'sample') hit = hit.then((vs) => vs.map((v) => ({ ...v, commit: SAMPLE_COMMIT })));
    versionMemo.set(k, hit);
    hit.catch(() => versionMemo.delete(k));
  }
  return hit;
}

function lookedFor(domain: Domain): string[] {
  return candidatePaths(domain);
}

/** A data source holding files of a domain, already read (I/O only, no parsing). */
interface Located {
  readonly key: string;
  readonly read: ReadText;
  readonly label: string;
  readonly origin: DataOrigin;
}

type Progress = (p: { done: number; total: number; bytes: number }) => void;

const memoised = (key: string, domain: Domain): boolean => versionMemo.has(`${key}|${domain}`);
const noRead: ReadText = async () => null;

/** Finds data for a domain in the order: sample, picked folder, agreed URL base, dev server, cache. Errors of one source are reported, then the next is tried. */
async function locate(domain: Domain, sample: boolean, progress: (label: string) => Progress, report: (message: string) => void): Promise<Located | null> {
  if (sample) {
    if (hasSampleData) return { key: 'sample', read: readSampleData, label: 'sample-runs/data', origin: { kind: 'sample', label: 'embedded sample data (sample-runs/data, invented; no network)' } };
    report('sample-runs/data is empty: this build has no sample data. Pick a tau-bench folder or fetch the data instead.');
  }
  if (folder) {
    const paths = lookedFor(domain).filter((p) => folder!.index.has(p));
    if (paths.length > 0)
      return { key: `folder:${folder.name}`, read: folderReader(folder.index), label: folder.name, origin: { kind: 'folder', label: `local folder “${folder.name}” (read in this browser)` } };
  }
  const store = textCache();
  for (const base of agreedBases) {
    const key = `url:${base}`;
    const origin = (fetched: boolean): DataOrigin => ({ kind: fetched ? 'url' : 'cache', label: `${base} (${fetched ? 'fetched with your agreement, now cached in this browser' : 'cached in this browser'})` });
    if (memoised(key, domain)) return { key, read: noRead, label: base, origin: origin(false) };
    try {
      const { read, fetched, found } = await prefetchUrl(base, lookedFor(domain), store, progress(`Fetching ${domain} data`));
      if (found > 0) return { key, read, label: base, origin: origin(fetched > 0) };
      report(`no ${domain} data under ${base} (looked for ${lookedFor(domain)[0]} and similar)`);
    } catch (e) {
      report(`could not load data from ${base}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const dev = await probeDev();
  if (dev) {
    const origin: DataOrigin = { kind: 'dev', label: `dev server ${dev}` };
    if (memoised('dev', domain)) return { key: 'dev', read: noRead, label: devDataUrl, origin };
    const { read, found } = await prefetchUrl(devDataUrl, lookedFor(domain), null, progress('Reading TAU_BENCH_DATA'));
    if (found > 0) return { key: 'dev', read, label: devDataUrl.replace(/\/$/, ''), origin };
  }
  const key = `url:${DEFAULT_DATA_BASE}`;
  const cached: DataOrigin = { kind: 'cache', label: `${DEFAULT_DATA_BASE} (cached in this browser earlier)` };
  if (memoised(key, domain)) return { key, read: noRead, label: DEFAULT_DATA_BASE, origin: cached };
  if (store && (await allCached(store, DEFAULT_DATA_BASE, lookedFor(domain)))) {
    const { read } = await prefetchUrl(DEFAULT_DATA_BASE, lookedFor(domain), store, progress('Reading cached data'));
    return { key, read, label: DEFAULT_DATA_BASE, origin: cached };
  }
  return null;
}

/** A cheap guess of the domain from the raw text, so data can be read while the file is parsed. */
function guessDomain(text: string): Domain | null {
  const score = (d: Domain): number => [...domainOnlyTools(d)].filter((name) => text.includes(`"${name}"`)).length;
  const r = score('retail');
  const a = score('airline');
  return r === a ? null : r > a ? 'retail' : 'airline';
}

async function resolveData(c: Current, early: { domain: Domain; located: Promise<Located | null> } | null = null): Promise<void> {
  const { session, run } = c;
  const domain = session.domain;
  const progress = (label: string): Progress => (p) => c === current && post({ type: 'data-progress', run, label, ...p });
  const report = (message: string): void => void (c === current && post({ type: 'data-error', run, message }));
  try {
    const loc = early?.domain === domain ? await early.located : await locate(domain, c.sample, progress, report);
    if (c !== current) return;
    if (!loc && hasSampleData && domain === 'retail') {
      // A run recorded on the embedded sample data (e.g. one episode shared in a link) needs nothing else.
      const sample = await versions('sample', readSampleData, domain, 'sample-runs/data', session);
      if (c !== current) return;
      if (sample[0] && session.reproducesRecordedHashes(sample[0])) {
        useData(c, sample, { kind: 'sample', label: 'embedded sample data (the recorded gt_data_hash values match it)' });
        return;
      }
    }
    if (!loc) {
      post({
        type: 'data-needed',
        run,
        domain,
        suggestedBase: DEFAULT_DATA_BASE,
        files: lookedFor(domain),
        reason: `Recomputing rewards needs τ-bench's ${domain} data (the initial DB), which is not in this browser yet.`,
      });
      return;
    }
    const vs = await versions(loc.key, loc.read, domain, loc.label, session);
    const extra = vs.length > 0 && !c.sample && hasSampleData ? await versions('sample', readSampleData, domain, 'sample-runs/data', session) : [];
    if (c !== current) return;
    if (vs.length > 0) useData(c, [...vs, ...extra], loc.origin, extra);
    else report(`${loc.label} has files of the ${domain} domain, but not a complete set of tables (${DOMAIN_TABLES[domain].join(', ')})`);
  } catch (e) {
    report(e instanceof Error ? e.message : String(e));
  }
}

/** `sampleCandidates`: sample data offered beside real data; it wins only when the file's recorded gt_data_hash values match it. */
function useData(c: Current, vs: DataVersion[], located: DataOrigin, sampleCandidates: readonly DataVersion[] = []): void {
  if (c !== current) return;
  const detection = c.session.useData(vs);
  const origin: DataOrigin = sampleCandidates.some((v) => v.commit === detection.dataCommit)
    ? { kind: 'sample', label: 'embedded sample data (the recorded gt_data_hash values match it)' }
    : located;
  c.epoch++;
  c.detection = detection;
  c.origin = origin;
  c.evaluated.fill(0);
  c.count = 0;
  c.next = 0;
  c.finished = false;
  post({ type: 'detection', run: c.run, detection, origin, reset: true });
  void evaluateAll(c, c.epoch);
}

function nextIndex(c: Current): number | null {
  while (c.priority.length > 0) {
    const i = c.priority.shift()!;
    if (i >= 0 && i < c.evaluated.length && !c.evaluated[i]) return i;
  }
  while (c.next < c.evaluated.length && c.evaluated[c.next]) c.next++;
  return c.next < c.evaluated.length ? c.next : null;
}

function evaluateOne(c: Current, i: number): EpisodeSummary {
  const s = c.session.evaluate(i);
  if (!c.evaluated[i]) {
    c.evaluated[i] = 1;
    c.count++;
  }
  return s;
}

async function evaluateAll(c: Current, epoch: number): Promise<void> {
  let batch: EpisodeSummary[] = [];
  let lastPost = 0;
  const total = c.evaluated.length;
  const flush = (): void => {
    if (batch.length === 0) return;
    post({ type: 'summaries', run: c.run, summaries: batch, evaluated: c.count, total, replace: false });
    batch = [];
    lastPost = performance.now();
  };
  for (;;) {
    if (c !== current || c.epoch !== epoch) return;
    const i = nextIndex(c);
    if (i === null) break;
    batch.push(evaluateOne(c, i));
    if (c.count <= 1 || performance.now() - lastPost > 120) flush();
    await yieldToMessages();
  }
  flush();
  if (c.finished) return;
  c.finished = true;
  const changed = c.session.finish();
  c.detection = c.session.detection();
  post({ type: 'detection', run: c.run, detection: c.detection, origin: c.origin, reset: false });
  if (changed) post({ type: 'summaries', run: c.run, summaries: c.session.summaries(), evaluated: total, total, replace: true });
}

function handleView(c: Current, id: number, index: number): void {
  if (!c.detection) {
    post({ type: 'view', run: c.run, id, index, view: null, error: 'waiting for data' });
    return;
  }
  const fresh = !c.evaluated[index];
  try {
    const v = c.session.view(index);
    if (fresh && index >= 0 && index < c.evaluated.length)
      post({ type: 'summaries', run: c.run, summaries: [evaluateOne(c, index)], evaluated: c.count, total: c.evaluated.length, replace: false });
    if ('error' in v) post({ type: 'view', run: c.run, id, index, view: null, error: v.error });
    else post({ type: 'view', run: c.run, id, index, view: v, error: null });
  } catch (e) {
    post({ type: 'view', run: c.run, id, index, view: null, error: e instanceof Error ? e.message : String(e) });
  }
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const m = ev.data;
  switch (m.type) {
    case 'init':
      devDataUrl = m.devDataUrl;
      post({ type: 'samples', names: sampleNames });
      return;
    case 'open-run':
      void openRun(m.run, m.source);
      return;
    case 'use-folder': {
      const index = folderIndex(m.files);
      folder = { name: m.name, index };
      for (const k of [...versionMemo.keys()]) if (k.startsWith('folder:')) versionMemo.delete(k);
      if (current && !current.sample) {
        if (index.size === 0)
          post({ type: 'data-error', run: current.run, message: `“${m.name}” holds no τ-bench data files (expected <commit>/tau_bench/envs/<domain>/data/*.json or tau_bench/envs/<domain>/data/*.json)` });
        else void resolveData(current);
      }
      return;
    }
    case 'use-data-url': {
      const base = m.base.replace(/\/+$/, '');
      agreedBases.add(base);
      if (current && !current.sample && !current.detection) void resolveData(current);
      return;
    }
    case 'prioritize':
      if (current?.run === m.run) current.priority = [...m.indices];
      return;
    case 'search':
      if (current?.run === m.run) post({ type: 'search-result', run: m.run, id: m.id, query: m.query, indices: current.session.search(m.query) });
      return;
    case 'view':
      if (current?.run === m.run) handleView(current, m.id, m.index);
      return;
    case 'what-if': {
      const c = current;
      if (c?.run !== m.run || !c.detection) return;
      let view: EpisodeView | null = null;
      let error: string | null = null;
      try {
        const r = c.session.whatIf(m.index, m.edits);
        if ('error' in r) error = r.error;
        else view = r;
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      post({ type: 'what-if', run: m.run, id: m.id, view, error });
      return;
    }
    case 'episode-json': {
      const c = current;
      if (c?.run !== m.run) return;
      let json: string | null = null;
      try {
        json = c.session.episodeJson(m.index);
      } catch {
        json = null;
      }
      post({ type: 'episode-json', run: m.run, index: m.index, json });
      return;
    }
  }
};
