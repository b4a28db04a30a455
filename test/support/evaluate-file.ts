import type { Domain } from '../../src/core/model/data/db';
import type { DataVersion } from '../../src/core/model/data/versions';
import type { EpisodeRecord } from '../../src/core/model/episode/types';
import type { FileOptions } from '../../src/core/judge/detect';
import { InspectSession } from '../../src/core/session/session';

/** A whole file judged through the session, as the CLI does it: detection, every episode, the settled rule. */
export function evaluateFile(records: readonly EpisodeRecord[], versionsFor: (domain: Domain) => readonly DataVersion[], options: FileOptions = {}) {
  const session = new InspectSession(records, options);
  session.useData(versionsFor(session.domain));
  const reports = session.evaluateAll();
  const d = session.detection();
  return {
    session,
    domain: d.domain,
    version: session.dataVersion!,
    rule: d.rule,
    ruleWhy: d.ruleWhy,
    versionWhy: d.versionWhy,
    outcomes: records.map((_, i) => session.evaluation(i)),
    reports,
  };
}

export type FileEvaluation = ReturnType<typeof evaluateFile>;
