import { chunkedFileCases, sharedResultsFiles } from '../core/model/chunked-files.cases';

// Soak of test/core/model/results-stream.spec.ts: every results file of ../shared/runs and ../shared/forks (the gate has three).
chunkedFileCases('a results file read chunk by chunk gives the same episodes as its whole text (soak: every file)', sharedResultsFiles());
