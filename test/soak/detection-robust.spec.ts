import { describe } from 'vitest';
import { emptyObjects, noEpisodesCases } from '../core/judge/no-episodes.cases';

// Soak of test/core/judge/detection-robust.spec.ts ("files with no episodes say so"): the gate has ten thousand.
describe('files with no episodes say so (soak)', () => {
  noEpisodesCases([['a million {}', emptyObjects(1_000_000), /no episodes: none of the file's 1000000 entries/]]);
});
