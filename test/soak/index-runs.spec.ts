import { indexCases } from '../cli/runs-index.cases';
import { sharedRunsIndex } from '../support/runs-index';

// Soak of test/cli/index-runs.spec.ts: `tau-inspect index` over every shared run (the gate indexes a library of a few).
indexCases('tau-inspect index over the shared runs', sharedRunsIndex, { files: 40, episodes: 1000, simulations: 400, failed: 100 });
