import { DataConsent } from '../features/loader/data-consent';
import { DropZone } from '../features/loader/drop-zone';
import { OpenMenu } from '../features/loader/open-menu';
import { CopyLinkButton } from '../features/links/copy-link-button';
import { ShareEpisodeButton } from '../features/links/share-episode-button';
import { NotesBar } from '../features/notes/notes-bar';
import { Overview } from '../features/overview/overview';
import { DetectionLine } from '../features/shell/detection-line';
import { Notices } from '../features/shell/notices';
import { ProgressBar } from '../features/shell/progress-bar';
import { StoreProvider, useApp } from '../ui/store-context';
import type { AppStore } from '../store/app-store';
import { EpisodePane } from './episode-pane';

function EmptyState() {
  const pending = useApp((s) => s.pending);
  const samples = useApp((s) => s.samples);
  return (
    <div className="flex flex-1 items-center justify-center p-6">
      <div className="max-w-md rounded-xl border-2 border-dashed border-slate-300 bg-white p-8 text-center">
        <p className="text-base font-semibold text-slate-900">{pending ? `Opening ${pending.info.label}…` : 'Open a τ-bench results file'}</p>
        <p className="mt-2 text-sm text-slate-600">
          Drop a results file (run.py output) or a single episode anywhere on this page, or use <span className="font-medium">Open</span>. Everything runs in this
          browser.
        </p>
        {samples && samples.length === 0 && <p className="mt-2 text-xs text-slate-500">This build has no sample runs (sample-runs/runs is empty).</p>}
      </div>
    </div>
  );
}

function Shell() {
  const hasRun = useApp((s) => s.source !== null);
  const showList = useApp((s) => s.showList);
  return (
    <div className="flex h-dvh flex-col">
      <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-2">
        <h1 className="flex shrink-0 items-baseline gap-2 whitespace-nowrap text-base font-semibold tracking-tight text-slate-900">
          <span className="rounded bg-indigo-600 px-1.5 font-serif text-white">τ</span>
          tau-inspect
        </h1>
        <p className="hidden truncate text-xs text-slate-500 md:block">Why τ-bench gave each episode its reward, recomputed in your browser</p>
        <div className="ml-auto flex items-center gap-2">
          <ShareEpisodeButton />
          <CopyLinkButton />
          <OpenMenu />
        </div>
      </header>
      <ProgressBar />
      <DetectionLine />
      <DataConsent />
      {hasRun ? (
        <main className="flex min-h-0 flex-1">
          <div className={`min-h-0 w-full flex-col border-slate-200 lg:flex lg:w-[36rem] lg:shrink-0 lg:border-r xl:w-[40rem] ${showList ? 'flex' : 'hidden'}`}>
            <Overview notesBar={<NotesBar />} />
          </div>
          <div className={`min-h-0 min-w-0 flex-1 bg-slate-50 lg:flex ${showList ? 'hidden' : 'flex'}`}>
            <EpisodePane />
          </div>
        </main>
      ) : (
        <main className="flex min-h-0 flex-1">
          <EmptyState />
        </main>
      )}
      <Notices />
      <DropZone />
    </div>
  );
}

export function App({ store }: { store: AppStore }) {
  return (
    <StoreProvider store={store}>
      <Shell />
    </StoreProvider>
  );
}
