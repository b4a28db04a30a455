import { tau2Of } from '../../store/run-state';
import { Fragment, useId, useState } from 'react';
import { describeData, RULE_SHORT } from '../../core/contract';
import { Button } from '../../ui/button';
import { safeLabel } from '../../ui/fold';
import { EvaluationControl, ProgressText } from './progress-bar';
import { useApp } from '../../ui/store-context';

/** Where the run and the data came from, and what was detected, in plain words (with the reasons on demand). */
export function DetectionLine() {
  const source = useApp((s) => s.runs.a.source);
  const domain = useApp((s) => s.runs.a.domain);
  const domainWhy = useApp((s) => s.runs.a.domainWhy);
  const detection = useApp((s) => s.runs.a.detection);
  const tau2 = useApp((s) => tau2Of(s.runs.a));
  const tau2Ready = useApp((s) => (tau2Of(s.runs.a) ? s.runs.a.ready : null));
  const origin = useApp((s) => s.runs.a.origin);
  const count = useApp((s) => s.runs.a.headers.length);
  const loading = useApp((s) => s.runs.a.dataProgress !== null && s.runs.a.dataError === null);
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
            · {count} {tau2 ? 'simulation' : 'episode'}
            {count === 1 ? '' : 's'} ·{' '}
            {source.kind === 'sample'
              ? 'bundled sample'
              : source.kind === 'url'
                ? 'from URL'
                : source.embedded
                  ? 'carried in the link itself, no server'
                  : 'local file, read in this browser'}
          </span>
        </span>
        {(domain ?? tau2) && (
          <span className="hidden sm:inline xl:shrink-0 xl:whitespace-nowrap">
            <span className="text-slate-600">{tau2 ? 'τ²-bench domain ' : 'Domain '}</span>
            <span className="font-medium text-slate-800" data-testid="run-domain">
              {tau2 ? `${safeLabel(tau2.domain, 60)}${tau2.solo ? ' (solo)' : ''}` : domain}
            </span>
          </span>
        )}
        {tau2 ? (
          <span className="hidden max-w-full min-w-0 truncate sm:inline">
            <span className="text-slate-600">{tau2Ready ? 'Judged as τ² v1.0.1 evaluate_simulation (ALL) · data from ' : ''}</span>
            <span className="text-slate-800" title={tau2Ready ?? undefined}>
              {tau2Ready ? (origin?.label ?? '') : loading ? 'loading τ² data…' : 'no data yet: recomputed rewards appear once τ²-bench data is loaded'}
            </span>
          </span>
        ) : detection ? (
          <>
            <span className="hidden sm:inline xl:shrink-0 xl:whitespace-nowrap">
              <span className="text-slate-600">τ-bench data </span>
              <span className="font-mono font-medium text-slate-800">{describeData(detection.data)}</span>
            </span>
            <span className="hidden sm:inline xl:shrink-0 xl:whitespace-nowrap">
              <span className="text-slate-600">Rule </span>
              <span className="font-medium text-slate-800">{detection.rule}</span>
              {!detection.ruleFinal && <span className="text-amber-700"> (provisional)</span>}
            </span>
            {origin && (
              <span className="hidden max-w-full min-w-0 truncate sm:inline-block sm:max-w-[26rem] sm:align-bottom" title={origin.label}>
                <span className="text-slate-600">Data from </span>
                <span className="text-slate-800" title={origin.label}>
                  {origin.label}
                </span>
              </span>
            )}
          </>
        ) : (
          <span className="hidden text-slate-600 sm:inline">
            {loading ? 'loading τ-bench data…' : 'no data yet: recomputed rewards appear once τ-bench data is loaded'}
          </span>
        )}
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
          <dd>{domain || tau2 ? `${tau2 ? safeLabel(tau2.domain, 60) : domain}: ${domainWhy}` : '—'}</dd>
          {tau2 && (
            <>
              <dt className="text-slate-600">Rule</dt>
              <dd>
                τ² v1.0.1 evaluate_simulation with EvaluationType.ALL: premature terminations get 0 and no check; otherwise the product of the task’s
                reward_basis components (DB, env assertions, actions, communicate; NL assertions as recorded, never recomputed)
              </dd>
              {tau2Ready && (
                <>
                  <dt className="text-slate-600">Data</dt>
                  <dd className="break-all">{tau2Ready}</dd>
                </>
              )}
              {tau2.notes.map((n, i) => (
                <Fragment key={i}>
                  <dt className="text-slate-600">Note</dt>
                  <dd>{safeLabel(n, 1000)}</dd>
                </Fragment>
              ))}
            </>
          )}
          {detection && (
            <>
              <dt className="text-slate-600">Data version</dt>
              <dd>
                <span className="font-mono break-all">{detection.dataCommit}</span>: {detection.versionWhy}
              </dd>
              <dt className="text-slate-600">Reward rule</dt>
              <dd>
                {detection.rule} ({RULE_SHORT[detection.rule]}): {detection.ruleWhy}
              </dd>
              <dt className="text-slate-600">Data source</dt>
              <dd className="break-all">{detection.dataSource}</dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}
