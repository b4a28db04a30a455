import { useEffect, useState } from 'react';
import { DataConsent } from '../features/loader/data-consent';
import { DropZone } from '../features/loader/drop-zone';
import { OpenMenu } from '../features/loader/open-menu';
import { RunConsent } from '../features/loader/run-consent';
import { LibraryCrumb } from '../features/library/library-crumb';
import { LibraryMenu } from '../features/library/library-menu';
import { LibraryView } from '../features/library/library-view';
import { CopyLinkButton } from '../features/links/copy-link-button';
import { LinkContext } from '../features/links/link-context';
import { ShareEpisodeButton } from '../features/links/share-episode-button';
import { NotesBar } from '../features/notes/notes-bar';
import { CompareToggle, CompareView } from '../features/review/compare-view';
import { ReportButton } from '../features/review/report-button';
import { Overview } from '../features/overview/overview';
import { DetectionLine } from '../features/shell/detection-line';
import { Notices } from '../features/shell/notices';
import { ProgressBar } from '../features/shell/progress-bar';
import { Button } from '../ui/button';
import { safeLabel } from '../ui/fold';
import { StoreProvider, useApp, useAppStore } from '../ui/store-context';
import type { AppStore } from '../store/app-store';
import type { Theme } from '../store/layout-slice';
import { TeachButton } from '../features/teach/teach-button';
import { TeachPane } from '../features/teach/teach-screen';
import { RUN_FACTS, SCREENS, TEACH } from './benchmark-screens';
import { KeyHelp } from './key-help';
import { installKeys } from './keys';
import { markWelcomed, welcomed } from './layout-persist';

function EmptyState() {
  const pending = useApp((s) => s.pending.a);
  const samples = useApp((s) => s.samples);
  return (
    <div className="flex flex-1 items-center justify-center p-6">
      <div className="max-w-md rounded-xl border-2 border-dashed border-slate-300 bg-white p-8 text-center">
        <p className="text-base font-semibold text-slate-900">{pending ? `Opening ${safeLabel(pending.info.label)}…` : 'Open a τ-bench results file'}</p>
        <p className="mt-2 text-sm text-slate-600">
          Drop a results file (run.py output) or a single episode anywhere on this page, or use <span className="font-medium">Open</span>. Everything runs in
          this browser.
        </p>
        {samples && samples.length === 0 && <p className="mt-2 text-xs text-slate-600">This build has no sample runs (sample-runs/runs is empty).</p>}
      </div>
    </div>
  );
}

/**
 * What a bundled sample is, by its name (the first entry whose test the name passes): a few words (the welcome line
 * names the one open and offers the others), and its button's label, long and compact.
 */
const SAMPLE_WORDS: readonly { readonly is: (name: string) => boolean; readonly what: string; readonly button: string; readonly compact: string }[] = [
  {
    is: (n) => n.startsWith('tau2-banking'),
    what: 'a τ³-bench banking_knowledge run on an invented bank and knowledge base',
    button: 'Open the τ³ banking sample',
    compact: 'banking sample',
  },
  {
    is: (n) => n.includes('voice'),
    what: 'a τ³-bench voice (full-duplex) run folder on invented retail data, with a made-up audio file',
    button: 'Open the τ³ voice sample',
    compact: 'voice sample',
  },
  { is: (n) => n.startsWith('tau2-'), what: 'a τ²-bench run on invented DBs of τ²’s mock domain', button: 'Open the τ² sample', compact: 'τ² sample' },
  { is: () => true, what: 'a made-up shop on τ-bench’s retail schema', button: 'Open the τ-bench sample', compact: 'τ-bench sample' },
];
const sampleWords = (name: string) => SAMPLE_WORDS.find((w) => w.is(name))!;
const sampleWhat = (name: string): string => sampleWords(name).what;

