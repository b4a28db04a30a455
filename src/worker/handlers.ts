import type { RequestHandlers } from '../protocol/messages';
import type { LibraryController } from './library/library-controller';
import { post } from './post';
import type { RunController } from './run-controller';
import { sampleNames } from './sample';

/**
 * The worker's dispatch: one handler per request of src/protocol/messages.ts (the map does not compile
 * without each). A request naming a run goes to that run's handle, whatever its benchmark.
 */
export function requestHandlers(runs: RunController, library: LibraryController): RequestHandlers {
  const to = runs.withRun.bind(runs);
  return {
    init(m) {
      runs.locator.devDataUrl = m.devDataUrl;
      post({ type: 'init', samples: sampleNames });
    },
    'open-run': (m) => void runs.open(m.slot, m.run, m.source),
    'close-run': (m) => runs.close(m.slot),
    cancel: (m) => to(m.run, (h) => h.cancel()),
    resume: (m) => to(m.run, (h) => h.resume()),
    'use-folder': (m) => post({ type: 'use-folder', id: m.id, name: m.name, meant: m.benchmark, used: runs.useFolder(m.name, m.files, m.benchmark) }),
    'use-data-url': (m) => runs.useDataUrl(m.base),
    prioritize: (m) => to(m.run, (h) => h.prioritize(m.indices)),
    search: (m) => to(m.run, (h) => h.search(m.id, m.query)),
    view: (m) => to(m.run, (h) => h.view(m)),
    'state-at-step': (m) => to(m.run, (h) => h.state(m)),
    audio: (m) => to(m.run, (h) => h.audio(m)),
    transcript: (m) => to(m.run, (h) => h.transcript(m)),
    'what-if': (m) => to(m.run, (h) => h.whatIf(m, m.id, m.edits)),
    'share-link': (m) => to(m.run, (h) => h.shareLink(m, m.context)),
    report: (m) => to(m.run, (h) => void h.report(m.id, m.title, m.notes, new Map((m.edits ?? []).map((x) => [x.episode, x.edits])))),
    'parse-notes': (m) => void runs.parseNotes(m.id, m.file),
    'open-library': (m) => void library.open(m),
    'library-stats': (m) => library.stats(m),
  };
}
