import { tauBenchView } from '../../core/contract';
import { taskBugText } from '../../core/contract';
import { NotesPanel } from '../../ui/notes-panel';
import { useApp } from '../../ui/store-context';

/** Label, episode note and the note on the current step of the selected τ-bench episode (kept in this browser). */
export function EpisodeNotes() {
  const header = useApp((s) => (s.selected === null ? undefined : s.runs.a.headers[s.selected]));
  const step = useApp((s) => s.step);
  const view = useApp((s) => tauBenchView(s.view));
  const detection = useApp((s) => s.runs.a.detection);
  const file = useApp((s) => s.runs.a.source?.label ?? '');
  return (
    <NotesPanel
      benchmark="τ-bench"
      noun="episode"
      stepCount={view?.steps.length ?? 0}
      step={step}
      bugText={(notes) => (view && detection && header ? taskBugText({ view, taskId: header.taskId, domain: detection.domain, file, notes }) : null)}
    />
  );
}
