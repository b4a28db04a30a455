import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { benchmarkOf, formatReward, stepAt, teachResult, type BenchmarkView, type TeachSheet } from '../../core/contract';
import { teachOf } from '../../store/teach-slice';
import { Button } from '../../ui/button';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';
import { TeachComponentBox, type ShowEvidence } from './teach-checks';

/** What a benchmark gives teaching mode (the app's descriptor: src/app/benchmark-screens.tsx). */
export interface TeachDescriptor {
  /** The episode's checks as questions, with the benchmark's answers (null: none for this view). */
  readonly sheet: (view: BenchmarkView) => TeachSheet | null;
  /** The dialogue as the agent and the user saw it, without the judge's marks; `message` the step cursor's. */
  readonly dialogue: (view: BenchmarkView, message: number, onSelect: (index: number) => void) => ReactNode;
  readonly show: ShowEvidence;
}

/** The verdict and where the student differed, once revealed (focused, so a screen reader reads it first). */
function Result({ sheet, marks, onRetry, onLeave }: { sheet: TeachSheet; marks: Readonly<Record<string, boolean>>; onRetry: () => void; onLeave: () => void }) {
  const result = teachResult(sheet, marks);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby="teach-result-h"
      className="rounded-md border-2 border-indigo-300 bg-indigo-50 px-3 py-2 text-sm text-indigo-950 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      data-testid="teach-result"
      data-differences={result.differences.length}
    >
      <h3 id="teach-result-h" className="font-semibold">
        {sheet.judge}’s verdict: reward <span data-testid="teach-reward">{formatReward(sheet.reward)}</span>
      </h3>
      <p className="text-xs" data-testid="teach-source">
        {sheet.recomputed
          ? `Recomputed here from the dialogue and ${sheet.judge}’s data; the file records ${sheet.recorded}.`
          : `As the file records it: ${sheet.judge}’s data is not in this browser, so it is not recomputed.`}
      </p>
      <p className="mt-1" data-testid="teach-summary">
        {result.summary}
      </p>
      {result.differences.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-xs" aria-label="Where you differ" data-testid="teach-differences">
          {result.differences.map((d) => (
            <li key={d.key} data-key={d.key}>
              <strong>{safeLabel(d.what, 300)}</strong>: you {d.yours === null ? 'did not mark it' : d.yours ? 'said met' : 'said not met'}; {sheet.judge}{' '}
              {d.theirs === null ? 'did not judge it' : d.theirs ? 'counts it met' : 'counts it not met'} — {safeLabel(d.evidence, 800)}
            </li>
          ))}
        </ul>
      )}
      {sheet.outside.length > 0 && (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer">
            Checks {sheet.judge} made that are not in this task’s reward ({sheet.outside.length})
          </summary>
          <ul className="mt-0.5 list-disc pl-5">
            {sheet.outside.map((o) => (
              <li key={o}>{safeLabel(o, 800)}</li>
            ))}
          </ul>
        </details>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="toolbar" onClick={onRetry} data-testid="teach-retry">
          Hide the verdict and start again
        </Button>
        <Button variant="toolbar" onClick={onLeave}>
          Inspect it in full (leave teaching mode)
        </Button>
      </div>
    </section>
  );
}

/** "Copy teaching link": the worker writes the episode into a link (as Share does, with `teach=1`); copied once it is there. */
function CopyTeachingLink({ noun }: { noun: string }) {
  const store = useAppStore();
  const selected = useApp((s) => s.selected);
  const share = useApp((s) => s.share);
  const [asked, setAsked] = useState<number | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const mine = share !== null && share.index === selected && asked === selected ? share : null;
  const url = mine?.fragment ? `${location.origin}${location.pathname}${mine.fragment}` : null;
  useEffect(() => {
    if (url === null) return;
    const copy = navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject(new Error('no clipboard'));
    copy.then(
      () => setStatus(`Teaching link copied (${Math.ceil(url.length / 1024)} KB): it opens this ${noun} with its verdict hidden.`),
      () => setStatus('The link is ready: copy it from the address bar.'),
    );
  }, [url, noun]);
  return (
    <>
      {(status ?? mine?.error) && (
        <span role="status" className="text-xs text-slate-700" data-testid="teach-link-status">
          {mine?.error ? `Could not make the link: ${mine.error}` : status}
        </span>
      )}
      <Button
        variant="toolbar"
        onClick={() => {
          setStatus(null);
          setAsked(selected);
          store.getState().shareEpisode();
        }}
        title={`Copy a link that opens this ${noun} in teaching mode, its verdict hidden (the ${noun} travels inside the link)`}
        data-testid="teach-copy-link"
      >
        Copy teaching link
      </Button>
    </>
  );
}

/**
 * Teaching mode ("judge it yourself"): the open episode's dialogue beside the components of its reward as questions;
 * the student marks each met or not and reveals the benchmark's verdict, shown with where they differ and why. Nothing
 * of the verdict is on screen before the reveal (no reward, no check's outcome, no judge's mark in the dialogue).
 */
