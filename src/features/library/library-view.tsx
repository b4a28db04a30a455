import { useMemo } from 'react';
import { facets, LIBRARY_FILTER_KEYS, type LibraryFilters } from '../../core/contract';
import { LIBRARY_TABS, type LibraryTab } from '../../store/library-slice';
import { Button } from '../../ui/button';
import { FOCUS_FIELD, FOCUS_RING } from '../../ui/focus';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';
import { HeatMap } from './heat-map';
import { Leaderboard } from './leaderboard';
import { SubmissionsView } from './submissions/submissions-view';
import { TaskHealthView } from './task-health';

const TAB_TEXT: Readonly<Record<LibraryTab, string>> = { leaderboard: 'Leaderboard', heatmap: 'Tasks × runs', health: 'Task health' };
const FILTER_TEXT: Readonly<Record<keyof LibraryFilters, string>> = { benchmark: 'Benchmark', domain: 'Domain', model: 'Model', dataVersion: 'Data version' };

function Filters() {
  const store = useAppStore();
  const table = useApp((s) => s.library.table);
  const filters = useApp((s) => s.libraryFilters);
  const values = useMemo(() => (table ? facets(table) : null), [table]);
  if (!values) return null;
  return (
    <div className="grid grid-cols-2 items-end gap-2 px-2 py-1.5 sm:flex sm:flex-wrap" data-testid="library-filters">
      {LIBRARY_FILTER_KEYS.map((k) => (
        <label key={k} className="flex flex-col text-[11px] text-slate-600">
          {FILTER_TEXT[k]}
          <select
            className={`w-full rounded-md sm:w-auto sm:max-w-[14rem] border border-slate-300 bg-white px-1.5 py-1 text-sm text-slate-900 ${FOCUS_FIELD}`}
            value={filters[k] ?? ''}
            data-testid={`library-filter-${k}`}
            onChange={(e) => store.getState().setLibraryFilters({ [k]: e.currentTarget.value === '' ? null : e.currentTarget.value })}
          >
            <option value="">any ({values[k].reduce((s, v) => s + v.runs, 0)} runs)</option>
            {values[k].map((v) => (
              <option key={v.value} value={v.value}>
                {safeLabel(v.value, 60)} ({v.runs})
              </option>
            ))}
            {filters[k] !== null && !values[k].some((v) => v.value === filters[k]) && <option value={filters[k]}>{safeLabel(filters[k], 60)} (0)</option>}
          </select>
        </label>
      ))}
      {LIBRARY_FILTER_KEYS.some((k) => filters[k] !== null) && (
        <Button
          variant="quiet"
          className="text-xs"
          onClick={() => store.getState().setLibraryFilters({ benchmark: null, domain: null, model: null, dataVersion: null })}
        >
          Clear filters
        </Button>
      )}
    </div>
  );
}

function Status() {
  const lib = useApp((s) => s.library);
  const request = useApp((s) => s.libraryRequest);
  if (request && lib.origin === null)
    return (
      <p className="m-2 rounded-md border border-sky-200 bg-sky-50 px-2 py-1.5 text-sm text-sky-950" data-testid="library-request">
        This link names the library {request.kind === 'folder' ? 'folder' : 'file'} “{safeLabel(request.name, 200)}” on the machine it was made on. A link
        cannot carry local files: pick it here with <strong>Library ▸ {request.kind === 'folder' ? 'Library folder…' : 'runs.parquet alone…'}</strong>, and the
        view the link names (tab and filters) follows.
      </p>
    );
  if (lib.loading)
    return (
      <p className="px-2 py-2 text-sm text-slate-700" role="status">
        {lib.progress
          ? `Judging the folder’s results files: ${lib.progress.done} of ${lib.progress.total} files, ${lib.progress.episodes} episodes${lib.progress.problems ? `, ${lib.progress.problems} could not be read` : ''}…`
          : 'Reading the library…'}
      </p>
    );
  if (lib.error !== null)
    return (
      <p className="m-2 rounded-md border border-rose-200 bg-rose-50 px-2 py-1.5 text-sm text-rose-900" role="alert" data-testid="library-error">
        Could not open the library: {safeLabel(lib.error, 600)}
      </p>
    );
  return null;
}

/** The library of runs: where it came from, filters, and its three views under tabs. */
export function LibraryView() {
  const store = useAppStore();
  const lib = useApp((s) => s.library);
  const tab = useApp((s) => s.libraryTab);
  const hasRun = useApp((s) => s.runs.a.id !== null);
  const origin = lib.origin === null ? '' : lib.origin.kind === 'url' ? lib.origin.url : lib.origin.name;
  return (
    <div className="flex min-h-0 min-w-0 flex-1 flex-col bg-white" data-testid="library-view" data-loading={lib.loading} data-library-id={lib.id}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-b border-slate-200 px-2 pt-1.5 pb-1">
        <h2 className="text-sm font-semibold text-slate-900">
          Library <span className="font-normal text-slate-700">{safeLabel(origin, 200)}</span>
        </h2>
        {lib.table && (
          <p className="text-xs text-slate-600" data-testid="library-summary">
            {lib.table.run.length} episodes in {lib.table.runs.length} runs, from {safeLabel(lib.via, 200)}
            {lib.files.length === 0 && ' · only the index: a run opens from its URL beside it, or not at all'}
          </p>
        )}
        {hasRun && (
          <Button variant="quiet" className="ml-auto text-xs" onClick={() => store.getState().showLibrary(false)}>
            Back to the run
          </Button>
        )}
      </div>
      <Status />
      {lib.problems.length > 0 && (
        <details className="mx-2 mt-1 text-xs text-amber-900" data-testid="library-problems">
          <summary className="cursor-pointer">{lib.problems.length} files could not be read</summary>
          <ul className="ml-4 list-disc">
            {lib.problems.map((p) => (
              <li key={p.file}>
                {safeLabel(p.file, 200)}: {safeLabel(p.reason, 400)}
              </li>
            ))}
          </ul>
        </details>
      )}
      {lib.table && (
        <>
          <Filters />
          <div role="tablist" aria-label="Library views" className="flex gap-1 border-b border-slate-200 px-2">
            {LIBRARY_TABS.map((t) => (
              <button
                key={t}
                type="button"
                role="tab"
                aria-selected={tab === t}
                data-testid={`library-tab-${t}`}
                onClick={() => store.getState().setLibraryTab(t)}
                className={`-mb-px border-b-2 px-2 py-1 text-sm font-medium ${tab === t ? 'border-indigo-600 text-indigo-800' : 'border-transparent text-slate-600 hover:text-slate-900'} ${FOCUS_RING}`}
              >
                {TAB_TEXT[t]}
              </button>
            ))}
          </div>
          <div role="tabpanel" className="min-h-0 flex-1 overflow-auto">
            {/* The leaderboard stays mounted (hidden) while another tab shows: coming back to it draws nothing again. */}
            <div hidden={tab !== 'leaderboard'}>
              <SubmissionsView />
              <Leaderboard />
            </div>
            {tab === 'heatmap' ? <HeatMap /> : tab === 'health' ? <TaskHealthView /> : null}
          </div>
        </>
      )}
    </div>
  );
}
