import { sharedRunFiles } from '../support/fixtures';
import { hasShared } from '../support/shared';
import { recordedDeltaCases } from '../core/model/recorded-deltas.cases';

// Soak of test/core/model/table-delta.spec.ts: the deltas of every recorded replay of every run of ../shared/runs (the gate has two).
recordedDeltaCases(hasShared ? sharedRunFiles() : []);
