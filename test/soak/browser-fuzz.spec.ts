import { fuzzSuite } from '../browser/fuzz-files';

// Soak: the full 120 mutated files of the seeded fuzz (the gate opens 24, test/browser/fuzz.spec.ts).
fuzzSuite(120);
