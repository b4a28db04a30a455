import type { HashEvidence } from '../judge/detect';
import { versionLabel } from '../judge/detect/hash-evidence';
import type { Finding } from './findings';

/**
 * The finding on an episode whose recorded gt_data_hash disagrees with the file's majority: it fits
 * `fits` (another data version's reference replay) or no loaded version (null).
 */
export function recordedHashFinding(fits: string | null, evidence: HashEvidence): Finding {
  const own = evidence.fits[0]!;
  const used = versionLabel(own.commit);
  const majority = `${own.episodes.length} of the file's ${evidence.recorded} recorded gt_data_hash values fit ${used}, the data every episode is judged on`;
  const text =
    fits === null
      ? `this episode's recorded gt_data_hash is reproduced by no loaded data version, while ${majority}: it was computed on other data or another way, or edited; the verdict is ${used}'s`
      : `this episode's recorded gt_data_hash is the reference hash on ${versionLabel(fits)} data, while ${majority}: it was computed on other data, or edited; the verdict is ${used}'s`;
  return { kind: 'recorded-hash-minority', group: 'blind-spot', step: null, messageIndex: null, text };
}
