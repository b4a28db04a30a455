import { damagedFileFuzzCases } from './damaged-files-fuzz.cases';

// Seeded fuzzing of the core on damaged copies of ../shared/runs (damaged-files-fuzz.cases.ts): 400 mutants here,
// the first 20 of each of its 20 batches; all 1,000 in the soak (test/soak/fuzz-damaged-files.spec.ts).
damagedFileFuzzCases(400);
