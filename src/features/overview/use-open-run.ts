import { useApp, useAppStore } from '../../ui/store-context';

/** The open run's episodes as the overview's parts read them: headers, summaries, the selected episode. */
export function useOpenRun() {
  const store = useAppStore();
  const headers = useApp((s) => s.runs.a.headers);
  const summaries = useApp((s) => s.runs.a.summaries);
  const selected = useApp((s) => s.selected);
  return { store, headers, summaries, selected };
}
