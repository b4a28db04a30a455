/// <reference lib="webworker" />
import type { ToWorker } from '../core/contract';
import { folderIndex } from './data-sources';
import { post } from './post';
import { RunController } from './run-controller';
import { sampleNames } from './sample';

declare const self: DedicatedWorkerGlobalScope;

const runs = new RunController();

/** The worker: a message switch over the run controller (which owns the session). */
self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const m = ev.data;
  switch (m.type) {
    case 'init':
      runs.data.devDataUrl = m.devDataUrl;
      post({ type: 'samples', names: sampleNames });
      return;
    case 'open-run':
      void runs.open(m.run, m.source);
      return;
    case 'open-compare':
      void runs.open(m.run, m.source, 'compare');
      return;
    case 'close-compare':
      return runs.closeCompare();
    case 'report':
      return void runs.report(m.run, m.id, m.title, m.notes);
    case 'cancel':
      return runs.cancel(m.run);
    case 'resume':
      return runs.resume(m.run);
    case 'use-folder': {
      const index = folderIndex(m.files);
      runs.data.useFolder(m.name, index);
      if (index.size === 0) runs.folderWithoutData(m.name);
      else runs.retryData(false);
      return;
    }
    case 'use-data-url':
      runs.data.agreedBases.add(m.base.replace(/\/+$/, ''));
      runs.retryData(true);
      return;
    case 'prioritize':
      return runs.prioritize(m.run, m.indices);
    case 'search':
      return void runs.search(m.run, m.id, m.query);
    case 'view':
      return runs.view(m.run, m.id, m.index);
    case 'transcript':
      return runs.transcript(m.run, m.index);
    case 'what-if':
      return runs.whatIf(m.run, m.id, m.index, m.edits);
    case 'episode-json':
      return runs.episodeJson(m.run, m.index);
  }
};
