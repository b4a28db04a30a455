import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { BENCHMARKS, type BenchmarkKind } from '../../core/contract';
import { Button } from '../../ui/button';
import { FOCUS_FIELD } from '../../ui/focus';
import { useApp, useAppStore } from '../../ui/store-context';
import { pickedFolderFiles } from './read-drop';
import { JsonFileInput } from '../../ui/json-file-input';
import { useDismiss } from '../../ui/use-dismiss';

const itemClass =
  'flex w-full items-start gap-2 rounded-md px-2.5 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none';

/** The hidden input that picks a benchmark's data folder (the data prompt's "Pick a folder" clicks it too). */
export const dataInputId = (kind: BenchmarkKind): string => `open-${kind}-data-input`;

/** A folder input: `webkitdirectory` set once it is in the page. */
function FolderInput(props: { label: string; testId: string; onPick: (name: string, files: ReturnType<typeof pickedFolderFiles>['files']) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.webkitdirectory = true;
  }, []);
  return (
    <input
      ref={ref}
      type="file"
      multiple
      className="sr-only"
      tabIndex={-1}
      aria-label={props.label}
      data-testid={props.testId}
      onChange={(e) => {
        const list = e.currentTarget.files;
        if (list && list.length > 0) {
          const { name, files } = pickedFolderFiles(list);
          props.onPick(name, files);
        }
        e.currentTarget.value = '';
      }}
    />
  );
}

const pick = (testId: string): void => document.querySelector<HTMLInputElement>(`[data-testid="${testId}"]`)?.click();

/**
 * Open a results file, a run folder, a URL, a sample; pick each benchmark's data folder (one kept per benchmark); open
 * a library folder (the Library menu's input).
 */
export function OpenMenu() {
  const store = useAppStore();
  const samples = useApp((s) => s.samples);
  const current = useApp((s) => s.runs.a.source?.sample ?? null);
  const hasRun = useApp((s) => s.runs.a.id !== null);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const [url, setUrl] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const compareInput = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const urlId = useId();

  useDismiss(open, root, close, button);

  const submitUrl = (e: FormEvent): void => {
    e.preventDefault();
    const u = url.trim();
    if (!u) return;
    try {
      store.getState().openUrl(new URL(u, location.href).href);
      setOpen(false);
    } catch {
      store.getState().notify('error', `“${u}” is not a URL`);
    }
  };

  return (
    <div className="relative" ref={root}>
      <JsonFileInput ref={fileInput} label="Results file" testId="open-file-input" onFile={(f) => store.getState().openFile(f)} />
      <JsonFileInput ref={compareInput} label="Results file to compare" testId="compare-file-input" onFile={(f) => store.getState().openCompareFile(f)} />
      <FolderInput label="Run folder or data folder" testId="open-folder-input" onPick={(name, files) => store.getState().useFolder(name, files, null)} />
      {Object.values(BENCHMARKS).map((b) => (
        <FolderInput key={b.kind} label={b.dataFolder} testId={dataInputId(b.kind)} onPick={(name, files) => store.getState().useFolder(name, files, b.kind)} />
      ))}
      <Button
        ref={button}
        variant="primary"
        className="inline-flex items-center gap-1.5"
        aria-haspopup="true"
        aria-expanded={open}
        // The menu is in the page only while open: a reference to it before would point at nothing.
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        Open
        <svg viewBox="0 0 12 12" className="size-3" aria-hidden="true">
          <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </Button>
      {open && (
        <div id={menuId} className="absolute right-0 z-40 mt-1.5 w-80 max-w-[calc(100vw-1.5rem)] rounded-lg border border-slate-200 bg-white p-1.5 shadow-lg">
          <button
            type="button"
            className={itemClass}
            autoFocus
            onClick={() => {
              setOpen(false);
              fileInput.current?.click();
            }}
          >
            <span>
              <span className="block font-medium text-slate-900">Results file…</span>
              <span className="block text-xs text-slate-600">run.py output, or one episode object (or drop it anywhere)</span>
            </span>
          </button>
          {hasRun && (
            <button
              type="button"
              className={itemClass}
              data-testid="open-compare"
              onClick={() => {
                setOpen(false);
                compareInput.current?.click();
              }}
            >
              <span>
                <span className="block font-medium text-slate-900">Second file to compare…</span>
                <span className="block text-xs text-slate-600">opened beside this run: pass rates per task, flipped tasks, pass^k of both</span>
              </span>
            </button>
          )}
          <button
            type="button"
            className={itemClass}
            data-testid="open-run-folder"
            onClick={() => {
              setOpen(false);
              pick('open-folder-input');
            }}
          >
            <span>
              <span className="block font-medium text-slate-900">Run folder…</span>
              <span className="block text-xs text-slate-600">a τ² run folder (results.json + simulations/), as leaderboard submissions store it</span>
            </span>
          </button>
          {Object.values(BENCHMARKS).map((b) => (
            <button
              key={b.kind}
              type="button"
              className={itemClass}
              data-testid={`open-${b.kind}-data`}
              onClick={() => {
                setOpen(false);
                pick(dataInputId(b.kind));
              }}
            >
              <span>
                <span className="block font-medium text-slate-900">{b.dataFolder}…</span>
                <span className="block text-xs text-slate-600 [overflow-wrap:anywhere]">
                  a {b.repo} checkout, or {b.layout('<domain>')} folders; read in this browser, kept beside the other benchmark’s
                </span>
              </span>
            </button>
          ))}
          <button
            type="button"
            className={itemClass}
            data-testid="open-library-folder"
            onClick={() => {
              setOpen(false);
              pick('library-folder-input');
            }}
          >
            <span>
              <span className="block font-medium text-slate-900">Library folder…</span>
              <span className="block text-xs text-slate-600">a folder of runs (with the runs.parquet tau-inspect index made, or judged here)</span>
            </span>
          </button>
          <form onSubmit={submitUrl} className="border-t border-slate-100 px-2.5 py-2">
            <label htmlFor={urlId} className="block text-xs font-medium text-slate-700">
              Results file URL
            </label>
            <div className="mt-1 flex gap-1.5">
              <input
                id={urlId}
                type="url"
                inputMode="url"
                placeholder="https://…/results.json"
                value={url}
                onChange={(e) => setUrl(e.currentTarget.value)}
                className={`min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm ${FOCUS_FIELD}`}
              />
              <button type="submit" className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50">
                Open
              </button>
            </div>
          </form>
          {samples && samples.length > 0 && (
            <div className="border-t border-slate-100 px-1 pt-1.5 pb-0.5">
              <p className="px-1.5 pb-1 text-xs font-medium text-slate-600">Sample runs (offline)</p>
              {samples.map((name) => (
                <button
                  key={name}
                  type="button"
                  className={`${itemClass} py-1.5 font-mono text-xs`}
                  aria-current={current === name ? 'true' : undefined}
                  onClick={() => {
                    setOpen(false);
                    store.getState().openSample(name);
                  }}
                >
                  {name}
                  {name.includes('voice') ? '/' : '.json'}
                  {current === name && <span className="ml-auto font-sans text-slate-600">open</span>}
                </button>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
