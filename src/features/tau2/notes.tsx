import { tau2TaskBugText, tau2View } from '../../core/contract';
import { tau2Of } from '../../store/tau2/opened';
import { NotesPanel } from '../../ui/notes-panel';
import { useApp } from '../../ui/store-context';

/**
 * Label and note of the open τ² simulation (kept in this browser by its fingerprint, exported and
 * imported with the run's notes like a τ-bench episode's); a task-bug label gives issue text for
 * τ²-bench's maintainers naming the τ² task id and domain. A panel of the simulation screen (src/app/tau2-panels.tsx).
 */
export function Tau2Notes() {
  // The recorded simulation (not a what-if's edited one): the issue is about what the run did.
  const view = useApp((s) => tau2View(s.view));
  const domain = useApp((s) => tau2Of(s.runs.a)?.domain ?? '');
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
