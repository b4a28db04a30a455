import { memo, useEffect, useMemo, useRef } from 'react';
import type { FieldChangeView, RecordChangeView, RecordLine, StepView } from '../../core/contract';
import { touchedRecords } from './db-state';
import { clip } from '../../ui/fold';
import { FoldedText } from '../../ui/folded-text';
import { RecordLines } from './record-lines';
import { scrollIntoBox } from './scroll';
import { plural } from '../../ui/text';
import { PRE, stepLabel } from './ui';
import { ScrollBox } from '../../ui/scroll-box';

/** The records touched in steps up to the selected one, latest version of each; this step's changes marked. */
export function DbAtStep(props: { steps: readonly StepView[]; step: number; onSelect: (n: number) => void }) {
  const { steps, step, onSelect } = props;
  const records = useMemo(() => touchedRecords(steps, step), [steps, step]);
  const current = steps[step];
  const rootRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    scrollIntoBox(rootRef.current?.querySelector('[data-current="true"]'));
  }, [step]);
  const total = useMemo(() => steps.reduce((n, s) => n + s.changes.length, 0), [steps]);
  return (
    <div ref={rootRef} className="space-y-2" data-testid="db-at-step">
      <p className="text-xs text-slate-600">
        {current ? (
          <>
            DB after <strong>{stepLabel(step)}</strong> (<code className="font-mono">{current.action}</code>):{' '}
            {current.changes.length > 0 ? (
              <span className="font-medium text-amber-800">this step changed {plural(current.changes.length, 'record')}</span>
            ) : (
              'this step changed nothing'
            )}
            . {plural(records.length, 'record')} touched so far{total === 0 ? '; the agent never changed the DB' : ''}.
          </>
        ) : (
          'No executed steps.'
        )}
      </p>
      {records.map((r) => (
        <RecordCard
          key={r.id}
          table={r.table}
          recordKey={r.key}
          lines={r.lines}
          firstStep={r.firstStep}
          lastStep={r.lastStep}
          change={r.current}
          onSelect={onSelect}
        />
      ))}
    </div>
  );
}

const KIND_TEXT: Readonly<Record<FieldChangeView['kind'], string>> = { added: 'added', removed: 'removed', changed: 'changed', moved: 'moved' };

const RecordCard = memo(function RecordCard(props: {
  table: string;
  recordKey: string;
  lines: readonly RecordLine[] | null;
  firstStep: number;
  lastStep: number;
  change: RecordChangeView | null;
  onSelect: (n: number) => void;
}) {
  const { table, recordKey, lines, firstStep, lastStep, change, onSelect } = props;
  const created = change !== null && !change.existedBefore;
  const sectionRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const pre = sectionRef.current?.querySelector<HTMLElement>('[data-testid="record-lines"]');
    const first = pre?.querySelector<HTMLElement>('[data-marked]');
    if (pre && first) pre.scrollTop = Math.max(0, first.offsetTop - 24);
  }, [lines, change]);
  return (
    <section
      ref={sectionRef}
      data-current={change !== null}
      aria-label={`${table}/${recordKey}`}
      className={`rounded-md border ${change ? 'border-amber-400 bg-amber-50/40 shadow-sm' : 'border-slate-200 bg-white'}`}
    >
      <header className="flex flex-wrap items-center gap-2 border-b border-inherit px-2 py-1 text-xs">
        <code className="font-mono font-semibold text-slate-900">{clip(`${table}/${recordKey}`)}</code>
        {change && (
          <span className="rounded bg-amber-200 px-1.5 py-px text-[11px] font-semibold text-amber-950">
            {created ? 'created in this step' : lines === null ? 'deleted in this step' : 'changed in this step'}
          </span>
        )}
        <span className="ml-auto text-[11px] text-slate-600">
          {firstStep === lastStep ? 'changed in ' : `changed in ${stepLabel(firstStep)} … `}
          <button type="button" className="rounded px-0.5 text-sky-700 underline underline-offset-2 hover:bg-sky-50" onClick={() => onSelect(lastStep)}>
            {stepLabel(lastStep)}
          </button>
        </span>
      </header>
      {change && change.existedBefore && change.afterLines !== null && change.fields.length > 0 && (
        <ul className="space-y-0.5 border-b border-amber-200 px-2 py-1" aria-label="Fields changed in this step">
          {change.fields.map((f, i) => (
            <li key={i} className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
              <span className="text-[11px] font-medium uppercase text-amber-800">{KIND_TEXT[f.kind]}</span>
              <ScrollBox
                as="span"
                label={`${KIND_TEXT[f.kind]} field ${i + 1} of ${table}/${recordKey}`}
                className="max-h-24 min-w-0 overflow-auto font-mono break-words"
              >
                <span className="font-semibold">
                  <FoldedText text={f.path} />
                </span>
                :{' '}
                {f.reference !== null && (
                  <del className="bg-rose-100 text-rose-900 decoration-rose-400">
                    <FoldedText text={f.reference} />
                  </del>
                )}
                {f.reference !== null && f.agent !== null && ' → '}
                {f.agent !== null && (
                  <ins className="bg-emerald-100 text-emerald-900 no-underline">
                    <FoldedText text={f.agent} />
                  </ins>
                )}
              </ScrollBox>
            </li>
          ))}
        </ul>
      )}
      {lines === null ? (
        <p className="px-2 py-1 text-xs italic text-slate-600">deleted</p>
      ) : (
        <ScrollBox
          as="pre"
          data-testid="record-lines"
          label={`Record ${table}/${recordKey}`}
          className={`${PRE} relative max-h-80 overflow-auto px-2 py-1 text-slate-800`}
        >
          <RecordLines lines={lines} mark={change !== null} markClass="bg-amber-200/70" />
        </ScrollBox>
      )}
    </section>
  );
});
