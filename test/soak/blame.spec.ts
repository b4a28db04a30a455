import { sharedRunFiles } from '../support/fixtures';
import { hasShared } from '../support/shared';
import { writeTrackerCases } from '../core/view/write-tracker.cases';

// Soak of test/core/view/blame.spec.ts: the write tracker on every recorded call of every run of ../shared/runs (the gate has two).
writeTrackerCases(hasShared ? sharedRunFiles() : []);
