/**
 * The what-if section of both reports (τ-bench's and τ²'s): the edits the app's report was made with, in words, the
 * reward before → after, and what changed between the recorded run and the edited one, as each benchmark words it.
 * HTML; every text through `escapeHtml`.
 */
import { formatReward } from './format';
import { escapeHtml as e } from './report-html';

export { WHAT_IF_CSS } from './report-html';

/** One thing the edits changed: what (with an aside in smaller print), and its state before and after. */
export interface WhatIfChange {
  readonly what: string;
  readonly aside?: string;
  readonly before: string;
  readonly after: string;
}

/** What the edited run gave: an error (the edits could not be applied), or its reward and what changed. */
export type WhatIfOutcome =
  | { readonly error: string }
  | {
      readonly rewardBefore: number;
      readonly rewardAfter: number;
      /** The table's column heads: what, before, after. */
      readonly columns: readonly [string, string, string];
      readonly changes: readonly WhatIfChange[];
      /** Said when nothing changed. */
      readonly unchanged: string;
      /** What the edits dropped from the run, in words. */
      readonly removed: readonly string[];
      /** The benchmark's caveat of an edited run. */
      readonly note: string;
    };

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The section: `note` says what the edited run is beside the recorded one (which the rest of the report shows), `edits`
 * are the edits in words.
 */
export function whatIfSectionHtml(note: string, edits: readonly string[], outcome: WhatIfOutcome): string {
  const head = `<h3>What-if: ${plural(edits.length, 'edit')} made in the app</h3><p class="note">${e(note)}</p><ol>${edits.map((x) => `<li>${e(x)}</li>`).join('')}</ol>`;
  const open = `<div class="whatif" data-testid="report-what-if">${head}`;
  if ('error' in outcome) return `${open}<p class="fail">The edits could not be applied: ${e(outcome.error)}</p></div>`;
  const o = outcome;
  const [what, before, after] = o.columns;
  const table =
    o.changes.length > 0
      ? `<table><thead><tr><th>${e(what)}</th><th>${e(before)}</th><th>${e(after)}</th></tr></thead><tbody>${o.changes
          .map((c) => `<tr><td>${e(c.what)}${c.aside ? ` <span class="note">${e(c.aside)}</span>` : ''}</td><td>${e(c.before)}</td><td>${e(c.after)}</td></tr>`)
          .join('')}</tbody></table>`
      : `<p class="note">${e(o.unchanged)}</p>`;
  return `${open}<p>reward ${e(formatReward(o.rewardBefore))} → <b class="${o.rewardAfter === 1 ? 'pass' : 'fail'}">${e(formatReward(o.rewardAfter))}</b></p>${table}${
    o.removed.length > 0 ? `<p class="note">dropped: ${o.removed.map(e).join('; ')}</p>` : ''
  }<p class="note">${e(o.note)}</p></div>`;
}
