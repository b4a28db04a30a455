/**
 * Where τ²-bench's domain data lives: `<commit>/data/tau2/domains/<domain>/<file>` under a base
 * (raw file hosting of sierra-research/tau2-bench), or `data/tau2/domains/…` in a tau2-bench checkout.
 */
export const TAU2_REPOSITORY = 'sierra-research/tau2-bench';
/** v1.0.1 (2026-08-18); its DB files are unchanged since v0.1.0. */
export const TAU2_PINNED_COMMIT = 'a2c024725189473d2d7cea3a5cfdbcc67478e41f';
export const TAU2_DEFAULT_DATA_BASE = `https://raw.githubusercontent.com/${TAU2_REPOSITORY}`;

export const tau2DataPath = (domain: string, file: string, commit?: string): string => `${commit ? `${commit}/` : ''}data/tau2/domains/${domain}/${file}`;

/**
 * τ² commits (7-digit prefixes) that carry all of 1.0.1's banking_knowledge grading changes (#329 extra reads not
 * logged, #397 int/float spelling, #402 tasks 077–086, #403 transaction order): a1e8508 on main up to the pinned
 * commit, and the v1.0.1 tag.
 */
export const BANKING_GRADING_1_0_1_COMMITS: ReadonlySet<string> = new Set(
  (
    'a2c0247 0440136 0275e4b c339866 79975ac 668d3bc e5e51b3 a51cedb 1eceb04 0f67910 35b60b4 e6609f3 62ba405 93ee97b 363133a eac4b67 1d244f5 ' +
    'dd5793d c9e8652 ef14d39 f0927a4 d415ec8 cf71a80 3b6a28e 4f1439a ab40be1 07d5b33 14486b7 9b58d87 f1f61ea a790249 fc0055d a1e8508 b711c1e'
  ).split(' '),
);

/** The note for a banking_knowledge file whose recorded τ² commit is not known to grade as 1.0.1 does (null when it is). */
export function bankingGradingNote(recordedCommit: string | null): string | null {
  if (recordedCommit !== null && BANKING_GRADING_1_0_1_COMMITS.has(recordedCommit.slice(0, 7).toLowerCase())) return null;
  return (
    `the file records τ² commit ${recordedCommit === null ? '(none)' : recordedCommit.slice(0, 7)}, not one known to carry 1.0.1's banking_knowledge grading ` +
    `(a1e8508 and after on main, v1.0.1): its recorded rewards may come from the older grading, where every read of a discoverable tool was logged into the hashed DB (#329), ` +
    `hashes and ids depended on how a number was spelled, 25 or 25.0 (#397), tasks 077–086 had other gold trajectories (#402), transactions came oldest first (#403) ` +
    `and task_074's gold refund was $8.00 (#374). The verdicts here are 1.0.1's.`
  );
}
