import { useMemo } from 'react';
import type { StepView } from '../../core/contract';
import { clip } from '../../ui/fold';
import { StepBar as Bar, type StepItem } from '../../ui/step-bar';
import { stepLabel } from './ui';

function stepTone(s: StepView): string {
  if (s.exception || s.unknownTool) return 'bg-red-100 text-red-900 ring-red-300';
  if (s.changes.length > 0) return 'bg-amber-100 text-amber-900 ring-amber-300';
  if (s.isRespond) return 'bg-indigo-50 text-indigo-900 ring-indigo-200';
  return 'bg-slate-100 text-slate-800 ring-slate-300';
}

function stepTitle(s: StepView): string {
  const notes = [clip(s.action)];
  if (s.changes.length > 0) notes.push(clip(`writes ${s.changes.map((c) => `${c.table}/${c.key}`).join(', ')}`));
  if (s.exception) notes.push(`raised ${clip(s.exception)}`);
  if (s.unknownTool) notes.push('unknown tool');
  if (s.observationDiffers) notes.push('replayed observation differs');
  if (s.done) notes.push('ends the episode');
  return `${stepLabel(s.index)}: ${notes.join('; ')}`;
}

/** The step cursor of an episode: one chip per executed step. */
export function StepBar(props: { steps: readonly StepView[]; step: number; onSelect: (n: number) => void }) {
  const { steps } = props;
  const items = useMemo(
    () => steps.map((s): StepItem => ({ label: String(s.index + 1), action: s.action, title: stepTitle(s), tone: stepTone(s), dot: s.observationDiffers })),
    [steps],
  );
  return <Bar items={items} step={props.step} onSelect={props.onSelect} />;
}
