import { tauBenchView } from '../../core/contract';
import { useMemo } from 'react';
import { compareTrials, type EpisodeView, type MessageView, type TrialCell, type TrialComparison } from '../../core/contract';
import { FoldedText } from '../../ui/folded-text';
import { otherTrials } from '../../store/trials-slice';
import { Button } from '../../ui/button';
import { formatReward } from '../../core/contract';
import { useApp, useAppStore } from '../../ui/store-context';

/** "Compare with trial…": the other trials of the open episode's task. */
export function CompareTrialPicker() {
  const store = useAppStore();
  const selected = useApp((s) => s.selected);
  const headers = useApp((s) => s.runs.a.headers);
  const current = useApp((s) => (s.trialCompare?.index === s.selected && s.trialCompare.run === s.runs.a.id ? s.trialCompare.other : null));
  const others = useMemo(() => (selected === null ? [] : otherTrials(headers, selected)), [headers, selected]);
  if (selected === null || others.length === 0) return null;
  return (
    <label className="flex items-center">
      <span className="sr-only">Compare with another trial of this task</span>
      <select
        className="max-w-[6.5rem] rounded sm:max-w-[10rem] border border-slate-300 bg-white px-1 py-0.5 text-xs text-slate-800"
        value={current ?? ''}
        data-testid="compare-trial"
        title="Compare this episode with another trial of the same task, side by side"
        onChange={(e) => store.getState().compareWithTrial(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
      >
        <option value="">{current === null ? 'Compare with trial…' : 'Stop comparing'}</option>
        {others.map((i) => (
          <option key={i} value={i}>
            vs trial {headers[i]?.trial ?? '—'} (ep. {i})
          </option>
        ))}
      </select>
    </label>
  );
}

const MATCH_TEXT: Readonly<Record<TrialCell['match'], string>> = {
  same: 'as the reference',
  'other-args': 'other arguments',
  missing: 'never called',
  extra: 'extra call',
};
const MATCH_TONE: Readonly<Record<TrialCell['match'], string>> = {
  same: 'text-emerald-800',
  'other-args': 'text-amber-800',
  missing: 'text-rose-800',
  extra: 'text-slate-600',
};

const ROLE_TONE: Readonly<Record<string, string>> = { user: 'text-emerald-800', assistant: 'text-indigo-800', tool: 'text-amber-800' };

/** A tool name that wraps only after its underscores, never inside a word. */
function ToolName({ name }: { name: string }) {
  const parts = name.split(/(?<=_)/);
  return (
    <code className="font-mono break-normal text-slate-900" data-testid="trial-tool-name">
      {parts.map((p, i) => (
        <span key={i}>
          {p}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </code>
  );
}

/** A stretch of one trial's dialogue (what was said between two calls), folded until asked for. */
function Said({ messages, from, to, label }: { messages: readonly MessageView[]; from: number; to: number; label: string }) {
  const shown = messages.slice(from, to).filter((m) => m.role !== 'system');
  if (shown.length === 0) return null;
  return (
    <details className="mb-0.5" data-testid="trial-said">
      <summary className="cursor-pointer text-[11px] text-slate-600 select-none">
        {label} ({shown.length} message{shown.length === 1 ? '' : 's'})
      </summary>
      <ol className="mt-0.5 space-y-0.5 border-l-2 border-slate-200 pl-1.5">
        {shown.map((m) => (
          <li key={m.index} className="min-w-0 break-words">
            <span className={`font-semibold ${ROLE_TONE[m.role] ?? 'text-slate-700'}`}>{m.role === 'assistant' ? 'agent' : m.role}</span>{' '}
            {m.content !== null && m.content !== '' && (
              <span className="whitespace-pre-wrap text-slate-800">
                <FoldedText text={m.content} limit={300} />
              </span>
            )}
            {m.toolCalls.map((t, k) => (
              <code key={k} className="ml-1 font-mono text-[11px] text-slate-600">
                {t.name}(…)
              </code>
            ))}
          </li>
        ))}
      </ol>
    </details>
  );
}

function Cell({ cell, onOpen, full, messages }: { cell: TrialCell | null; onOpen: (step: number) => void; full: boolean; messages: readonly MessageView[] }) {
  if (!cell) return <div className="text-slate-600">—</div>;
  return (
    <div className="min-w-0">
      {cell.step !== null && <Said messages={messages} from={cell.before.from} to={cell.before.to} label="said before" />}
      <div className="flex flex-wrap items-baseline gap-x-1">
        {cell.step !== null ? (
          <Button variant="link" onClick={() => onOpen(cell.step!)} title="Open this step">
            step {cell.step + 1}
          </Button>
        ) : null}
        <span className={MATCH_TONE[cell.match]}>{MATCH_TEXT[cell.match]}</span>
        {cell.failed && <span className="text-rose-700">(failed)</span>}
      </div>
      {cell.kwargs !== null && (
        <pre
          className={`mt-0.5 overflow-auto rounded bg-slate-50 px-1 py-0.5 font-mono text-[11px] break-words whitespace-pre-wrap text-slate-800 ${full ? '' : 'max-h-24'}`}
        >
          {cell.kwargs}
        </pre>
      )}
    </div>
  );
}

function Verdict({ side, label, trial }: { side: TrialComparison['a']; label: string; trial: number | null }) {
  const pass = side.reward >= 1 - 1e-6;
  return (
    <div
      className={`min-w-0 rounded-md border px-2 py-1.5 ${pass ? 'border-emerald-300 bg-emerald-50' : 'border-rose-300 bg-rose-50'}`}
      data-testid={`trial-verdict-${label}`}
    >
      <p className="text-xs font-semibold text-slate-900">
        {label.toUpperCase()} · episode {side.index} · trial {trial ?? '—'} · reward{' '}
        <span data-testid={`trial-reward-${label}`}>{formatReward(side.reward)}</span>
        {side.recordedReward !== null && side.recordedReward !== side.reward && (
          <span className="font-normal text-slate-600"> (recorded {formatReward(side.recordedReward)})</span>
        )}
      </p>
      <p className="mt-0.5 text-xs break-words text-slate-700">{side.sentence}</p>
    </div>
  );
}

/** Two trials of one task side by side, aligned on the reference actions, with the first point where they part. */
export function TrialComparePanel({ view }: { view: EpisodeView }) {
  const store = useAppStore();
  const c = useApp((s) => s.trialCompare);
  const other = tauBenchView(c?.view);
  const headers = useApp((s) => s.runs.a.headers);
  const cmp = useMemo(() => (other ? compareTrials(view, other) : null), [view, other]);
  if (!c) return null;
  const task = headers[c.index]?.taskId;
  const close = (): void => store.getState().compareWithTrial(null);
  return (
    <section className="flex min-h-0 flex-1 flex-col gap-2 p-2 text-xs" data-testid="trial-compare" aria-label="Two trials compared">
      <div className="flex items-center gap-2">
        <h3 className="min-w-0 flex-1 text-sm font-semibold text-slate-900">
          Task {task ?? '—'}: episode {c.index} against episode {c.other}
        </h3>
        <Button onClick={close}>Close comparison</Button>
      </div>
      {c.error && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-amber-950">
          Cannot compare: {c.error}
        </p>
      )}
      {!c.error && !cmp && <p role="status">Evaluating episode {c.other}…</p>}
      {cmp && (
        <>
          <div className="grid grid-cols-2 gap-2">
            <Verdict side={cmp.a} label="a" trial={headers[cmp.a.index]?.trial ?? null} />
            <Verdict side={cmp.b} label="b" trial={headers[cmp.b.index]?.trial ?? null} />
          </div>
          <p
            className={`rounded border px-2 py-1 ${cmp.parts ? 'border-rose-300 bg-white text-rose-950' : 'border-emerald-300 bg-white text-emerald-950'}`}
            data-testid="trial-parts"
          >
            {cmp.parts ? (
              <>
                <strong>They part at row {cmp.parts.row + 1}, the first write where they differ:</strong> {cmp.parts.why}.{' '}
                <Button
                  variant="link"
                  onClick={() => document.querySelector('[data-testid="trial-row"][data-parts="true"]')?.scrollIntoView({ block: 'center' })}
                >
                  Show it
                </Button>
              </>
            ) : cmp.readsApart ? (
              <>
                <strong>They do not part on writes:</strong> both trials make the same calls that change the DB.
              </>
            ) : (
              'The two trials make the same tool calls for every reference action.'
            )}
            {cmp.readsApart && (
              <span className="mt-0.5 block text-slate-700" data-testid="trial-reads-apart">
                Reads differ in {cmp.readsApart.count} row{cmp.readsApart.count === 1 ? '' : 's'} (shown, not counted: τ-bench judges only the DB and the
                outputs), first at row {cmp.readsApart.row + 1}: {cmp.readsApart.why}.
              </span>
            )}
          </p>
          <div className="grid grid-cols-2 gap-x-2 border-b border-slate-200 pb-0.5 text-[11px] font-medium text-slate-600 sm:grid-cols-[9rem_1fr_1fr]">
            <span className="hidden sm:block">reference action</span>
            <span>A · episode {cmp.a.index}</span>
            <span>B · episode {cmp.b.index}</span>
          </div>
          <ol className="space-y-0.5" data-testid="trial-rows">
            {cmp.rows.map((r, i) => {
              const parts = cmp.parts?.row === i;
              return (
                <li
                  key={i}
                  data-testid="trial-row"
                  data-agree={r.agree}
                  data-parts={parts || undefined}
                  className={`grid grid-cols-2 gap-x-2 rounded px-1 py-1 sm:grid-cols-[9rem_1fr_1fr] ${parts ? 'bg-rose-50 ring-1 ring-rose-300' : r.agree ? '' : r.apartOnWrite ? 'bg-amber-50/60' : 'bg-slate-50'}`}
                >
                  <div className="col-span-2 min-w-0 sm:col-span-1">
                    <span className="font-medium text-slate-700">{r.gold === null ? 'not in the reference' : `ref ${r.gold + 1}`}</span>{' '}
                    <ToolName name={r.name} />
                    {parts && <span className="ml-1 font-semibold text-rose-800">← they part here</span>}
                    {!r.agree && !r.apartOnWrite && <span className="ml-1 text-slate-600">(read: not counted)</span>}
                    {r.argsApart.length > 0 && (
                      <span className="block text-amber-900" data-testid="trial-args-apart">
                        differs in {r.argsApart.join(', ')}
                      </span>
                    )}
                  </div>
                  <Cell
                    messages={view.messages}
                    full={parts || !r.agree}
                    cell={r.a}
                    onOpen={(step) => {
                      close();
                      store.getState().setStep(step);
                    }}
                  />
                  <Cell messages={other!.messages} full={parts || !r.agree} cell={r.b} onOpen={(step) => store.getState().select(c.other, step)} />
                </li>
              );
            })}
          </ol>
          <div className="grid grid-cols-2 gap-x-2 px-1 sm:grid-cols-[9rem_1fr_1fr]">
            <span className="col-span-2 font-medium text-slate-700 sm:col-span-1">after the last call</span>
            <div className="min-w-0">
              <Said messages={view.messages} from={cmp.tail.a} to={view.messages.length} label="said after" />
            </div>
            <div className="min-w-0">
              <Said messages={other!.messages} from={cmp.tail.b} to={other!.messages.length} label="said after" />
            </div>
          </div>
          {cmp.rows.length === 0 && <p className="text-slate-600">Neither trial calls a tool, and the task has no reference actions.</p>}
        </>
      )}
    </section>
  );
}