export function TeachPane({ teach }: { teach: TeachDescriptor | null }) {
  const store = useAppStore();
  const view = useApp((s) => s.view);
  const raw = useApp((s) => s.teach);
  const run = useApp((s) => s.runs.a.id);
  const selected = useApp((s) => s.selected);
  const step = useApp((s) => s.step);
  const kind = useApp((s) => s.runs.a.benchmark?.kind);
  const shared = useApp((s) => (s.runs.a.source?.embedded !== undefined ? s.sharedFrom : null));
  const error = useApp((s) => s.viewError);
  // A phone shows one column at a time: the dialogue first (read it, then mark the checks).
  const [phone, setPhone] = useState<'dialogue' | 'checks'>('dialogue');
  const t = teachOf(raw, run, selected);
  const sheet = useMemo(() => (view !== null && teach !== null ? teach.sheet(view) : null), [view, teach]);
  if (t === null || selected === null || run === null) return null;
  const st = store.getState;
  const bench = benchmarkOf(kind);
  const Noun = bench.noun.charAt(0).toUpperCase() + bench.noun.slice(1);
  const index = shared?.index ?? selected;
  const message = view === null ? 0 : stepAt(view, step);
  const ready = view !== null && view.index === selected;
  // Evidence shown in the dialogue: on a phone the dialogue comes into view first.
  const show: ShowEvidence = (at) => {
    setPhone('dialogue');
    requestAnimationFrame(() => teach?.show(at));
  };
  return (
    <section className="flex min-h-0 min-w-0 flex-1 flex-col" aria-labelledby="teach-h" data-testid="teach" data-revealed={t.revealed} data-index={selected}>
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-white px-3 py-1.5">
        <h2 id="teach-h" className="min-w-[min(100%,16rem)] flex-1 text-sm font-semibold break-words text-slate-900">
          Judge it yourself: {Noun} {index}
          {sheet !== null && sheet.task !== '' && <span className="font-normal text-slate-600"> · task {safeLabel(sheet.task, 80)}</span>}
        </h2>
        <CopyTeachingLink noun={bench.noun} />
        <Button variant="toolbar" onClick={() => st().stopTeaching()} data-testid="teach-leave">
          Leave teaching mode
        </Button>
      </div>
      <p className="border-b border-slate-200 bg-slate-50 px-3 py-1 text-xs text-slate-700">
        Read the dialogue, mark each component of the reward met or not (each check inside it too, if you like), then reveal how {bench.name} judged it.
      </p>
      {teach === null ? (
        <p className="p-4 text-sm text-slate-700" data-testid="teach-unsupported">
          This {bench.noun} has no teaching sheet.
        </p>
      ) : !ready || sheet === null ? (
        <p className="p-4 text-sm text-slate-700" data-testid="teach-waiting">
          {error ? `Not shown: ${safeLabel(error, 500)}` : `Opening the ${bench.noun}…`}
        </p>
      ) : (
        <>
          <div className="flex gap-1 border-b border-slate-200 bg-white px-3 py-1 lg:hidden" role="group" aria-label="Show">
            {(['dialogue', 'checks'] as const).map((p) => (
              <Button
                key={p}
                variant="toolbar"
                aria-pressed={phone === p}
                onClick={() => setPhone(p)}
                className={phone === p ? 'font-semibold ring-2 ring-indigo-500' : ''}
              >
                {p === 'dialogue' ? 'Dialogue' : 'Checks'}
              </Button>
            ))}
          </div>
          <div className="flex min-h-0 flex-1">
            <section
              aria-label="Dialogue"
              className={`min-h-0 min-w-0 flex-1 overflow-y-auto border-slate-200 lg:block lg:border-r ${phone === 'dialogue' ? 'block' : 'hidden'}`}
              data-testid="teach-dialogue"
            >
              {teach.dialogue(view, message, (i) => st().setStep(i))}
            </section>
            <form
              aria-label="Checks"
              className={`min-h-0 min-w-0 flex-1 flex-col gap-2 overflow-y-auto bg-slate-50 p-3 lg:flex lg:max-w-[40rem] ${phone === 'checks' ? 'flex' : 'hidden'}`}
              onSubmit={(e) => {
                e.preventDefault();
                st().revealTeach();
              }}
              data-testid="teach-checks"
            >
              {t.revealed && <Result sheet={sheet} marks={t.marks} onRetry={() => st().retryTeach()} onLeave={() => st().stopTeaching()} />}
              <p className="text-xs text-slate-700">{sheet.rule}</p>
              {sheet.before !== null && <p className="text-xs text-amber-900">{safeLabel(sheet.before, 600)}</p>}
              {sheet.components.map((c) => (
                <TeachComponentBox
                  key={c.key}
                  c={c}
                  marks={t.marks}
                  revealed={t.revealed}
                  onMark={(k, m) => st().markTeach(k, m)}
                  show={show}
                  judge={sheet.judge}
                />
              ))}
              {!t.revealed && (
                <div className="flex flex-wrap items-center gap-2">
                  <Button type="submit" variant="primary" data-testid="teach-reveal">
                    Reveal {sheet.judge}’s verdict
                  </Button>
                  <span className="text-xs text-slate-700" data-testid="teach-count">
                    {sheet.components.filter((c) => t.marks[c.key] !== undefined).length} of {sheet.components.length} components marked
                  </span>
                </div>
              )}
            </form>
          </div>
        </>
      )}
    </section>
  );
}
