/**
 * Detection of a results file's domain, data version and reward rule, each with a sentence
 * saying why. The only place that decides them; the session asks here. One file per detection:
 * `domain.ts` (and `FileTally`, what is gathered from each episode while the file is read),
 * `version.ts`, `rule.ts`. No state lives here: the session holds its file's tally and passes
 * what a detection needs.
 */
export { EvaluationSetupError, FileTally, guessDomainFromText, type AddressHint, type DomainDetection, type FileOptions } from './domain';
export {
  chooseVersion,
  countRecordedMatches,
  detectDataVersion,
  guessDataCommitFromText,
  preferredVersion,
  recordedHashSample,
  unknownDataNote,
  type VersionDetection,
} from './version';
export { detectRule, disagreementNotes, hasFractionalRewards, ruleEvidence, type RewardEvidence, type RuleDetection, type RuleEvidence } from './rule';
export { hashEvidenceText, type HashEvidence, type HashFit } from './hash-evidence';
