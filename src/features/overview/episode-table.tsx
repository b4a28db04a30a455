import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useEffectEvent, useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent } from 'react';
import { formatRecorded, formatReward, notesFor, rowEnding, taskLabel, type EpisodeHeader, type EpisodeSummary, type NoteLabel } from '../../core/contract';
import type { ReasonFilter, SortKey } from '../../store/rows';
import { isSuccess } from '../../core/contract';
import { fingerprintsPending } from '../../store/notes-slice';
import { runComplete, runReady } from '../../store/run-state';
import { safeLabel } from '../../ui/fold';
import { LongId } from '../../ui/long-id';
import { useApp } from '../../ui/store-context';
import { useOpenRun } from './use-open-run';
import { LabelChip } from './label-chip';
import { ReasonChip } from './reason-chip';
import { NoMatch } from './no-match';

/**
 * Narrow (a list beside an episode, a phone): no position column and tight cells; from 32rem of list width: all of them.
 * The task column is as wide as the run's longest task label needs (`--task-n` narrow, `--task-w` wide: see `taskSizing`).
 */
const COLS =
  'grid grid-cols-[0_var(--task-n)_2rem_2rem_4.25rem_minmax(0,1fr)_2rem] @lg:grid-cols-[2.5rem_var(--task-w)_2.75rem_3.5rem_6rem_minmax(0,1fr)_2.75rem] items-center gap-x-1';

/** Characters of a task label a line of the task column holds at most: narrow, wide. */
const TASK_CHARS = { narrow: 16, wide: 56 } as const;
/** Lines a task label may take; a longer one is abbreviated in the middle (whole on hover and in the copy). */
const TASK_LINES = 3;

/**
 * The task column sized by the run's labels: a column as wide as its longest label (up to `TASK_CHARS`), which wraps
 * between the label's parts; rows tall enough for the lines the longest one takes (τ²'s telecom ids are long; a
 * τ-bench run's numbers keep one line and the narrow column they always had).
 */
function taskSizing(headers: readonly EpisodeHeader[]) {
  let longest = 1;
  for (const h of headers) longest = Math.max(longest, taskLabel(h).length);
  const narrow = Math.min(longest, TASK_CHARS.narrow);
  const wide = Math.min(longest, TASK_CHARS.wide);
  const lines = Math.min(TASK_LINES, Math.max(Math.ceil(longest / narrow), Math.ceil(longest / wide)));
  return {
    style: { '--task-n': `max(2rem, ${narrow + 1}ch)`, '--task-w': `max(3rem, ${wide + 1}ch)` } as CSSProperties,
    rowHeight: lines <= 1 ? 34 : lines === 2 ? 38 : 50,
    // A line holds fewer characters than its width in `ch` (wide letters, breaks only between the id's parts).
    max: { narrow: Math.floor(narrow * TASK_LINES * 0.75), wide: Math.floor(wide * TASK_LINES * 0.8) },
  };
}
type TaskSizing = ReturnType<typeof taskSizing>;

/** `short`: the header in a narrow list. */
const HEAD: readonly { key: SortKey | null; label: string; short: string; title: string; align?: string }[] = [
  { key: 'index', label: '#', short: '#', title: 'position in the file' },
  { key: 'task', label: 'Task', short: 'Task', title: 'task id' },
  { key: 'trial', label: 'Trial', short: 'Tr.', title: 'trial' },
  { key: 'recorded', label: 'Rec.', short: 'Rec', title: 'reward recorded in the file' },
  { key: 'reward', label: 'Recomp.', short: 'Recomp', title: 'reward recomputed by tau-inspect' },
  { key: null, label: 'Reasons', short: 'Why', title: 'why the reward is not 1' },
  { key: 'turns', label: 'Turns', short: 'Msg', title: 'messages other than the system prompt', align: 'text-right' },
];

function HeadLabel({ c }: { c: (typeof HEAD)[number] }) {
  return (
    <>
      <span className="@lg:hidden">{c.short}</span>
      <span className="hidden @lg:inline">{c.label}</span>
    </>
  );
}

