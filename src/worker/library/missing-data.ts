import type { BenchmarkKind } from '../../core/contract';

/** A file not judged for want of a benchmark's data (listed with `missing`: the library is judged again once it arrives). */
export class MissingData extends Error {
  constructor(
    readonly benchmark: BenchmarkKind,
    message: string,
  ) {
    super(message);
  }
}
