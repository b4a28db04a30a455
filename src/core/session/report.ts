import type { EpisodeNotes } from '../view/notes';
import { passHatK } from '../view/pass-k';
import { reportHtml } from '../view/report-html';
import { isSuccess } from '../view/pass-k';
import type { InspectSession } from './session';

export interface ReportOptions {
  /** The results file's name. */
  readonly title: string;
  /** Notes by episode index (the caller matched fingerprints). */
  readonly notes?: ReadonlyMap<number, EpisodeNotes>;
  /** Walkthrough, findings…: extra sections by episode index, where they exist. */
  readonly sections?: (index: number) => readonly { readonly title: string; readonly text: string }[];
  readonly generatedAt?: string;
}

/**
 * The offline report of a whole run (the CLI's `report` and the app's "Download report"):
 * evaluates every episode, settles the rule, and renders every failed episode in full.
 */
export function sessionReportHtml(session: InspectSession, o: ReportOptions): string {
  session.finish();
  const d = session.detection();
  const headers = session.headers();
  const summaries = session.summaries();
  return reportHtml({
    title: o.title,
    domain: d.domain,
    dataCommit: d.dataCommit,
    rule: d.rule,
    generatedAt: o.generatedAt ?? new Date().toISOString(),
    passK: passHatK(
      summaries.flatMap((s, i) => {
        const h = headers[i]!;
        return h.taskId === null ? [] : [{ taskId: h.taskId, trial: h.trial ?? 0, reward: s.reward ?? 0 }];
      }),
    ),
    episodes: headers.map((header, i) => {
      const summary = summaries[i]!;
      const failed = summary.reward === null || !isSuccess(summary.reward);
      const v = failed && summary.error === null ? session.view(i) : null;
      return {
        header,
        summary,
        view: v && !('error' in v) ? v : null,
        notes: o.notes?.get(i) ?? null,
        ...(o.sections && { sections: o.sections(i) }),
      };
    }),
  });
}
