import type { ReasonFilter } from '../../store/rows';
import { Chip } from '../../ui/chip';

export const REASONS: readonly { code: ReasonFilter; label: string; className: string; help: string }[] = [
  { code: 'db-mismatch', label: 'DB mismatch', className: 'bg-rose-50 text-rose-800 ring-rose-200', help: 'the final DB differs from the reference DB' },
  { code: 'missing-output', label: 'missing output', className: 'bg-orange-50 text-orange-800 ring-orange-200', help: 'a required output is in no respond message' },
  { code: 'never-finished', label: 'never finished', className: 'bg-slate-100 text-slate-700 ring-slate-300', help: 'the episode never ended (step limit or cut off)' },
  { code: 'crash', label: 'τ-bench crash', className: 'bg-amber-50 text-amber-900 ring-amber-300', help: 'τ-bench would raise while running or judging this episode' },
  { code: 'db-not-judged', label: 'DB not judged', className: 'bg-sky-50 text-sky-800 ring-sky-200', help: 'the DB differs, but the rule does not compare it for this task' },
  { code: 'error', label: 'not evaluable', className: 'bg-amber-100 text-amber-950 ring-amber-400', help: 'the episode could not be evaluated' },
  { code: 'disagree', label: '≠ recorded', className: 'bg-violet-50 text-violet-800 ring-violet-300', help: 'the recomputed reward differs from the recorded one' },
];

const BY_CODE = new Map(REASONS.map((r) => [r.code, r]));

export function ReasonChip({ code }: { code: ReasonFilter }) {
  const r = BY_CODE.get(code);
  if (!r) return null;
  return (
    <Chip shape="inset" tone={r.className} title={r.help}>
      {r.label}
    </Chip>
  );
}
