/** Work on a report between two looks at the message queue. */
export const REPORT_SLICE_MS = 25;
/** Report text gathered before it becomes one part of the report's Blob. */
const REPORT_PART_CHARS = 1 << 20;

/** Lets other messages in every `REPORT_SLICE_MS` of work; true when it did (then whatever was waited for may have changed). */
export function reportPauser(yieldToMessages: () => Promise<void>): () => Promise<boolean> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < REPORT_SLICE_MS) return false;
    await yieldToMessages();
    last = performance.now();
    return true;
  };
}

/**
 * A report's parts gathered into a Blob a megabyte at a time (the report is never one string in this
 * process), pausing for other messages as it goes; null when `gone` says the run was closed meanwhile.
 */
export async function reportBlob(parts: Iterable<string>, pause: () => Promise<boolean>, gone: () => boolean): Promise<Blob | null> {
  const blobs: Blob[] = [];
  let pending: string[] = [];
  let pendingChars = 0;
  for (const part of parts) {
    pending.push(part);
    pendingChars += part.length;
    if (pendingChars >= REPORT_PART_CHARS) {
      blobs.push(new Blob(pending));
      pending = [];
      pendingChars = 0;
    }
    if ((await pause()) && gone()) return null;
  }
  return new Blob([...blobs, ...pending], { type: 'text/html' });
}
