/** The columns of `tau-inspect index` live in core (the app's folder library writes the same rows): src/core/session/index-row.ts. */
export {
  INDEX_COLUMNS,
  tau2Row,
  tau2RunRows,
  tauBenchRow,
  tauBenchRunRows,
  type Benchmark,
  type FileFacts,
  type IndexRow,
  type Tau2RowReport,
} from '../../core/contract';