/** Why a row has no recomputed reward yet: no data, being evaluated, or the user stopped the evaluation. */
type Pending = 'no-data' | 'evaluating' | 'stopped';

const PENDING_TITLE: Record<Pending, string> = {
  'no-data': 'not evaluated: waiting for the benchmark’s data',
  evaluating: 'not evaluated yet',
  stopped: 'not evaluated: evaluation stopped',
};

function RewardCell({ s, recorded, pending }: { s: EpisodeSummary | undefined; recorded: number | null; pending: Pending }) {
  if (!s)
    return (
      <span className="text-slate-300" title={PENDING_TITLE[pending]} data-pending={pending}>
        {pending === 'evaluating' ? '…' : '—'}
      </span>
    );
  if (s.error !== null || s.reward === null)
    return (
      <span className="rounded bg-amber-100 px-1 text-[11px] font-medium text-amber-900" title={s.error ?? 'not evaluable'}>
        n/a
      </span>
    );
  const ok = isSuccess(s.reward);
  const differs = s.agrees === false || (s.agrees === null && recorded !== null && recorded !== s.reward);
  return (
    <span className="inline-flex items-center gap-1">
      <span className={`inline-block size-2 rounded-full ${ok ? 'bg-emerald-500' : 'bg-rose-500'}`} aria-hidden="true" />
      <span data-testid="row-reward" className={`tabular-nums ${differs ? 'font-bold text-violet-800' : ok ? 'text-emerald-800' : 'text-rose-800'}`}>
        {formatReward(s.reward)}
      </span>
      {differs && (
        <span className="rounded bg-violet-100 px-1 text-[10px] font-semibold text-violet-800" title="differs from the recorded reward">
          ≠ rec
        </span>
      )}
    </span>
  );
}

function reasonCodes(s: EpisodeSummary | undefined): readonly ReasonFilter[] {
  if (!s) return [];
  if (s.error !== null) return ['error' as const];
  return s.reasons;
}

function Row({
  h,
  s,
  selected,
  active,
  pending,
  id,
  label,
  sizing,
  onOpen,
}: {
  h: EpisodeHeader;
  sizing: TaskSizing;
  s: EpisodeSummary | undefined;
  /** The reader's label on this episode, if any. */
  label: NoteLabel | null;
  selected: boolean;
  active: boolean;
  pending: Pending;
  id: string;
  onOpen: (e: MouseEvent<HTMLDivElement>) => void;
}) {
  const differs = s?.agrees === false;
  // The task as its benchmark names it (τ²'s ids are text, telecom's long), and how the row ended where the file says.
  const task = taskLabel(h);
  const termination = rowEnding(h);
  return (
    <div
      id={id}
      role="row"
      aria-rowindex={h.index + 2}
      aria-selected={selected}
      data-testid="episode-row"
      data-index={h.index}
      data-task-id={h.taskId ?? ''}
      data-task-label={task}
      data-termination={termination ?? ''}
      data-trial={h.trial ?? ''}
      data-reward={s?.reward ?? ''}
      data-recorded-reward={h.recordedReward ?? ''}
      onClick={onOpen}
      className={`${COLS} h-full cursor-pointer border-b border-l-2 border-b-slate-100 px-2 text-xs ${
        selected
          ? 'border-l-indigo-600 bg-indigo-50'
          : differs
            ? 'border-l-violet-500 bg-violet-50/40 hover:bg-slate-50'
            : 'border-l-transparent hover:bg-slate-50'
      } ${active ? 'outline-2 -outline-offset-2 outline-indigo-400' : ''}`}
    >
      <span role="gridcell" className="invisible overflow-hidden tabular-nums text-slate-600 @lg:visible">
        {h.index}
      </span>
      <span
        role="gridcell"
        className="relative line-clamp-3 leading-[14px] font-medium [overflow-wrap:anywhere] text-slate-800 tabular-nums"
        title={safeLabel(task, 2000)}
        data-testid="row-task"
      >
        <span className="@lg:hidden">
          <LongId id={task} max={sizing.max.narrow} />
        </span>
        <span className="hidden @lg:inline">
          <LongId id={task} max={sizing.max.wide} />
        </span>
      </span>
      <span role="gridcell" className="tabular-nums text-slate-600">
        {h.trial ?? '—'}
      </span>
      <span role="gridcell" className="tabular-nums text-slate-600">
        {formatRecorded(h)}
      </span>
      <span role="gridcell">
        <RewardCell s={s} recorded={h.recordedReward} pending={pending} />
      </span>
      <span role="gridcell" className="flex min-w-0 items-center gap-1 overflow-hidden" title={h.problem ?? s?.error ?? s?.reasonTexts.join('; ') ?? undefined}>
        {label && <LabelChip label={label} />}
        {termination !== undefined && (
          <span className="hidden shrink-0 font-mono text-[10px] text-slate-600 @lg:inline" title="termination reason">
            {safeLabel(termination, 40)}
          </span>
        )}
        {reasonCodes(s).map((c) => (
          <ReasonChip key={c} code={c} short />
        ))}
      </span>
      <span role="gridcell" className="text-right tabular-nums text-slate-600">
        {h.turns}
      </span>
    </div>
  );
}

