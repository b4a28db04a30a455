import { tau2TaskBugText, type Tau2SimView } from '../../core/contract';
import { NotesPanel } from '../../ui/notes-panel';
import { useApp } from '../../ui/store-context';

/**
 * Label and note of the open τ² simulation (kept in this browser by its fingerprint, exported and
 * imported with the run's notes like a τ-bench episode's); a task-bug label gives issue text for
 * τ²-bench's maintainers naming the τ² task id and domain.
 */
export function Tau2Notes({ view }: { view: Tau2SimView | null }) {
  const domain = useApp((s) => s.runs.a.tau2?.domain ?? '');
  const file = useApp((s) => s.runs.a.source?.label ?? '');
  return (
    <NotesPanel
      benchmark="τ²-bench"
      noun="simulation"
      stepCount={0}
      step={0}
      bugText={(notes) => (view ? tau2TaskBugText({ view, domain, file, notes }) : null)}
    />
  );
}
