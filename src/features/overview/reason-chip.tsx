import type { BenchmarkKind } from '../../core/contract';
import type { ReasonFilter } from '../../store/rows';
import { Chip } from '../../ui/chip';

interface ReasonEntry {
  readonly code: ReasonFilter;
  readonly label: string;
  readonly short: string;
  readonly className: string;
  readonly help: string;
}

/** τ² simulations' reasons: a failed component of the task's reward basis, or a premature end. */
export const TAU2_REASONS: readonly ReasonEntry[] = [
  {
    code: 'tau2:premature',
    short: 'ended',
    label: 'ended early',
    className: 'bg-slate-100 text-slate-700 ring-slate-300',
    help: 'the simulation ended prematurely (max steps, too many errors, …): τ² gives 0 and runs no check',
  },
  {
    code: 'tau2:DB',
    short: 'DB ≠',
    label: 'DB',
    className: 'bg-rose-50 text-rose-800 ring-rose-200',
    help: 'the DB check failed: the DB after the agent’s calls differs from the DB after the reference actions',
  },
  {
    code: 'tau2:ENV_ASSERTION',
    short: 'env',
    label: 'env assertion',
    className: 'bg-fuchsia-50 text-fuchsia-800 ring-fuchsia-200',
    help: 'an env assertion does not hold on the final environment',
  },
  {
    code: 'tau2:ACTION',
    short: 'action',
    label: 'action',
    className: 'bg-sky-50 text-sky-800 ring-sky-200',
    help: 'a reference action was not called with matching arguments',
  },
  {
    code: 'tau2:COMMUNICATE',
    short: 'comm.',
    label: 'communicate',
    className: 'bg-orange-50 text-orange-800 ring-orange-200',
    help: 'an info the agent had to communicate is in no assistant message',
  },
  {
    code: 'tau2:NL_ASSERTION',
    short: 'NL',
    label: 'NL assertion',
    className: 'bg-teal-50 text-teal-800 ring-teal-200',
    help: 'an NL assertion was judged not met by an LLM when the run was made (recorded, not recomputed)',
  },
];

/** `short`: the label in a narrow list (beside an episode, on a phone), where the full one would be cut. */
export const REASONS: readonly ReasonEntry[] = [
  {
    code: 'db-mismatch',
    short: 'DB ≠',
    label: 'DB mismatch',
    className: 'bg-rose-50 text-rose-800 ring-rose-200',
    help: 'the final DB differs from the reference DB',
  },
  {
    code: 'missing-output',
    short: 'output',
    label: 'missing output',
    className: 'bg-orange-50 text-orange-800 ring-orange-200',
    help: 'a required output is in no respond message',
  },
  {
    code: 'never-finished',
    short: 'no end',
    label: 'never finished',
    className: 'bg-slate-100 text-slate-700 ring-slate-300',
    help: 'the episode never ended (step limit or cut off)',
  },
  {
    code: 'crash',
    short: 'crash',
    label: 'τ-bench crash',
    className: 'bg-amber-50 text-amber-900 ring-amber-300',
    help: 'τ-bench would raise while running or judging this episode',
  },
  {
    code: 'db-not-judged',
    short: 'DB n/j',
    label: 'DB not judged',
    className: 'bg-sky-50 text-sky-800 ring-sky-200',
    help: 'the DB differs, but the rule does not compare it for this task',
  },
  { code: 'error', short: 'n/a', label: 'not evaluable', className: 'bg-amber-100 text-amber-950 ring-amber-400', help: 'the episode could not be evaluated' },
  {
    code: 'disagree',
    short: '≠ rec',
    label: '≠ recorded',
    className: 'bg-violet-50 text-violet-800 ring-violet-300',
    help: 'the recomputed reward differs from the recorded one',
  },
];

const BY_CODE = new Map([...REASONS, ...TAU2_REASONS].map((r) => [r.code, r]));

/** A reason filter's label, as its chip says it. */
export const reasonLabel = (code: ReasonFilter): string => BY_CODE.get(code)?.label ?? code;

/** The reasons a run's rows can have, by its benchmark: τ²'s (with the two that every run has), τ-bench's. */
const EVERY_RUN = REASONS.filter((r) => r.code === 'error' || r.code === 'disagree');
export const REASONS_OF: Readonly<Record<BenchmarkKind, readonly ReasonEntry[]>> = {
  'tau-bench': REASONS,
  tau2: [...TAU2_REASONS, ...EVERY_RUN],
};

/** A failure reason; `short`: the short label in a narrow list (below 32rem of list width), the full one in the title. */
export function ReasonChip({ code, short = false }: { code: ReasonFilter; short?: boolean }) {
  const r = BY_CODE.get(code);
  if (!r) return null;
  return (
    <Chip shape="inset" tone={r.className} title={`${r.label}: ${r.help}`}>
      {short ? (
        <>
          <span className="@lg:hidden">{r.short}</span>
          <span className="hidden @lg:inline">{r.label}</span>
        </>
      ) : (
        r.label
      )}
    </Chip>
  );
}
