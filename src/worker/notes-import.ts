import { notesFileTooBig, parseNotesExport } from '../core/contract';
import { NOTES_CHUNK } from '../protocol/messages';

/**
 * A notes import read in the worker: a file past the size limit is not read at all, the text is
 * parsed and checked here (records per file, bytes per note), and the records go back to the page
 * as JSON text in chunks of `NOTES_CHUNK`, for the page to merge one chunk per task.
 */
export async function parseNotesFile(file: Blob): Promise<{ error: string | null; chunks: string[] }> {
  const big = notesFileTooBig(file.size);
  if (big !== null) return { error: big, chunks: [] };
  let text: string;
  try {
    text = await file.text();
  } catch (e) {
    return { error: `the file could not be read: ${(e as Error).message}`, chunks: [] };
  }
  const parsed = parseNotesExport(text);
  if (!parsed.ok) return { error: parsed.error, chunks: [] };
  const { episodes } = parsed.value;
  const chunks: string[] = [];
  for (let i = 0; i < episodes.length; i += NOTES_CHUNK) chunks.push(JSON.stringify(episodes.slice(i, i + NOTES_CHUNK)));
  return { error: null, chunks };
}
