import { damagedFileFuzzCases } from '../core/session/damaged-files-fuzz.cases';

// Soak of test/core/session/fuzz-damaged-files.spec.ts: 1,000 mutants (the gate has 400, the first 20 of each batch).
damagedFileFuzzCases(1000);
