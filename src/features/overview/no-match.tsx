import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';
import { reasonLabel } from './reason-chip';

/**
 * The empty list of a run whose rows the filters hide: each filter in force said in words (the search, failed only, a
 * reason, a task, a label), with one button that clears them all. A filter never empties a run silently.
 */
export function NoMatch() {
  const store = useAppStore();
  const filters = useApp((s) => s.filters);
  const query = useApp((s) => s.query);
  const label = useApp((s) => s.labelFilter);
  const searching = useApp((s) => s.searching);
  const parts = [
    ...(query.trim() !== '' ? [`messages containing “${safeLabel(query.trim(), 80)}”${searching ? ' (searching…)' : ''}`] : []),
    ...(filters.failedOnly ? ['failed only'] : []),
    ...(filters.reason !== null ? [`reason: ${reasonLabel(filters.reason)}`] : []),
    ...(filters.taskId !== null ? [`task ${filters.taskId}`] : []),
    ...(label !== null ? [`label: ${label}`] : []),
  ];
  return (
    <div className="p-6 text-center text-sm text-slate-600" data-testid="no-match">
      <p>No episode matches these filters{parts.length > 0 ? `: ${parts.join(' · ')}` : ''}.</p>
      {parts.length > 0 && (
        <button type="button" className="mt-1 text-xs font-medium text-indigo-700 hover:underline" onClick={() => store.getState().clearFilters()}>
          Clear the filters
        </button>
      )}
    </div>
  );
}
