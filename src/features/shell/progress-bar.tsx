import type { AppState } from '../../store/app-store';
import { Button } from '../../ui/button';
import { formatBytes } from '../../ui/format';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';

interface Progress {
  readonly label: string;
  readonly value: number | null;
  /** The user stopped the evaluation: the bar stands still. */
  readonly stopped?: boolean;
  /** A shorter label for a phone's one-line header. */
  readonly short?: string;
}

/** The open run's progress: being read, its data being fetched, being evaluated (stopped or not). */
export function progressOf(s: AppState): Progress | null {
  const pending = s.pending.a;
  const { headers, dataProgress: p, detection, evaluated, stopped, reading, read: reads, threads } = s.runs.a;
  const on = threads > 1 ? ` on ${threads} threads` : '';
  const total = headers.length;
  const read = pending?.read;
  if (pending && read)
    return read.total
      ? {
          label: `Reading ${safeLabel(pending.info.label)}: ${formatBytes(read.loaded)} of ${formatBytes(read.total)}`,
          short: `Reading ${Math.floor((100 * read.loaded) / read.total)}%`,
          value: read.loaded / read.total,
        }
      : { label: `Reading ${safeLabel(pending.info.label)}: ${formatBytes(read.loaded)}`, value: null };
  if (pending) return { label: `Opening ${safeLabel(pending.info.label)}…`, value: null };
  if (p && !detection)
    return p.done < p.total
      ? { label: `${p.label}: ${p.done}/${p.total} files, ${formatBytes(p.bytes)}`, value: p.total ? p.done / p.total : null }
      : { label: 'Building the DB and detecting the data version…', value: null };
  if (reading && !stopped) {
    // Judged while the file is read: the bar follows the reading, the words say both.
    const of = reads?.total ? `${formatBytes(reads.loaded)} of ${formatBytes(reads.total)}` : reads ? formatBytes(reads.loaded) : '';
    return {
      label: `Reading ${of}: ${total} episodes so far${detection ? `, ${evaluated} evaluated${on}` : ''}`,
      short: `Reading ${total}${detection ? `, ${evaluated} ✓` : ''}`,
      value: reads?.total ? reads.loaded / reads.total : null,
    };
  }
  if (detection && evaluated < total)
    return stopped
      ? { label: `Stopped at ${evaluated} of ${total} episodes`, short: `Stopped ${evaluated}/${total}`, value: evaluated / total, stopped: true }
      : { label: `Evaluating ${evaluated}/${total}${on}`, short: `Evaluating ${evaluated}/${total}`, value: evaluated / total };
  return null;
}

const useProgress = (): Progress | null => {
  const label = useApp((s) => progressOf(s)?.label ?? null);
  const value = useApp((s) => progressOf(s)?.value ?? null);
  const stopped = useApp((s) => progressOf(s)?.stopped === true);
  const short = useApp((s) => progressOf(s)?.short ?? null);
  return label === null ? null : { label, value, stopped, ...(short !== null && { short }) };
};

/**
 * A bar under the header while data is fetched or episodes are evaluated (a hairline when idle). Its width jumps,
 * with no transition: one re-laid out the header and repainted every frame while a big file loaded (about 3 s of this
 * thread over the bench's 5,000 episodes, taken from the workers judging on the same cores).
 */
export function ProgressBar() {
  const p = useProgress();
  return (
    <div
      className={`overflow-hidden ${p ? `h-1.5 ${p.stopped ? 'bg-slate-200' : 'bg-indigo-100'}` : 'h-px bg-slate-200'}`}
      data-testid="progress-bar"
      {...(p
        ? {
            role: 'progressbar',
            'aria-label': p.label,
            'aria-valuemin': 0,
            'aria-valuemax': 100,
            ...(p.value === null ? {} : { 'aria-valuenow': Math.round(p.value * 100) }),
          }
        : { 'aria-hidden': true })}
    >
      {p && (
        <div
          className={`h-full ${p.stopped ? 'bg-slate-400' : 'bg-indigo-500'} ${p.value === null ? 'w-1/3 animate-pulse' : ''}`}
          style={p.value === null ? undefined : { width: `${Math.max(2, p.value * 100)}%` }}
        />
      )}
    </div>
  );
}

/** The same progress in words. */
export function ProgressText() {
  const p = useProgress();
  return (
    <span className="text-[11px] text-slate-600 tabular-nums" aria-live="polite" data-testid="progress-text">
      {p?.short === undefined ? (
        (p?.label ?? '')
      ) : (
        <>
          <span className="sm:hidden">{p.short}</span>
          <span className="hidden sm:inline">{p.label}</span>
        </>
      )}
    </span>
  );
}

/** "Stop" while episodes are evaluated; "Resume" once the user stopped (rows not evaluated stay so). */
export function EvaluationControl() {
  const store = useAppStore();
  const state = useApp(({ runs: { a } }) => (a.detection && (a.evaluated < a.headers.length || a.reading) ? (a.stopped ? 'stopped' : 'running') : null));
  if (state === null) return null;
  return state === 'running' ? (
    <Button
      variant="small"
      onClick={() => store.getState().stopEvaluation()}
      title="Stop evaluating: rows evaluated so far stay; the rest can be evaluated later"
      data-testid="stop-evaluation"
    >
      Stop
    </Button>
  ) : (
    <Button variant="small" onClick={() => store.getState().resumeEvaluation()} title="Go on evaluating from where it stopped" data-testid="resume-evaluation">
      Resume
    </Button>
  );
}
