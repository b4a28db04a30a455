/**
 * The door to core: everything the worker, the store, the features, the app and the CLI may take
 * from it. Lint forbids importing any other core file from outside core. The page ↔ worker messages
 * are not core's: they live in src/protocol (typed with the data named here).
 */

// ------------------------------------------------------------- the data core hands out
// Plain, structured-cloneable values: what crosses from the worker to the page, and what the CLI prints.

export type { Domain } from './model/data/db';
export type { DataVersion, ReadText, RewardRule } from './model/data/versions';
export type { Span } from './env/output-match';
export type { FileOptions } from './judge/detect';
export type {
  Elsewhere,
  EpisodeView,
  FieldChangeView,
  MessageView,
  OutputView,
  RecordChangeView,
  RecordDiffView,
  ReferenceStepView,
  RecordLine,
  StepView,
  ToolCallView,
} from './view/episode-view';
export type { NearKind, NearSaid } from './view/near-outputs';
export type { ReasonCode } from './view/explain';
export type { Finding } from './view/findings';
export type { AlignmentMatch } from './view/alignment';
export type { WalkthroughLine } from './view/walkthrough';
export type { EpisodeHeader, EpisodeSummary, FingerprintedHeader, RowReason } from './view/summary';
export { rowEnding, taskLabel } from './view/summary';
export type { TranscriptView } from './view/transcript';
export type { EpisodeReport } from './view/report-json';
export { INVISIBLE, codePointName } from './view/invisible';
export type { DataLabel } from './model/data/versions';
export type { DataSnapshot, Detection, StepEdit, ViewResult } from './session/session';
export { stepOfMessage } from './session/report-what-if';
export type { DbWorkSnapshot } from './judge/cache';
export type { Tau2Run } from './model/episode/tau2/types';
export type { Tau2Component, Tau2Reason, Tau2RowFacts } from './view/tau2/summary';
export type { Tau2ActionView, Tau2CallView, Tau2EnvAssertionView, Tau2MessageView, Tau2RecordDiff, Tau2SimView } from './view/tau2/sim-view';
export type { Tau2FieldDiff } from './view/tau2/db-diff';
export type { Tau2DbSide, Tau2Place, Tau2StateChange, Tau2StateView } from './view/tau2/state-at-step';
/** A DB of an episode (the agent's, or the user's device) and that DB after a step, for `state-at-step`. */
export type { Tau2DbSide as DbSide, Tau2StateView as StateAtStep } from './view/tau2/state-at-step';
export type { Tau2Recorded, Tau2ReviewView } from './view/tau2/reviews';
export type { Tau2Finding } from './view/tau2/findings';
export { countIgnored, ignoredText, type IgnoredCount } from './view/ignored';
export { tau2Ignored, TAU2_PROCEDURE_KINDS, TAU2_PROCEDURE_NOTE, type Tau2ProcedureKind } from './view/tau2/procedure';
export type { Tau2CheckChange, Tau2EditedMessage, Tau2ToolChoice, Tau2WhatIfView } from './session/tau2/what-if';
export type { PassK, TrialOutcome } from './view/pass-k';
export type { CompareOutcome, JudgedApart, RunComparison, RunJudging, TaskComparison, TrialCounts } from './view/compare';
export type { ConflictChoice, EpisodeNotes, NoteConflict, NoteLabel } from './view/notes';
export type { TrialCell, TrialComparison } from './view/trial-compare';

// ------------------------------------------------------------- the API: what callers run

export { DOMAINS, DOMAIN_TABLES } from './model/data/db';
export { toolCatalog } from './model/domains/registry';
export { DEFAULT_DATA_BASE, KNOWN_DATA_VERSIONS, dataPath, shortCommit } from './model/data/versions';
export { ResultsFileError } from './model/episode/results-file';
export { decodeResultsBytes } from './model/episode/decode';
export { EvaluationSetupError, guessDataCommitFromText, guessDomainFromText, hashEvidenceText } from './judge/detect';
export {
  describeApart,
  describeData,
  formatCounts,
  formatPassK,
  formatPassValue,
  formatRatio,
  formatRecorded,
  formatReward,
  RULE_SHORT,
  RULE_TEXT,
  shortData,
} from './view/format';
export { InspectSession, type SessionReader } from './session/session';
export { EpisodeJudge, type EpisodeVerdicts, type VersionFacts } from './session/episode-judge';
export { EvalCache } from './judge/cache';
export { sha256Hex } from './py/hash';
export { prepareSha256, setHostSha256 } from './py/sha256';
export { isSuccess, passHatK } from './view/pass-k';
export {
  episodeFingerprint,
  FINGERPRINT_FORMAT,
  floatsMatter,
  legacyEpisodeFingerprints,
  legacyTau2SimulationFingerprints,
  plainJson,
  tau2SimulationFingerprint,
  typesMatter,
} from './view/fingerprint';
export { inertJson, inertJsonText } from './view/inert-json';
export { compareRuns, judgedApart } from './view/compare';
export {
  NOTE_LABELS,
  NOTES_FORMAT,
  NOTES_LIMITS,
  canKeepBoth,
  exportNotes,
  hasContent,
  mergeNotes,
  notesByIndex,
  notesFor,
  attachNotes,
  legacyKeys,
  ambiguousNotesText,
  type RowKeys,
  type AmbiguousKey,
  notesFileTooBig,
  parseNotesExport,
  resolveConflict,
} from './view/notes';
export { sessionReportHtml, sessionReportParts } from './session/report';
export { taskBugText } from './view/task-bug';
export { tau2TaskBugText } from './view/tau2/task-bug';
export { callName, callNames, messageName } from './view/tau2/numbering';
export { tau2Components, NOT_IN_REWARD, type Tau2ComponentLine, type Tau2ComponentName } from './view/tau2/components';
export { tau2RecordedSimView } from './view/tau2/recorded-view';
export { tau2TeachSheet } from './view/tau2/teach';
export { tauBenchTeachSheet } from './view/tau-bench-teach';
export { teachResult, type TeachComponent, type TeachDifference, type TeachItem, type TeachMarks, type TeachResult, type TeachSheet } from './view/teach';
export { compareTau2Trials, type Tau2TrialComparison, type Tau2TrialRow } from './view/tau2/trial-compare';
export { compareTrials } from './view/trial-compare';

