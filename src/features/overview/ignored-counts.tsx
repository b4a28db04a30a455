import { useMemo } from 'react';
import { benchmarkOf, countIgnored, ignoredText, type EpisodeSummary } from '../../core/contract';
import { useApp } from '../../ui/store-context';

/** What the reward ignores, counted by kind over the rows judged so far (core's `countIgnored`); nothing when no row has any. */
export function IgnoredCounts({ summaries }: { summaries: readonly (EpisodeSummary | undefined)[] }) {
  const nouns = useApp((s) => benchmarkOf(s.runs.a.benchmark?.kind).nouns);
  const counts = useMemo(() => countIgnored(summaries.map((s) => s?.ignored)), [summaries]);
  if (counts.length === 0) return null;
  return (
    <p className="px-2 pb-1 text-xs break-words text-slate-700" data-testid="run-ignored">
      <span className="font-semibold">What the reward ignores</span> (the policy’s procedure, read from the dialogue; not part of the reward):{' '}
      {ignoredText(counts, nouns)}
    </p>
  );
}
