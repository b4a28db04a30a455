import { useMemo } from 'react';
import { rowsSelector } from '../../store/rows';
import { useApp } from '../../ui/store-context';
import { EpisodeTable } from './episode-table';
import { FilterBar } from './filter-bar';
import { RunSummary } from './run-summary';

/** The run overview: summary and charts, filters, and the episode list; `compact` beside an open episode (the list only). */
export function Overview({ compact = false }: { compact?: boolean }) {
  const select = useMemo(() => rowsSelector(), []);
  const rows = useApp((s) => select(s.headers, s.summaries, s.filters, s.sort, s.hits));
  return (
    <div className="@container flex min-h-0 min-w-0 flex-1 flex-col">
      {!compact && <RunSummary rows={rows} />}
      <FilterBar shown={rows.length} />
      <EpisodeTable rows={rows} />
    </div>
  );
}
