import { fuzzSuite } from './fuzz-files';

// The gate's share of the seeded fuzz (the same assertions as the soak's 120 files in test/soak/browser-fuzz.spec.ts).
fuzzSuite(24);
