/** Search of a session's episodes: user, agent and tool text, case-insensitive. */
import type { EpisodeRecord } from '../model/episode/types';

/** A query of printable ASCII without the characters JSON escapes (`"`, `\\`) or may escape (`/`). */
const PLAIN_QUERY = /^[\x20-\x21\x23-\x2e\x30-\x5b\x5d-\x7e]+$/;
/** A `\\u` escape of a character that lower-cases to printable ASCII: U+0020–U+007F, İ (U+0130 → i̇), the Kelvin sign (U+212A → k). */
const ASCII_ESCAPE = /\\u(?:00[2-7][0-9a-f]|0130|212a)/i;

/**
 * Whether an episode's JSON text may hold `q` (a `PLAIN_QUERY`, lower case) in one of its decoded
 * strings, lower-cased: such a match is made of characters written as themselves, or of `\\u`
 * escapes of characters that lower-case to ASCII. False only when neither can be.
 */
function mayHold(text: string, q: string): boolean {
  return text.toLowerCase().includes(q) || ASCII_ESCAPE.test(text);
}

/**
 * Indices of `records` whose user, agent or tool messages contain `query` (case-insensitive). The
 * system prompt is left out: it is the same policy text in every episode, so it would match all.
 * `episodeText`: an episode's JSON text as in the file, when the session has it (see `mayHold`).
 */
export function searchEpisodes(records: readonly EpisodeRecord[], episodeText: ((index: number) => string | null) | null, query: string): number[] {
  const q = query.toLowerCase();
  if (!q) return records.map((r) => r.index);
  // An episode whose JSON text cannot hold the query is not parsed (see `mayHold`).
  const quick = episodeText !== null && PLAIN_QUERY.test(q) ? episodeText : null;
  return records
    .filter((r) => {
      const text = quick?.(r.index) ?? null;
      return text === null || mayHold(text, q);
    })
    .filter((r) =>
      r.traj.some((m) => {
        if (m.get('role') === 'system') return false;
        const c = m.get('content');
        if (typeof c === 'string' && c.toLowerCase().includes(q)) return true;
        const calls = m.get('tool_calls');
        if (!Array.isArray(calls)) return false;
        return calls.some((x) => {
          const fn = x instanceof Map ? x.get('function') : null;
          if (!(fn instanceof Map)) return false;
          return [fn.get('name'), fn.get('arguments')].some((t) => typeof t === 'string' && t.toLowerCase().includes(q));
        });
      }),
    )
    .map((r) => r.index);
}
