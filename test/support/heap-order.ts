/**
 * The order of the `units` spec files (vitest.config.ts): those that keep no shared runs in memory first, then
 * those that do. The `units` project shares one module graph per worker (`isolate: false`), so once a spec has
 * parsed and judged the shared runs (test/support/fixtures.ts: `sharedRun`, `evaluatedSharedRun`, kept for every
 * later spec), the worker's heap holds them for the rest of the run, and every garbage collection walks them: a
 * spec that allocates much (a Blob store of tens of megabytes, a big file read in slices) runs several times
 * slower after them than before. Within each group, and for every other project, vitest's own order.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Names of the fixtures that keep shared runs for the rest of the run. */
const KEEPS_SHARED_RUNS = /\b(sharedRun|evaluatedSharedRun|sharedExpected|sharedExpectedRaw)\b/;

/** Whether the spec file, or a `./….cases` module beside it that it imports, uses those fixtures. */
function keepsSharedRuns(file: string): boolean {
  const text = readFileSync(file, 'utf8');
  if (KEEPS_SHARED_RUNS.test(text)) return true;
  for (const m of text.matchAll(/from '(\.\/[^']+\.cases)'/g))
    if (KEEPS_SHARED_RUNS.test(readFileSync(join(dirname(file), `${m[1]!}.ts`), 'utf8'))) return true;
  return false;
}

export class HeapOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const units = sorted.filter((s) => s.project.name === 'units');
    const reordered = [...units.filter((s) => !keepsSharedRuns(s.moduleId)), ...units.filter((s) => keepsSharedRuns(s.moduleId))];
    // The units files keep their places in the whole list, in the new order among themselves.
    let next = 0;
    return sorted.map((s) => (s.project.name === 'units' ? reordered[next++]! : s));
  }
}
