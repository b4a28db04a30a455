import { everySharedRun, fingerprintCorpusCases } from '../core/view/fingerprint-corpus.cases';

// Soak of test/core/view/fingerprint.spec.ts: every run of ../shared/runs and ../shared/tau2/runs (the gate has one of each).
fingerprintCorpusCases({ ...everySharedRun(), minEpisodes: 1000, minSimulations: 500 });
