import type { AppStore } from '../store/app-store';
import type { EvaluatorPort } from '../store/ports';
import type { FromWorker, ToWorker } from '../core/contract';

/** The store's evaluator port backed by the Web Worker; worker answers become store actions. */
export function connectEvaluator(): { port: EvaluatorPort; attach(store: AppStore): void } {
  const worker = new Worker(new URL('../worker/evaluator.worker.ts', import.meta.url), { type: 'module', name: 'evaluator' });
  const send = (m: ToWorker): void => worker.postMessage(m);
  const port: EvaluatorPort = {
    openRun: (run, source) => send({ type: 'open-run', run, source }),
    openCompare: (run, source) => send({ type: 'open-compare', run, source }),
    closeCompare: () => send({ type: 'close-compare' }),
    report: (run, id, title, notes) => send({ type: 'report', run, id, title, notes }),
    cancel: (run) => send({ type: 'cancel', run }),
    resume: (run) => send({ type: 'resume', run }),
    useFolder: (name, files) => send({ type: 'use-folder', name, files }),
    useDataUrl: (base) => send({ type: 'use-data-url', base }),
    prioritize: (run, indices) => send({ type: 'prioritize', run, indices }),
    search: (run, id, query) => send({ type: 'search', run, id, query }),
    view: (run, id, index) => send({ type: 'view', run, id, index }),
    transcript: (run, index) => send({ type: 'transcript', run, index }),
    episodeJson: (run, index) => send({ type: 'episode-json', run, index }),
    whatIf: (run, id, index, edits) => send({ type: 'what-if', run, id, index, edits }),
  };
  const attach = (store: AppStore): void => {
    const s = store.getState;
    worker.onmessage = (ev: MessageEvent<FromWorker>) => {
      const m = ev.data;
      if (m.type !== 'samples' && m.type !== 'report' && (s().comparePending?.run === m.run || s().compareRun?.run === m.run)) return toCompare(m);
      if (m.type === 'view' && m.id < 0) return s().compareViewArrived(m.run, m.id, m.view, m.error);
      switch (m.type) {
        case 'samples':
          return s().samplesListed(m.names);
        case 'run-opened':
          return s().runOpened(m.run, m.label, m.domain, m.domainWhy, m.headers, m.shared);
        case 'run-error':
          return s().runFailed(m.run, m.label, m.message);
        case 'data-needed':
          return s().dataNeeded(m.run, { domain: m.domain, suggestedBase: m.suggestedBase, files: m.files, reason: m.reason });
        case 'run-progress':
          return s().runProgressed(m.run, m.loaded, m.total);
        case 'data-progress':
          return s().dataProgressed(m.run, { label: m.label, done: m.done, total: m.total, bytes: m.bytes });
        case 'data-error':
          return s().dataFailed(m.run, m.message);
        case 'detection':
          return s().detected(m.run, m.detection, m.origin, m.reset);
        case 'summaries':
          return s().summarized(m.run, m.summaries, m.evaluated, m.replace);
        case 'search-result':
          return s().searchAnswered(m.run, m.id, m.indices);
        case 'view':
          return s().viewArrived(m.run, m.id, m.view, m.error);
        case 'transcript':
          return s().transcriptArrived(m.run, m.index, m.transcript);
        case 'episode-json':
          return s().episodeJsonArrived(m.run, m.index, m.json);
        case 'what-if':
          return s().whatIfArrived(m.run, m.id, m.view, m.error);
        case 'report':
          return s().reportArrived(m.run, m.id, m.file, m.error);
      }
    };
    /** Messages about the second run of a comparison. */
    const toCompare = (m: Exclude<FromWorker, { type: 'samples' | 'report' }>): void => {
      switch (m.type) {
        case 'run-opened':
          return s().compareOpened(m.run, m.label, m.domain, m.headers);
        case 'run-error':
          return s().compareFailed(m.run, m.label, m.message);
        case 'data-needed':
          return s().compareProblem(m.run, `${m.reason} Pick a τ-bench data folder (Open ▸ tau-bench data folder…), or fetch it.`, m.suggestedBase);
        case 'data-error':
          return s().compareProblem(m.run, m.message);
        case 'detection':
          return s().compareDetected(m.run, m.detection, m.reset);
        case 'summaries':
          return s().compareSummarized(m.run, m.summaries, m.evaluated, m.replace);
        case 'view':
          return s().compareViewArrived(m.run, m.id, m.view, m.error);
        default:
          return;
      }
    };
    worker.onerror = (e) => s().notify('error', `The evaluator stopped: ${e.message || 'unknown error'}. Reload the page to start it again.`);
    send({ type: 'init', devDataUrl: new URL('tau-bench-data/', document.baseURI).href });
  };
  return { port, attach };
}
