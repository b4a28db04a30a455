import type { FolderFile } from '../../protocol/wire-types';

const readAll = (reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> =>
  new Promise((resolve, reject) => {
    const out: FileSystemEntry[] = [];
    const next = (): void =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(out);
        else {
          out.push(...batch);
          next();
        }
      }, reject);
    next();
  });

/** τ-bench's data files are JSON; τ²'s telecom DBs are TOML. */
const DATA_FILE = /\.(?:json|toml)$/;

const fileOf = (entry: FileSystemFileEntry): Promise<File> => new Promise((resolve, reject) => entry.file(resolve, reject));

/** The data files (.json, and .toml for τ²'s telecom) of a dropped folder (recursively), with paths relative to it. */
export async function folderFiles(root: FileSystemDirectoryEntry): Promise<FolderFile[]> {
  const out: FolderFile[] = [];
  const walk = async (dir: FileSystemDirectoryEntry, prefix: string): Promise<void> => {
    for (const e of await readAll(dir.createReader())) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      if (e.isDirectory) await walk(e as FileSystemDirectoryEntry, `${prefix}${e.name}/`);
      else if (DATA_FILE.test(e.name)) out.push({ path: `${prefix}${e.name}`, file: await fileOf(e as FileSystemFileEntry) });
    }
  };
  await walk(root, `${root.name}/`);
  return out;
}

/** Files chosen in a `webkitdirectory` input. */
export function pickedFolderFiles(list: FileList): { name: string; files: FolderFile[] } {
  const files: FolderFile[] = [];
  for (const file of Array.from(list)) {
    const path = file.webkitRelativePath || file.name;
    if (DATA_FILE.test(path)) files.push({ path, file });
  }
  const name = files[0]?.path.split('/')[0] ?? 'folder';
  return { name, files };
}

export type Dropped = { kind: 'folder'; name: string; files: FolderFile[] } | { kind: 'file'; file: File } | { kind: 'none' };

/** What a drop carries: a data folder, or a results file. */
export async function readDrop(dt: DataTransfer): Promise<Dropped> {
  const items = Array.from(dt.items).filter((i) => i.kind === 'file');
  for (const item of items) {
    const entry = item.webkitGetAsEntry?.();
    if (entry?.isDirectory) return { kind: 'folder', name: entry.name, files: await folderFiles(entry as FileSystemDirectoryEntry) };
  }
  const file = Array.from(dt.files)[0];
  return file ? { kind: 'file', file } : { kind: 'none' };
}
