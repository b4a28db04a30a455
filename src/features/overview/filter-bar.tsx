import { useEffect, useId, useMemo, useState } from 'react';
import { taskLabel } from '../../core/contract';
import type { ReasonFilter } from '../../store/rows';
import { safeLabel } from '../../ui/fold';
import { FOCUS_FIELD } from '../../ui/focus';
import { useApp, useAppStore } from '../../ui/store-context';
import { REASONS_OF } from './reason-chip';

const control = `rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-800 ${FOCUS_FIELD}`;

/** Failed only, by reason, by task, and search across messages (answered by the worker). */
export function FilterBar({ shown }: { shown: number }) {
  const store = useAppStore();
  const filters = useApp((s) => s.filters);
  const headers = useApp((s) => s.runs.a.headers);
  const searching = useApp((s) => s.searching);
  const hits = useApp((s) => s.hits);
  const storeQuery = useApp((s) => s.query);
  const [query, setQuery] = useState(storeQuery);
  const [shownStoreQuery, setShownStoreQuery] = useState(storeQuery);
  const ids = { search: useId(), reason: useId(), task: useId(), failed: useId() };
  const tasks = useMemo(() => [...new Set(headers.map((h) => h.taskId).filter((t): t is number => t !== null))].sort((a, b) => a - b), [headers]);
  const kind = useApp((s) => s.runs.a.benchmark?.kind ?? 'tau-bench');
  // Tasks as their benchmark names them (τ²'s ids are text, telecom's long).
  const taskNames = useMemo(() => new Map(headers.map((h) => [h.taskId, taskLabel(h)])), [headers]);

  if (storeQuery !== shownStoreQuery) {
    // The store's query changed from elsewhere (a link, clearing filters): show it in the box.
    // Adjusting state while rendering, not in an effect, saves a render with the stale text.
    setShownStoreQuery(storeQuery);
    setQuery(storeQuery);
  }
  useEffect(() => {
    if (query === store.getState().query) return;
    const t = setTimeout(() => store.getState().setQuery(query), 200);
    return () => clearTimeout(t);
  }, [query, store]);

  const active = filters.failedOnly || filters.reason !== null || filters.taskId !== null || storeQuery.trim() !== '';
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-slate-200 bg-white px-3 py-2" role="search">
      <div className="relative min-w-0 flex-1 basis-48">
        <label htmlFor={ids.search} className="sr-only">
          Search messages
        </label>
        <input
          id={ids.search}
          type="search"
          placeholder="Search messages"
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter / Shift+Enter step through the hits in the open episode; typed text not yet searched is searched at once first.
            if (e.key !== 'Enter' || e.altKey || e.ctrlKey || e.metaKey) return;
            e.preventDefault();
            const s = store.getState();
            if (query !== s.query) s.setQuery(query);
            else if (s.selected !== null && query.trim() !== '') s.stepHit(e.shiftKey ? -1 : 1);
          }}
          aria-keyshortcuts="Enter Shift+Enter"
          className={`${control} w-full pr-16`}
          data-testid="search"
        />
        {storeQuery.trim() !== '' && (
          <span className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 text-[11px] text-slate-600 tabular-nums">
            {searching ? '…' : (hits?.size ?? 0) === 1 ? '1 episode' : `${hits?.size ?? 0} episodes`}
          </span>
        )}
      </div>
      <label htmlFor={ids.failed} className="inline-flex items-center gap-1.5 text-xs text-slate-700">
        <input
          id={ids.failed}
          type="checkbox"
          checked={filters.failedOnly}
          onChange={(e) => store.getState().setFilters({ failedOnly: e.currentTarget.checked })}
          className="size-3.5 rounded border-slate-300 accent-indigo-600"
        />
        Failed only
      </label>
      <div className="flex items-center gap-1.5">
        <label htmlFor={ids.reason} className="sr-only">
          Reason
        </label>
        <select
          id={ids.reason}
          value={filters.reason ?? ''}
          onChange={(e) => store.getState().setFilters({ reason: e.currentTarget.value === '' ? null : (e.currentTarget.value as ReasonFilter) })}
          className={`${control} max-w-36`}
        >
          <option value="">any reason</option>
          {REASONS_OF[kind].map((r) => (
            <option key={r.code} value={r.code}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-center gap-1.5">
        <label htmlFor={ids.task} className="sr-only">
          Task
        </label>
        <select
          id={ids.task}
          value={filters.taskId ?? ''}
          onChange={(e) => store.getState().setFilters({ taskId: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
          className={`${control} max-w-44`}
        >
          <option value="">all tasks</option>
          {tasks.map((t) => (
            <option key={t} value={t}>
              task {safeLabel(taskNames.get(t) ?? String(t), 200)}
            </option>
          ))}
        </select>
      </div>
      <span className="ml-auto text-[11px] text-slate-600 tabular-nums" aria-live="polite">
        {shown === headers.length ? (shown === 1 ? '1 row' : `${shown} rows`) : `${shown} of ${headers.length}`}
      </span>
      {active && (
        <button type="button" onClick={() => store.getState().clearFilters()} className="text-xs font-medium text-indigo-700 hover:underline">
          Clear
        </button>
      )}
    </div>
  );
}
