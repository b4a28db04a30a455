import { describe } from 'vitest';
import { bigMessageCase } from '../core/env/big-message.cases';

// Soak of test/core/env/output-match.spec.ts: a ~20 MB message (the gate has ~2 MB).
describe('matchOutput (τ-bench outputs check) (soak)', () => {
  bigMessageCase(20_000_000);
});
