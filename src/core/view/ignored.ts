/**
 * What the reward ignores, counted over a run: each row's procedure findings by kind (in words, `EpisodeSummary.ignored`),
 * how many in all and in how many rows, the most frequent first. The overview and the CLI count alike.
 */
export interface IgnoredCount {
  readonly kind: string;
  /** Findings of this kind over the run. */
  readonly n: number;
  /** Rows with at least one. */
  readonly rows: number;
}

export function countIgnored(rows: Iterable<readonly string[] | undefined>): IgnoredCount[] {
  const by = new Map<string, { n: number; rows: number }>();
  for (const kinds of rows) {
    if (!kinds) continue;
    for (const [i, kind] of kinds.entries()) {
      const c = by.get(kind) ?? { n: 0, rows: 0 };
      c.n++;
      if (kinds.indexOf(kind) === i) c.rows++;
      by.set(kind, c);
    }
  }
  return [...by].map(([kind, c]) => ({ kind, ...c })).sort((a, b) => b.n - a.n || a.kind.localeCompare(b.kind));
}

/** The counts in one line: `transfer to a human 3 · failed write 5 (in 2 simulations)`. */
export const ignoredText = (counts: readonly IgnoredCount[], nouns: string): string =>
  counts.map((c) => `${c.kind} ${c.n}${c.rows !== c.n ? ` (in ${c.rows} ${nouns})` : ''}`).join(' · ');
