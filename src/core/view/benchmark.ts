/**
 * The benchmarks tau-inspect judges, as values the screens read: each one's names and words. A screen says
 * "simulation" or "episode", "τ²-bench" or "τ-bench", by reading its run's descriptor, not by asking which
 * benchmark it is. (The panels each benchmark's episode screen shows are the app's part of the descriptor:
 * src/app/benchmark-screens.tsx.)
 */
export type BenchmarkKind = 'tau-bench' | 'tau2';

export interface BenchmarkDescriptor {
  readonly kind: BenchmarkKind;
  /** The benchmark's name. */
  readonly name: string;
  /** Its short name, where a run's benchmark is named beside its domain or in a sentence (`τ²`, `τ-bench`). */
  readonly short: string;
  /** A run of it, with its article (`a τ²-bench run`). */
  readonly aRun: string;
  /** What one row of a run is called, singular and plural. */
  readonly noun: string;
  readonly nouns: string;
  /** Its data folder, as the Open menu names it. */
  readonly dataFolder: string;
  /** What the run line calls the run's domain (`Domain`, `τ²-bench domain`). */
  readonly domainWord: string;
  /** Put before a domain's name where runs of both benchmarks may be named (`τ² airline`; τ-bench's domains go bare). */
  readonly domainPrefix: string;
  /** Its repository's name (a checkout picked as a data folder). */
  readonly repo: string;
  /** Where a domain's data files sit under a URL base. */
  layout(domain: string): string;
  /** What fetching a domain's data brings. */
  fetches(domain: string): string;
  /**
   * Its run answers `view` without its data, with the episode as its file records it (τ²: the dialogue and the
   * recorded verdict, `recordedOnly`): the page asks for it once the data is found missing (`data-needed`) or failed;
   * otherwise only once the data is ready.
   */
  readonly viewBeforeData: boolean;
}

export const BENCHMARKS: Readonly<Record<BenchmarkKind, BenchmarkDescriptor>> = {
  'tau-bench': {
    kind: 'tau-bench',
    name: 'τ-bench',
    short: 'τ-bench',
    aRun: 'a τ-bench (v1) run',
    noun: 'episode',
    nouns: 'episodes',
    dataFolder: 'τ-bench data folder',
    domainWord: 'Domain',
    domainPrefix: '',
    repo: 'tau-bench',
    layout: (domain) => `<commit>/tau_bench/envs/${domain}/data/*.json`,
    fetches: (domain) => `the ${domain} tables of the known τ-bench versions; the version is then chosen by detection`,
    viewBeforeData: false,
  },
  tau2: {
    kind: 'tau2',
    name: 'τ²-bench',
    short: 'τ²',
    aRun: 'a τ²-bench run',
    noun: 'simulation',
    nouns: 'simulations',
    dataFolder: 'τ²-bench data folder',
    domainWord: 'τ²-bench domain',
    domainPrefix: 'τ² ',
    repo: 'tau2-bench',
    layout: (domain) => `<commit>/data/tau2/domains/${domain}/…`,
    fetches: (domain) => `the ${domain} DB files of sierra-research/tau2-bench`,
    viewBeforeData: true,
  },
};

/** A run's descriptor (τ-bench's when no run is open: the app's words before any file). */
export const benchmarkOf = (kind: BenchmarkKind | null | undefined): BenchmarkDescriptor => BENCHMARKS[kind ?? 'tau-bench'];

/** The descriptor of a benchmark named by text from outside (a library row's `benchmark` column), null for a name no benchmark has. */
export const benchmarkNamed = (kind: string): BenchmarkDescriptor | null => (Object.hasOwn(BENCHMARKS, kind) ? BENCHMARKS[kind as BenchmarkKind] : null);