/** The run's episodes, one row each, virtualised; arrows move, Enter opens. */
export function EpisodeTable({ rows }: { rows: readonly number[] }) {
  const { store, headers, summaries, selected } = useOpenRun();
  const sort = useApp((s) => s.sort);
  const notes = useApp((s) => s.notes);
  const ready = useApp((s) => runReady(s.runs.a));
  const sizing = useMemo(() => taskSizing(headers), [headers]);
  const stopped = useApp((s) => s.runs.a.stopped);
  const pending: Pending = !ready ? 'no-data' : stopped ? 'stopped' : 'evaluating';
  const evaluated = useApp((s) => s.runs.a.evaluated);
  const threads = useApp((s) => s.runs.a.threads);
  const complete = useApp((s) => runComplete(s.runs.a));
  const reading = useApp((s) => s.runs.a.reading);
  const runId = useApp((s) => s.runs.a.id);
  // Rows whose fingerprint (the key of their notes) has not come yet: the bench times when the last one does.
  const keying = useApp((s) => fingerprintsPending(s.runs.a.headers));
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<number | null>(null);
  const base = useId();
  // react-hooks reports TanStack Virtual as incompatible with the React Compiler (its object is
  // mutable, so the compiler would not memoise this component). The app does not run the
  // compiler, and nothing here memoises values derived from the virtualizer by hand.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => sizing.rowHeight, overscan: 8 });
  // Rows grow when a longer task label arrives (a file read as it streams in): their places are measured again.
  useEffect(() => virtualizer.measure(), [sizing.rowHeight, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    if (!ready) return;
    store.getState().prioritize(rows.slice(first, last + 1));
  }, [first, last, rows, ready, store]);

  // Scroll a newly selected episode into view, once per selection: scrolling away from it later
  // must not pull the list back, so the rows and the visible range are read, not depended on.
  const reveal = useEffectEvent((index: number) => {
    const at = rows.indexOf(index);
    if (at >= 0 && (at < first || at > last)) virtualizer.scrollToIndex(at, { align: 'center' });
  });
  useEffect(() => {
    if (selected !== null) reveal(selected);
  }, [selected]);

  const activeAt = active === null ? -1 : rows.indexOf(active);
  const move = (to: number): void => {
    const i = Math.max(0, Math.min(rows.length - 1, to));
    const index = rows[i];
    if (index === undefined) return;
    setActive(index);
    virtualizer.scrollToIndex(i);
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const at = activeAt >= 0 ? activeAt : Math.max(0, selected === null ? 0 : rows.indexOf(selected));
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 300) / sizing.rowHeight) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(activeAt < 0 ? at : at + 1),
      ArrowUp: () => move(at - 1),
      PageDown: () => move(at + page),
      PageUp: () => move(at - page),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      Enter: () => active !== null && store.getState().select(active),
      ' ': () => active !== null && store.getState().select(active),
      // Leave the list: the arrow keys go back to the step cursor.
      Escape: () => (e.currentTarget as HTMLElement).blur(),
    };
    const f = keys[e.key];
    if (!f) return;
    e.preventDefault();
    e.stopPropagation();
    f();
  };

  return (
    <div
      role="grid"
      aria-label="Episodes"
      aria-rowcount={rows.length + 1}
      aria-activedescendant={active !== null && activeAt >= first && activeAt <= last ? `${base}-${active}` : undefined}
      tabIndex={0}
      onKeyDown={onKey}
      onFocus={() => active === null && rows[0] !== undefined && setActive(selected ?? rows[0])}
      className="group/list relative flex min-h-0 flex-1 flex-col bg-white outline-none focus:ring-2 focus:ring-indigo-500 focus:ring-inset"
      data-testid="episode-table"
      data-evaluated={evaluated}
      data-threads={threads}
      data-total={headers.length}
      data-complete={complete}
      data-stopped={stopped}
      data-reading={reading}
      data-keying={keying}
      data-run={runId ?? ''}
      style={sizing.style}
    >
      <div
        role="row"
        aria-rowindex={1}
        className={`${COLS} border-b border-slate-200 bg-slate-50 px-2 py-1.5 text-[11px] font-semibold tracking-wide text-slate-600 uppercase`}
      >
        {HEAD.map((c) =>
          c.key === null ? (
            <span key={c.label} role="columnheader" title={c.title} className="truncate">
              <HeadLabel c={c} />
            </span>
          ) : (
            <span
              key={c.label}
              role="columnheader"
              aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
              className={`truncate ${c.align ?? ''} ${c.key === 'index' ? 'invisible @lg:visible' : ''}`}
            >
              <button type="button" title={`Sort by ${c.title}`} onClick={() => store.getState().sortBy(c.key!)} className="uppercase hover:text-slate-900">
                <HeadLabel c={c} />
                {sort.key === c.key && <span aria-hidden="true">{sort.desc ? ' ↓' : ' ↑'}</span>}
              </button>
            </span>
          ),
        )}
      </div>
      {/* An overlay, so showing it on focus never moves the rows under the pointer. */}
      <p
        className="pointer-events-none absolute right-2 bottom-2 z-10 hidden rounded border border-indigo-200 bg-indigo-50 px-2 py-0.5 text-[11px] text-indigo-900 shadow-sm group-focus/list:block"
        aria-hidden="true"
      >
        The list has the keys: ↑/↓ move, Enter opens, Esc gives the arrows back to the steps.
      </p>
      <div ref={scroller} className="min-h-0 flex-1 overflow-auto" data-testid="episode-scroller" role="rowgroup" aria-label="Episode rows" tabIndex={0}>
        {rows.length === 0 ? (
          headers.length === 0 ? (
            <p className="p-6 text-center text-sm text-slate-600">No episodes.</p>
          ) : (
            <NoMatch />
          )
        ) : (
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((v) => {
              const index = rows[v.index]!;
              const h = headers[index]!;
              return (
                <div key={index} className="absolute top-0 left-0 w-full" style={{ height: v.size, transform: `translateY(${v.start}px)` }}>
                  <Row
                    h={h}
                    s={summaries[index]}
                    selected={selected === index}
                    active={active === index}
                    pending={pending}
                    id={`${base}-${index}`}
                    label={notesFor(notes, h)?.label ?? null}
                    sizing={sizing}
                    onOpen={(e) => {
                      setActive(index);
                      store.getState().select(index);
                      // A click opens the episode and leaves the list, so arrow keys move the step cursor;
                      // the list takes its arrow keys back when it is focused again (Tab or a click on its header).
                      if (e.detail > 0) {
                        // The click may have focused the list or its scrolled rows: either gives the arrows back.
                        const grid = e.currentTarget.closest('[role="grid"]');
                        const focused = document.activeElement;
                        if (grid && focused instanceof HTMLElement && grid.contains(focused)) focused.blur();
                      }
                    }}
                  />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
