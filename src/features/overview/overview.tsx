import { useMemo, type ReactNode } from 'react';
import { filterByLabel } from '../../store/notes-slice';
import { rowsSelector } from '../../store/rows';
import { useApp } from '../../ui/store-context';
import { EpisodeTable } from './episode-table';
import { FilterBar } from './filter-bar';
import { RunSummary } from './run-summary';

/**
 * The run overview: summary and charts, filters, and the episode list; `compact` beside an open
 * episode (the list only). `intro` goes first (the app's welcome line on phones, outside the fixed header).
 */
export function Overview({ compact = false, notesBar, intro }: { compact?: boolean; notesBar?: ReactNode; intro?: ReactNode }) {
  const select = useMemo(() => rowsSelector(), []);
  const all = useApp((s) => select(s.runs.a.headers, s.runs.a.summaries, s.filters, s.sort, s.hits));
  const headers = useApp((s) => s.runs.a.headers);
  const notes = useApp((s) => s.notes);
  const labelFilter = useApp((s) => s.labelFilter);
  const rows = useMemo(() => filterByLabel(all, headers, notes, labelFilter), [all, headers, notes, labelFilter]);
  return (
    <div className="@container flex min-h-0 min-w-0 flex-1 flex-col">
      {intro}
      {!compact && <RunSummary rows={rows} />}
      <FilterBar shown={rows.length} />
      {notesBar}
      <EpisodeTable rows={rows} />
    </div>
  );
}
