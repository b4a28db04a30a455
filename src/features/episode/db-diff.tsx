import { memo, useState } from 'react';
import type { EpisodeView, RecordDiffView } from '../../core/contract';
import { FieldDiffList } from '../../ui/field-diff-list';
import { RecordLines } from './record-lines';
import { plural } from '../../ui/text';
import { Button } from '../../ui/button';
import { PRE, stepLabel } from './ui';
import { ScrollBox } from '../../ui/scroll-box';

const INT_FLOAT_NOTE =
  'τ-bench compares sha256(str(to_hashable(db))), and Python prints 250 and 250.0 differently, so an int where the reference has a float (or the reverse) makes the hashes differ even though the numbers are equal.';

export function DbDiff(props: { view: EpisodeView; onStep: (n: number) => void; onReference: (n: number) => void }) {
  const { view, onStep, onReference } = props;
  const v = view.verdict;
  if (v.agentHash === v.gtHash)
    return (
      <p className="rounded border border-emerald-200 bg-emerald-50 px-2 py-1.5 text-xs text-emerald-900" data-testid="db-diff">
        The agent's DB hashes exactly like the reference DB: nothing to diff.
      </p>
    );
  const intFloat = view.diff.some((d) => d.fields.some((f) => f.intVsFloat));
  return (
    <div className="space-y-2" data-testid="db-diff">
      <p className="text-xs text-slate-700">
        {plural(view.diff.length, 'record')} {view.diff.length === 1 ? 'differs' : 'differ'} between the agent's final DB and the reference DB (τ-bench's
        actions replayed on a fresh DB).
        {!v.dbChecked && ' Under this rule the DB does not count for this task.'}
      </p>
      {intFloat && (
        <p role="note" className="rounded border border-fuchsia-300 bg-fuchsia-50 px-2 py-1.5 text-xs text-fuchsia-950" data-testid="int-float-note">
          <strong>int vs float:</strong> {INT_FLOAT_NOTE}
        </p>
      )}
      {view.diff.length === 0 && <p className="text-xs text-slate-600">The hashes differ but no single record does (a table-level difference).</p>}
      {view.diff.map((d) => (
        <RecordDiff key={`${d.table}/${d.key}`} diff={d} onStep={onStep} onReference={onReference} />
      ))}
    </div>
  );
}

const RecordDiff = memo(function RecordDiff(props: { diff: RecordDiffView; onStep: (n: number) => void; onReference: (n: number) => void }) {
  const { diff: d, onStep, onReference } = props;
  const [full, setFull] = useState(false);
  const status =
    d.agentLines === null
      ? 'only in the reference DB'
      : d.referenceLines === null
        ? 'only in the agent DB'
        : `${plural(d.fields.length, 'field')} ${d.fields.length === 1 ? 'differs' : 'differ'}`;
  return (
    <section className="rounded-md border border-rose-200 bg-white" aria-label={`${d.table}/${d.key}`} data-testid="diff-record">
      <header className="flex flex-wrap items-center gap-2 border-b border-rose-100 bg-rose-50/60 px-2 py-1 text-xs">
        <code className="font-mono font-semibold text-slate-900">
          {d.table}/{d.key}
        </code>
        <span className="text-slate-600">{status}</span>
        {d.intVsFloatOnly && (
          <span className="rounded bg-fuchsia-200 px-1.5 py-px text-[11px] font-semibold text-fuchsia-950" title={INT_FLOAT_NOTE}>
            int vs float only
          </span>
        )}
        <Button className="ml-auto" aria-expanded={full} onClick={() => setFull(!full)}>
          {full ? 'Hide records' : 'Show both records'}
        </Button>
      </header>
      <FieldDiffList
        left={{ name: 'agent', db: 'agent DB' }}
        right={{ name: 'reference', db: 'reference DB' }}
        intFloatNote={INT_FLOAT_NOTE}
        rows={d.fields.map((f) => ({
          path: f.path,
          kind: f.kind,
          left: f.agent,
          right: f.reference,
          intVsFloat: f.intVsFloat,
          leftWrite:
            f.agentStep !== null ? (
              <Button variant="link" onClick={() => onStep(f.agentStep!)} aria-label={`last written by ${stepLabel(f.agentStep)}: go to that step (${f.path})`}>
                last written by {stepLabel(f.agentStep)}
              </Button>
            ) : (
              <span className="text-slate-600">initial value: no agent call touched it</span>
            ),
          rightWrite:
            f.referenceStep !== null ? (
              <Button
                variant="link"
                onClick={() => onReference(f.referenceStep!)}
                aria-label={`last written by reference action ${f.referenceStep + 1}: show it (${f.path})`}
              >
                last written by reference action {f.referenceStep + 1}
              </Button>
            ) : (
              <span className="text-slate-600">initial value: no reference action touched it</span>
            ),
        }))}
      />
      {full && (
        <div className="grid gap-2 border-t border-slate-100 p-2 @2xl:grid-cols-2">
          <div className="min-w-0">
            <div className="text-[11px] font-semibold text-rose-800">agent record</div>
            <ScrollBox as="pre" label={`Agent record ${d.table}/${d.key}`} className={`${PRE} max-h-80 overflow-auto rounded bg-slate-50 px-2 py-1.5`}>
              {d.agentLines ? <RecordLines lines={d.agentLines} mark markClass="bg-rose-100" /> : '(absent)'}
            </ScrollBox>
          </div>
          <div className="min-w-0">
            <div className="text-[11px] font-semibold text-emerald-800">reference record</div>
            <ScrollBox as="pre" label={`Reference record ${d.table}/${d.key}`} className={`${PRE} max-h-80 overflow-auto rounded bg-slate-50 px-2 py-1.5`}>
              {d.referenceLines ? <RecordLines lines={d.referenceLines} mark markClass="bg-emerald-100" /> : '(absent)'}
            </ScrollBox>
          </div>
        </div>
      )}
    </section>
  );
});
