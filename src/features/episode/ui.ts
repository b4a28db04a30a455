import type { Elsewhere } from '../../core/contract';
import type { ReasonCode } from '../../core/contract';

export const PRE = 'whitespace-pre-wrap break-words font-mono text-[12px] leading-[1.45]';

export const REASON_LABEL: Readonly<Record<ReasonCode, string>> = {
  'db-mismatch': 'DB mismatch',
  'missing-output': 'missing output',
  'never-finished': 'never finished',
  crash: 'error',
  'db-not-judged': 'DB not judged',
};

export const REASON_CLASS: Readonly<Record<ReasonCode, string>> = {
  'db-mismatch': 'border-rose-300 bg-rose-50 text-rose-800',
  'missing-output': 'border-amber-300 bg-amber-50 text-amber-900',
  'never-finished': 'border-violet-300 bg-violet-50 text-violet-800',
  crash: 'border-red-400 bg-red-100 text-red-900',
  'db-not-judged': 'border-slate-300 bg-slate-100 text-slate-700',
};

export const ELSEWHERE_LABEL: Readonly<Record<Elsewhere['kind'], string>> = {
  'tool-result': 'in a tool result',
  'beside-tool-call': 'in text beside a tool call',
  'user-turn': 'in a user turn',
  'not-a-respond': 'in an agent message that was not a respond',
};

export const stepLabel = (i: number): string => `step ${i + 1}`;
