import { useId, useState } from 'react';
import { benchmarkOf } from '../../core/contract';
import { Button } from '../../ui/button';
import { safeLabel } from '../../ui/fold';
import { EvaluationControl, ProgressText } from './progress-bar';
import { useApp } from '../../ui/store-context';

/** A benchmark's part of the run line: how its runs are judged and where the data came from, on the line and under "Why?". */
export interface RunFacts {
  readonly Line: () => React.JSX.Element | null;
  readonly Why: () => React.JSX.Element | null;
}

/**
 * Where the run and the data came from, and what was detected, in plain words (with the reasons on demand); `facts`: the
 * open run's benchmark's part (src/app/benchmark-screens.tsx).
 */
export function DetectionLine({ facts: Facts }: { facts: RunFacts }) {
  const source = useApp((s) => s.runs.a.source);
  const domain = useApp((s) => s.runs.a.domain);
  const domainWhy = useApp((s) => s.runs.a.domainWhy);
  const bench = useApp((s) => benchmarkOf(s.runs.a.benchmark?.kind));
  const solo = useApp((s) => (s.runs.a.benchmark as { solo?: boolean } | null)?.solo === true);
  const count = useApp((s) => s.runs.a.headers.length);
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!source) return null;
  return (
    // A landmark of its own (a named section): screen-reader users find the run's facts beside the banner and the main view.
    <section
      aria-label="The open run"
      className="border-b border-slate-200 bg-white px-2 py-1 text-xs text-slate-600 sm:px-4 sm:py-1.5"
      data-testid="detection"
    >
      {/* One line on a phone (the run; the rest under "Why?"), wrapping on wider screens. */}
      <div className="flex items-center gap-x-3 gap-y-1 sm:flex-wrap xl:flex-nowrap">
        <span className="min-w-0 truncate sm:overflow-visible sm:whitespace-normal xl:shrink-0 xl:whitespace-nowrap">
          <span className="text-slate-600">Run </span>
          {/* A long name (a URL) gives way before the judging facts beside it: cut at a width on wide screens, whole in its tooltip. */}
          <span
            className="font-medium text-slate-800 xl:inline-block xl:max-w-[28rem] xl:truncate xl:align-bottom 2xl:max-w-[44rem]"
            title={safeLabel(source.label)}
          >
            {safeLabel(source.label)}
          </span>
          <span className="text-slate-600">
            {' '}
            · {count} {count === 1 ? bench.noun : bench.nouns} ·{' '}
            {source.kind === 'sample'
              ? 'bundled sample'
              : source.kind === 'url'
                ? 'from URL'
                : source.embedded
                  ? 'carried in the link itself, no server'
                  : 'local file, read in this browser'}
          </span>
        </span>
        {domain !== null && (
          <span className="hidden sm:inline xl:shrink-0 xl:whitespace-nowrap">
            <span className="text-slate-600">{bench.domainWord} </span>
            <span className="font-medium text-slate-800" data-testid="run-domain">
              {safeLabel(domain, 60)}
              {solo ? ' (solo)' : ''}
            </span>
          </span>
        )}
        <Facts.Line />
        <span className="ml-auto flex shrink-0 items-center gap-3">
          <ProgressText />
          <EvaluationControl />
          <Button variant="quiet" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
            {open ? 'Hide why' : 'Why?'}
          </Button>
        </span>
      </div>
      {open && (
        <dl id={id} className="mt-1.5 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 border-t border-slate-100 pt-1.5 text-slate-700">
          <dt className="text-slate-600">Domain</dt>
          <dd>{domain ? `${safeLabel(domain, 60)}: ${domainWhy}` : '—'}</dd>
          <Facts.Why />
        </dl>
      )}
    </section>
  );
}