/** The other bundled samples, one click each (the τ² one beside the τ-bench one). */
function OtherSamples({ compact }: { compact: boolean }) {
  const store = useAppStore();
  const samples = useApp((s) => s.samples);
  const open = useApp((s) => s.runs.a.source?.sample ?? null);
  const others = (samples ?? []).filter((n) => n !== open);
  if (others.length === 0) return null;
  return (
    <span className="flex shrink-0 flex-wrap gap-1">
      {others.map((name) => (
        <Button
          key={name}
          onClick={() => store.getState().openSample(name)}
          data-testid={`welcome-sample-${name}`}
          title={`Open the sample ${name}${name.includes('voice') ? '/' : '.json'}: ${sampleWhat(name)}`}
        >
          {compact ? sampleWords(name).compact : sampleWords(name).button}
        </Button>
      ))}
    </span>
  );
}

/**
 * First start on the bundled sample: what it is, and how to open a real run, with the other
 * sample (τ² or τ-bench) one click away. Dismissed once, remembered. Wide screens show it under the
 * header; phones (`compact`) show a shorter one at the top of the overview, so the fixed header
 * stays within a tenth of the height.
 */
function Welcome(props: { compact: boolean; onDismiss: () => void }) {
  const { compact } = props;
  const open = useApp((s) => s.runs.a.source?.sample ?? '');
  return (
    // A named section (a landmark), so no line of the page is outside one.
    <section
      className={`items-start gap-2 border-b border-indigo-200 bg-indigo-50 px-3 py-1.5 text-xs text-indigo-950 ${compact ? 'flex flex-wrap sm:hidden' : 'hidden sm:flex'}`}
      aria-label="Welcome"
      data-testid="welcome"
    >
      {compact ? (
        <p className="min-w-0 flex-1">
          <strong>Welcome.</strong> This is an <strong>invented sample</strong> run, so the app works offline. For a real run: <strong>Open</strong> a results
          file.
        </p>
      ) : (
        <p className="min-w-0 flex-1">
          <strong>Welcome.</strong> This is an <strong>invented sample</strong> run ({sampleWhat(open)}), so the app works offline. For a real run:{' '}
          <strong>Open</strong> a <code className="font-mono">run.py</code> or τ² results file or drop it here; the benchmark’s data comes from a local folder
          or, if you agree, from GitHub. Keys: <kbd className="rounded border border-indigo-300 px-1 font-mono">?</kbd>.
        </p>
      )}
      <OtherSamples compact={compact} />
      <Button variant="quiet" onClick={props.onDismiss} aria-label="Got it: dismiss the welcome line">
        Got it
      </Button>
    </section>
  );
}

/** Whether the welcome line shows (on the sample, until dismissed), and its dismissal. */
function useWelcome(): { shown: boolean; dismiss: () => void } {
  const sample = useApp((s) => s.runs.a.source?.kind === 'sample');
  const [shown, setShown] = useState(() => !welcomed());
  return {
    shown: shown && sample,
    dismiss: () => {
      markWelcomed();
      setShown(false);
    },
  };
}

const NEXT_THEME: Readonly<Record<Theme, Theme>> = { system: 'light', light: 'dark', dark: 'system' };
const THEME_LABEL: Readonly<Record<Theme, string>> = { system: '◐ auto', light: '☀ light', dark: '☾ dark' };

function ThemeSwitch() {
  const store = useAppStore();
  const theme = useApp((s) => s.layout.theme);
  return (
    <Button
      variant="quiet"
      onClick={() => store.getState().setLayout({ theme: NEXT_THEME[theme] })}
      title={`Colour theme: ${theme === 'system' ? 'follows the system setting' : theme}. Click for ${NEXT_THEME[theme]}.`}
      aria-label={`Colour theme: ${THEME_LABEL[theme].slice(2)}`}
      className="text-xs whitespace-nowrap"
      data-testid="theme-switch"
    >
      {THEME_LABEL[theme]}
    </Button>
  );
}

/** Compare and Report on narrow screens: in the notes bar, where the header has no room left. */
const narrowReview = (
  <span className="flex gap-1 sm:hidden">
    <CompareToggle small />
    <ReportButton small testId="report-button-narrow" />
  </span>
);

