import type { Detection, EpisodeSummary } from '../../src/core/contract';

/** An overview row as the worker sends it, for store specs: a clean episode that ended by ###STOP###; `extra` overrides. */
export const testSummary = (index: number, reward: number, extra: Partial<EpisodeSummary> = {}): EpisodeSummary => ({
  index,
  reward,
  hypotheticalReward: null,
  done: true,
  doneBy: 'stop',
  reasons: [],
  reasonTexts: [],
  error: null,
  strategy: 'tool-calling',
  stepsExecuted: 3,
  diffCount: 0,
  outputsMissing: [],
  outputsTotal: 0,
  agrees: true,
  ...extra,
});

/** A detection as the worker sends it, for store specs. */
export const TEST_DETECTION: Detection = {
  domain: 'retail',
  domainWhy: 'x',
  dataCommit: 'abc',
  data: { kind: 'unrecognised', initialHash: 'abc' },
  dataSource: 's',
  versionWhy: 'v',
  dataFinal: false,
  dataOverturned: null,
  hashes: null,
  rewards: null,
  rule: 'db-and-outputs',
  ruleWhy: 'r',
  ruleFinal: false,
  fileKind: 'tau-bench-results',
  fileKindText: 'a results file',
  notes: [],
};
