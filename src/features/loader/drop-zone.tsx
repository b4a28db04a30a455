import { useEffect, useState } from 'react';
import { useAppStore } from '../../ui/store-context';
import { readDrop } from './read-drop';

const carriesFiles = (e: DragEvent): boolean => Array.from(e.dataTransfer?.types ?? []).includes('Files');

/** Drop a results file or a tau-bench data folder anywhere on the page. */
export function DropZone() {
  const store = useAppStore();
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent): void => {
      if (!carriesFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = (): void => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overFn = (e: DragEvent): void => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const drop = (e: DragEvent): void => {
      if (!carriesFiles(e) || !e.dataTransfer) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const s = store.getState();
      readDrop(e.dataTransfer).then(
        (d) => {
          if (d.kind === 'folder') s.useFolder(d.name, d.files);
          else if (d.kind === 'file') s.openFile(d.file);
        },
        (err: unknown) => s.notify('error', `Could not read the dropped item: ${err instanceof Error ? err.message : String(err)}`),
      );
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
    };
  }, [store]);
  if (!over) return null;
  return (
    <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-indigo-950/40 p-6 backdrop-blur-[1px]" aria-hidden="true">
      <div className="rounded-xl border-2 border-dashed border-white bg-white/95 px-8 py-6 text-center shadow-xl">
        <p className="text-base font-semibold text-slate-900">Drop to open</p>
        <p className="mt-1 text-sm text-slate-600">a τ-bench results file (run.py output) or one episode · or a tau-bench data folder</p>
      </div>
    </div>
  );
}