function Shell() {
  const store = useAppStore();
  const hasRun = useApp((s) => s.runs.a.source !== null);
  const open = useApp((s) => s.selected !== null);
  const kind = useApp((s) => s.runs.a.benchmark?.kind ?? 'tau-bench');
  const Screen = SCREENS[kind];
  const listHidden = useApp((s) => s.layout.listHidden);
  const comparing = useApp((s) => s.compareShown && s.runs.b.id !== null);
  const libraryShown = useApp((s) => s.libraryShown);
  // Teaching mode: the open episode alone, nothing of its verdict or the run's on screen until revealed.
  const teaching = useApp((s) => s.teach !== null && s.selected !== null && !s.libraryShown);
  const welcome = useWelcome();
  useEffect(() => installKeys(store), [store]);
  // Wide screens: the overview alone, or a narrow list (hideable) beside the open episode. Narrow screens: one or the other.
  const listClass = !open ? 'flex flex-1' : listHidden ? 'hidden' : 'hidden lg:flex lg:w-[22rem] lg:shrink-0 lg:border-r xl:w-[24rem]';
  return (
    <div className="flex h-dvh flex-col bg-slate-50 text-slate-900">
      <header className="flex items-center gap-2 border-b border-slate-200 bg-white px-2 py-1.5 sm:px-4">
        <h1 className="flex shrink-0 items-baseline gap-2 whitespace-nowrap text-base font-semibold tracking-tight text-slate-900">
          <span className="rounded bg-indigo-600 px-1.5 font-serif text-white">τ</span>
          <span className="hidden min-[400px]:inline">tau-inspect</span>
        </h1>
        <p className="hidden truncate text-xs text-slate-600 xl:block">Why τ-bench or τ²-bench gave each episode its reward, recomputed in your browser</p>
        <div className="ml-auto flex min-w-0 items-center gap-1 sm:gap-2">
          <Button variant="quiet" onClick={() => store.getState().setHelpOpen(true)} aria-label="Keys (?)" title="Keys (?)" className="text-xs">
            ?
          </Button>
          <ThemeSwitch />
          {!teaching && (
            <>
              <CompareToggle className="hidden sm:inline-flex" />
              {hasRun && <ReportButton className="hidden sm:inline-flex" />}
              {TEACH[kind] !== null && open && !libraryShown && <TeachButton />}
              <ShareEpisodeButton report={<ReportButton testId="share-too-long-report" label="Download the run’s report" />} />
              <CopyLinkButton />
              <LibraryMenu />
            </>
          )}
          <OpenMenu />
        </div>
      </header>
      {!teaching && <ProgressBar />}
      {!teaching && <DetectionLine facts={RUN_FACTS[kind]} />}
      <RunConsent />
      <DataConsent />
      {!teaching && <LinkContext />}
      {!libraryShown && !teaching && <LibraryCrumb />}
      {welcome.shown && !teaching && <Welcome compact={false} onDismiss={welcome.dismiss} />}
      {teaching ? (
        <main className="flex min-h-0 flex-1">
          <TeachPane teach={TEACH[kind]} />
        </main>
      ) : libraryShown ? (
        <main className="flex min-h-0 flex-1">
          <LibraryView />
        </main>
      ) : hasRun && comparing ? (
        <main className="flex min-h-0 flex-1">
          <CompareView />
        </main>
      ) : hasRun ? (
        <main className="flex min-h-0 flex-1">
          <div className={`min-h-0 min-w-0 flex-col border-slate-200 ${listClass}`} data-testid="overview-column" data-compact={open}>
            <Overview compact={open} notesBar={<NotesBar actions={narrowReview} />} intro={welcome.shown && <Welcome compact onDismiss={welcome.dismiss} />} />
          </div>
          {open && (
            <div className="flex min-h-0 min-w-0 flex-1 bg-slate-50">
              <Screen />
            </div>
          )}
        </main>
      ) : (
        <main className="flex min-h-0 flex-1">
          <EmptyState />
        </main>
      )}
      <Notices />
      <DropZone />
      <KeyHelp />
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
