import { useState } from 'react';
import { AUDIT_KINDS, AUDIT_TEXT, type AuditFinding, type AuditKind } from '../../core/contract';
import { Button } from '../../ui/button';
import { safeLabel } from '../../ui/fold';
import { useApp, useAppStore } from '../../ui/store-context';
import { benchDomain, runName } from './run-label';

const SHOWN = 10;

const TITLE: Readonly<Record<AuditKind, string>> = {
  'gold-action-raises': 'Reference actions that raise on replay',
  'gold-no-op': 'References that leave the DB as it started',
  'gold-info-unseen': 'Required information no reference output holds',
  'gold-assertion-fails': 'Env assertions the reference itself fails',
  'no-run-passes': 'Tasks no run passes',
  'every-run-passes': 'Tasks every run passes',
  'verdicts-disagree': 'Recorded and recomputed verdicts disagree in two runs or more',
  'evaluate-trajs-differs': 'tau2 evaluate-trajs would judge otherwise than the run was judged (#502)',
};

function Finding({ f }: { f: AuditFinding }) {
  const store = useAppStore();
  const runs = useApp((s) => s.library.table?.runs ?? []);
  const run = runs[f.example.run];
  return (
    <li className="border-b border-slate-100 px-2 py-1 text-sm" data-testid="audit-finding" data-kind={f.kind} data-task={f.task} data-domain={f.domain}>
      <span className="text-slate-600">{benchDomain(f.benchmark, f.domain)} · task </span>
      <span className="font-mono font-semibold text-slate-900">{safeLabel(f.task, 80)}</span>
      <span className="text-slate-600">
        {' '}
        · {f.showing} of {f.runs} run{f.runs === 1 ? '' : 's'} ·{' '}
      </span>
      {run && (
        <Button
          variant="link"
          className="text-left"
          title={`Open ${safeLabel(run.file, 400)} at task ${safeLabel(f.task, 80)} (simulation #${f.example.index} shows it)`}
          data-testid="audit-open"
          onClick={() => store.getState().openLibraryRun(f.example.run, f.task)}
        >
          {runName(run)} #{f.example.index}
        </Button>
      )}
    </li>
  );
}

/**
 * The task audit (core's `auditTasks`, computed in the worker: the same as `tau-inspect audit`): per benchmark, domain and task across all
 * runs of the library, each kind with a simulation that shows it. The benchmark and domain filters narrow it.
 */
export function TaskAuditView({ audit: all }: { audit: readonly AuditFinding[] }) {
  const filters = useApp((s) => s.libraryFilters);
  const [open, setOpen] = useState<ReadonlySet<AuditKind>>(new Set());
  const findings = all.filter(
    (f) => (filters.benchmark === null || f.benchmark === filters.benchmark) && (filters.domain === null || f.domain === filters.domain),
  );
  return (
    <section className="mb-3 rounded-md border border-slate-200 bg-white" data-testid="task-audit" aria-label="Task audit">
      <h3 className="border-b border-slate-200 px-2 py-1 text-sm font-semibold text-slate-900">
        Task audit <span className="font-normal text-slate-600">· {findings.length} findings, deterministic (tau-inspect audit lists the same)</span>
      </h3>
      {AUDIT_KINDS.map((kind) => {
        const list = findings.filter((f) => f.kind === kind);
        const shown = open.has(kind) ? list : list.slice(0, SHOWN);
        return (
          <div key={kind} data-testid={`audit-${kind}`}>
            <h4 className="bg-slate-50 px-2 py-0.5 text-xs font-semibold text-slate-800" title={AUDIT_TEXT[kind]}>
              {TITLE[kind]} <span className="font-normal text-slate-600">· {list.length}</span>
            </h4>
            {list.length > 0 && (
              <ul>
                {shown.map((f) => (
                  <Finding key={`${f.benchmark}\u0000${f.domain}\u0000${f.task}`} f={f} />
                ))}
              </ul>
            )}
            {shown.length < list.length && (
              <Button variant="quiet" className="m-1 text-xs" onClick={() => setOpen(new Set([...open, kind]))}>
                Show all {list.length}
              </Button>
            )}
          </div>
        );
      })}
    </section>
  );
}
