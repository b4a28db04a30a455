import { fileStem } from '../../formats/file-stem';
import { runReady } from '../../store/run-state';
import { Button } from '../../ui/button';
import { useApp, useAppStore } from '../../ui/store-context';

/** The file name of a run's report: `<run-name>-report.html` (the browser cleans the name further). */
export const reportFileName = (label: string): string => `${fileStem(label)}-report.html`;

/** Downloads the open run's offline report (built in the worker: every episode evaluated, failed ones in full, with notes). */
export function ReportButton({
  className,
  testId = 'report-button',
  small = false,
  label = 'Report',
}: {
  className?: string;
  testId?: string;
  small?: boolean;
  label?: string;
}) {
  const store = useAppStore();
  const hasData = useApp((s) => runReady(s.runs.a));
  const report = useApp((s) => s.report);
  const building = report?.state === 'building';
  const download = async (): Promise<void> => {
    const label = store.getState().runs.a.source?.label ?? 'run';
    const file = await store.getState().buildReport();
    if (file === null) {
      const r = store.getState().report;
      if (r?.error) store.getState().notify('error', `No report: ${r.error}.`);
      return;
    }
    const a = document.createElement('a');
    // The worker built the report as a Blob (the contract names only its size and type).
    a.href = URL.createObjectURL(file as Blob);
    a.download = reportFileName(label);
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <Button
      variant={small ? 'small' : 'outline'}
      className={className}
      disabled={!hasData || building}
      onClick={() => void download()}
      title={
        hasData
          ? 'Download one HTML file with every episode (failed ones in full) and your notes; it opens offline, without scripts'
          : 'The report needs the rewards recomputed (the benchmark’s data)'
      }
      data-testid={testId}
    >
      {building ? 'Building…' : label}
    </Button>
  );
}
