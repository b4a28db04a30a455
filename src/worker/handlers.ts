import type { RequestHandlers } from '../protocol/messages';
import { folderIndex } from './data-sources';
import { post } from './post';
import type { RunController } from './run-controller';
import { sampleNames } from './sample';

/** The worker's dispatch: one handler per request of src/protocol/messages.ts (the map does not compile without each). */
export function requestHandlers(runs: RunController): RequestHandlers {
  return {
    init(m) {
      runs.data.devDataUrl = m.devDataUrl;
      post({ type: 'init', samples: sampleNames });
    },
    'open-run': (m) => void runs.open(m.slot, m.run, m.source),
    'close-run': (m) => runs.close(m.slot),
    cancel: (m) => runs.cancel(m.run),
    resume: (m) => runs.resume(m.run),
    'use-folder'(m) {
      const index = folderIndex(m.files);
      runs.data.useFolder(m.name, index);
      if (index.size === 0) runs.folderWithoutData(m.name);
      else runs.retryData(false);
    },
    'use-data-url'(m) {
      runs.data.agreedBases.add(m.base.replace(/\/+$/, ''));
      runs.retryData(true);
    },
    prioritize: (m) => runs.prioritize(m.run, m.indices),
    search: (m) => void runs.search(m.run, m.id, m.query),
    view: (m) => runs.view(m),
    transcript: (m) => runs.transcript(m),
    'what-if': (m) => runs.whatIf(m.run, m.id, m.episode, m.edits),
    'share-link': (m) => runs.shareLink(m, m.context),
    report: (m) => void runs.report(m.run, m.id, m.title, m.notes),
    'parse-notes': (m) => void runs.parseNotes(m.id, m.file),
  };
}