// τ²-bench
export { TAU2_DEFAULT_DATA_BASE, TAU2_PINNED_COMMIT } from './model/data/tau2/data';
export { readTau2Folder, readTau2Text, tau2SimulationJson, Tau2FileError } from './model/episode/tau2/results';
export { Tau2Session, Tau2SetupError, tau2DbPaths, type LoadedDbs, type Tau2DbFiles, type Tau2DbPlaces, type Tau2DbStore } from './session/tau2/session';
// A domain's validated DBs as one text and back (the CLI's cache; the app's library judges hand them to each other).
export { tau2DbsFromSnapshot, tau2DbsSnapshot } from './session/tau2/db-snapshot';
export type { Tau2DbSnapshot } from './session/tau2/db-snapshot';
export { TAU2_DOMAINS } from './model/domains/tau2/registry';
export type { KnowledgeDocument, Tau2RetrievalView } from './view/tau2/retrieval';
// τ³ voice (full-duplex) simulations: the timeline view and τ²'s interaction metrics.
export type {
  NearMissKind,
  TickRange,
  VoiceCommunicate,
  VoiceDialogueEntry,
  VoiceEventView,
  VoiceInterruption,
  VoiceLane,
  VoiceSegment,
  VoiceSpeaker,
  VoiceSpeechTurn,
  VoiceTimelineView,
  VoiceToolCall,
  VoiceTranscriptLine,
  VoiceUtterance,
} from './view/tau2/voice/timeline';
export type { InteractionMetrics, InteractionMetricsConfig, VoiceEventType, VoiceQualityEvent } from './view/tau2/voice/metrics';
export { voiceTimeline } from './view/tau2/voice/timeline';
export {
  DEFAULT_INTERACTION_CONFIG,
  INTERACTION_METRICS_VERSION,
  interactionConfigOf,
  interactionMetrics,
  interactionMetricsText,
  voiceQualityEvents,
} from './view/tau2/voice/metrics';
export { tau2ToolCatalog } from './session/tau2/what-if';
export { tau2ReportParts } from './session/tau2/report';
export {
  TAU2_COMPONENTS,
  TAU2_TASK_KEY,
  tau2Fingerprint,
  tau2LegacyFingerprints,
  tau2Headers,
  tau2NumTrials,
  tau2PassHatK,
  tau2Rows,
  tau2Summary,
  tau2TaskOrder,
} from './view/tau2/summary';
export {
  INDEX_COLUMNS,
  tau2Row,
  tau2RunRows,
  tau2Spend,
  tauBenchRow,
  tauBenchRunRows,
  tauBenchSpend,
  type Benchmark,
  type FileFacts,
  type IndexRow,
  type Spend,
  type Tau2RowReport,
} from './session/index-row';

// The library of runs: its columns, leaderboard, tasks × runs, task health and task audit; honest pass^k statistics.
export { findingFlags, LIBRARY_FLAG, type LibraryRun, type LibraryTable } from './view/library/table';
export { TableBuilder, tableBuffers, type LibraryRow } from './view/library/table-builder';
export { auditTasks, AUDIT_KINDS, AUDIT_TEXT, type AuditFinding, type AuditKind } from './view/library/task-audit';
export { indexTable, libraryRow } from './session/library-rows';
export * from './view/library/library-stats';
export * from './view/library/pass-k-stats';
export {
  BOARD_ROWS,
  gridCells,
  libraryStats,
  statsBuffers,
  type BoardGroup,
  type CompactGrid,
  type GridTask,
  type LibraryStats,
} from './view/library/stats-view';

/** One episode's screen data, whatever its benchmark (`benchmark` says which): what `view` answers. */
export type BenchmarkView = import('./view/episode-view').EpisodeView | import('./view/tau2/sim-view').Tau2SimView;
/** An episode judged again with what-if edits, whatever its benchmark: what `what-if` answers. */
export type BenchmarkWhatIf = import('./view/episode-view').EpisodeView | import('./session/tau2/what-if').Tau2WhatIfView;
export { BENCHMARKS, benchmarkNamed, benchmarkOf, type BenchmarkDescriptor, type BenchmarkKind } from './view/benchmark';
export { movedStep, stepAt, tau2View, tau2WhatIfOf, tauBenchView, viewSteps, whatIfScreen, type StepMove } from './session/steps';
export {
  claimFlag,
  claimFlagText,
  formatPercent,
  parseSubmission,
  SUBMISSION_DOMAINS,
  SUBMISSION_FILE,
  submissionJson,
  submissionView,
  TRAJECTORIES_DIR,
  type ParsedSubmission,
  type SubmissionDomain,
  type SubmissionFile,
  type SubmissionPassK,
  type SubmissionView,
} from './session/tau2/submissions';
