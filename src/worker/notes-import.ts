import { notesFileTooBig, parseNotesExport } from '../core/contract';
import { NOTES_CHUNK } from '../protocol/messages';

/**
 * A notes import read in the worker: a file past the size limit is not read at all, the text is
 * parsed and checked here (records per file, bytes per note), and the records go back to the page
 * as UTF-8 JSON in chunks of `NOTES_CHUNK` (transferred), for the page to merge one chunk per task.
 */
export async function parseNotesFile(file: Blob): Promise<{ error: string | null; chunks: Uint8Array[] }> {
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
  // UTF-8 bytes, handed over to the page without a copy: the page decodes and parses one chunk per task.
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < episodes.length; i += NOTES_CHUNK) chunks.push(encoder.encode(JSON.stringify(episodes.slice(i, i + NOTES_CHUNK))));
  return { error: null, chunks };
}
