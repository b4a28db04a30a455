import type { RequestHandlers } from '../protocol/messages';
import { folderIndex } from './data-sources';
import type { LibraryController } from './library/library-controller';
import { post } from './post';
import type { RunController } from './run-controller';
import type { Tau2Runs } from './tau2-runs';
import { sampleNames } from './sample';

/**
 * The worker's dispatch: one handler per request of src/protocol/messages.ts (the map does not compile
 * without each). A request naming a run goes to whichever of the two holds it: τ-bench runs (`runs`) or τ² runs (`tau2`).
 */
export function requestHandlers(runs: RunController, tau2: Tau2Runs, library: LibraryController): RequestHandlers {
  return {
    init(m) {
      runs.data.devDataUrl = m.devDataUrl;
      post({ type: 'init', samples: sampleNames });
    },
    'open-run'(m) {
      tau2.close(m.slot);
      void runs.open(m.slot, m.run, m.source);
    },
    'close-run'(m) {
      tau2.close(m.slot);
      runs.close(m.slot);
    },
    cancel(m) {
      tau2.cancel(m.run);
      runs.cancel(m.run);
    },
    resume(m) {
      tau2.resume(m.run);
      runs.resume(m.run);
    },
    'use-folder'(m) {
      const index = folderIndex(m.files);
      tau2.useFolder(m.name, m.files);
      runs.data.useFolder(m.name, index);
      if (index.size === 0) runs.folderWithoutData(m.name);
      else runs.retryData(false);
    },
    'use-data-url'(m) {
      runs.data.agreedBases.add(m.base.replace(/\/+$/, ''));
      runs.retryData(true);
      tau2.retryData();
    },
    prioritize(m) {
      tau2.prioritize(m.run, m.indices);
      runs.prioritize(m.run, m.indices);
    },
    search: (m) => (tau2.has(m.run) ? tau2.search(m.run, m.id, m.query) : void runs.search(m.run, m.id, m.query)),
    view: (m) => (tau2.has(m.run) ? tau2.view(m) : runs.view(m)),
    'tau2-view': (m) => tau2.simView(m),
    'tau2-state': (m) => tau2.state(m),
    'tau2-what-if': (m) => tau2.whatIf(m, m.id, m.edits),
    transcript: (m) => (tau2.has(m.run) ? tau2.transcript(m) : runs.transcript(m)),
    'what-if': (m) => runs.whatIf(m.run, m.id, m.episode, m.edits),
    'share-link': (m) => (tau2.has(m.run) ? tau2.shareLink(m, m.context) : runs.shareLink(m, m.context)),
    report: (m) => void (tau2.has(m.run) ? tau2.report(m.run, m.id, m.title, m.notes) : runs.report(m.run, m.id, m.title, m.notes)),
    'parse-notes': (m) => void runs.parseNotes(m.id, m.file),
    'open-library': (m) => void library.open(m),
    'library-stats': (m) => library.stats(m),
  };
}
