import { useCallback, useEffect, useRef, useState } from 'react';
import type { FolderFile } from '../../protocol/wire-types';
import { Button } from '../../ui/button';
import { useApp, useAppStore } from '../../ui/store-context';
import { useDismiss } from '../../ui/use-dismiss';

/** What a library folder needs of its files: results files and run folders (JSON), and a `runs.parquet`. */
const LIBRARY_FILE = /\.(?:json|parquet)$/i;

/** The files of a folder picked in a `webkitdirectory` input that a library reads, with their paths (the folder's name first). */
export function pickedLibraryFiles(list: FileList): { name: string; files: FolderFile[] } {
  const files = Array.from(list)
    .map((file) => ({ path: file.webkitRelativePath || file.name, file }))
    .filter((f) => LIBRARY_FILE.test(f.path) && !f.path.split('/').some((s) => s.startsWith('.') || s === 'node_modules'));
  return { name: files[0]?.path.split('/')[0] ?? 'folder', files };
}

/**
 * The header's Library button: open a folder of runs (its runs.parquet, or its results files), or a runs.parquet
 * alone; show the open library again.
 */
export function LibraryMenu() {
  const store = useAppStore();
  const hasLibrary = useApp((s) => s.library.origin !== null);
  const shown = useApp((s) => s.libraryShown);
  // On a phone an open episode fills the header (share, copy link, open): the button comes back with the overview.
  const episodeOpen = useApp((s) => s.selected !== null && !s.libraryShown);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const button = useRef<HTMLButtonElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const parquet = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (folder.current) folder.current.webkitdirectory = true;
  }, []);
  useDismiss(open, root, close, button);
  const item = 'block w-full rounded-md px-2.5 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none';
  return (
    <div className={`relative ${episodeOpen ? 'hidden sm:block' : ''}`} ref={root}>
      <input
        ref={folder}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label="Library folder"
        data-testid="library-folder-input"
        onChange={(e) => {
          const list = e.currentTarget.files;
          if (list && list.length > 0) {
            const { name, files } = pickedLibraryFiles(list);
            store.getState().openLibraryFolder(name, files);
          }
          e.currentTarget.value = '';
        }}
      />
      <input
        ref={parquet}
        type="file"
        accept=".parquet"
        className="sr-only"
        tabIndex={-1}
        aria-label="Library index (runs.parquet)"
        data-testid="library-file-input"
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          if (f) store.getState().openLibraryFile(f);
          e.currentTarget.value = '';
        }}
      />
      <Button
        ref={button}
        variant="outline"
        className="text-xs sm:text-sm"
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="library-button"
      >
        Library
      </Button>
      {open && (
        <div className="absolute right-0 z-40 mt-1.5 w-80 max-w-[calc(100vw-1.5rem)] rounded-lg border border-slate-200 bg-white p-1.5 shadow-lg">
          {hasLibrary && !shown && (
            <button
              type="button"
              className={item}
              onClick={() => {
                setOpen(false);
                store.getState().showLibrary(true);
              }}
            >
              <span className="block font-medium text-slate-900">Show the library</span>
            </button>
          )}
          <button
            type="button"
            className={item}
            autoFocus
            onClick={() => {
              setOpen(false);
              folder.current?.click();
            }}
          >
            <span className="block font-medium text-slate-900">Library folder…</span>
            <span className="block text-xs text-slate-600">a folder of runs with the runs.parquet tau-inspect index made of it; its runs open from here</span>
          </button>
          <button
            type="button"
            className={item}
            onClick={() => {
              setOpen(false);
              parquet.current?.click();
            }}
          >
            <span className="block font-medium text-slate-900">runs.parquet alone…</span>
            <span className="block text-xs text-slate-600">the leaderboard and task health; runs cannot be opened without their files</span>
          </button>
        </div>
      )}
    </div>
  );
}
