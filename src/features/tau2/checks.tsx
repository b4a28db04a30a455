import { Fragment, useState, type ReactNode } from 'react';
import type { Tau2RecordDiff, Tau2SimView } from '../../core/contract';
import { FieldDiffList } from '../../ui/field-diff-list';
import { FoldedText } from '../../ui/folded-text';
import { safeLabel } from '../../ui/fold';
import { formatRecorded, formatReward, callName, NOT_IN_REWARD, tau2Components } from '../../core/contract';

/** As many fields as the core lists per record (`MAX_FIELDS` in core/view/tau2/db-diff.ts). */
const MAX_FIELDS_SHOWN = 40;

const INT_FLOAT_NOTE =
  'τ² compares sha256(json.dumps(model_dump(), sort_keys=True)), and json.dumps writes 250 and 250.0 differently, so an int where gold has a float (or the reverse) makes the hashes differ even though the numbers are equal.';

const COMPONENT: Record<string, string> = {
  DB: 'DB check',
  ENV_ASSERTION: 'env assertions',
  ACTION: 'actions',
  COMMUNICATE: 'communicate',
  NL_ASSERTION: 'NL assertions',
};

function Section({ title, status, testId, children }: { title: string; status?: ReactNode; testId: string; children: ReactNode }) {
  return (
    <section className="border-b border-slate-200 px-3 py-2" data-testid={testId}>
      <h3 className="flex items-center gap-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">
        {title}
        {status}
      </h3>
      <div className="mt-1 text-xs text-slate-800">{children}</div>
    </section>
  );
}

/** Met / not met, and whether it counts (in the reward basis). */
function Status({ ok, counts }: { ok: boolean | null; counts: boolean }) {
  return (
    <span className="flex items-center gap-1 font-normal tracking-normal normal-case">
      <span
        className={`rounded px-1 text-[10px] font-semibold ${ok === null ? 'bg-slate-100 text-slate-600' : ok ? 'bg-emerald-100 text-emerald-800' : 'bg-rose-100 text-rose-800'}`}
      >
        {ok === null ? 'n/a' : ok ? 'met' : 'not met'}
      </span>
      {!counts && <span className="text-[10px] text-slate-600">{NOT_IN_REWARD}</span>}
    </span>
  );
}

export function CallLink({ index, onCall }: { index: number; onCall: (index: number) => void }) {
  return (
    <button type="button" className="font-mono text-indigo-700 underline underline-offset-2 hover:text-indigo-900" onClick={() => onCall(index)}>
      {callName(index)}
    </button>
  );
}

/** How the reward came out: basis, the product of its components, recorded beside recomputed. */
export function Tau2Verdict({ view }: { view: Tau2SimView }) {
  const parts = Object.entries(view.breakdown ?? {});
  const components = tau2Components(view);
  return (
    <Section title="Verdict" testId="tau2-verdict">
      <p data-recorded-only={view.recordedOnly === true}>
        <span className={`text-base font-semibold tabular-nums ${view.reward === 1 ? 'text-emerald-800' : 'text-rose-800'}`} data-testid="tau2-reward">
          {view.recordedOnly ? formatRecorded(view) : formatReward(view.reward)}
        </span>{' '}
        {view.recordedOnly ? 'as recorded in the file (not recomputed: τ²’s data is not here yet)' : `recomputed · recorded ${formatRecorded(view)}`}
        {view.agrees === false && <span className="ml-1 rounded bg-violet-100 px-1 text-[10px] font-semibold text-violet-800">≠ recorded</span>}
      </p>
      {view.premature ? (
        <p className="mt-1">
          Ended by <span className="font-mono">{safeLabel(view.termination, 60)}</span>, not agent_stop or user_stop: τ² gives 0 and runs no check.
        </p>
      ) : view.error !== null ? (
        <p className="mt-1 text-amber-900">Not judged: {safeLabel(view.error, 1000)}</p>
      ) : (
        <>
          <ol className="mt-1 flex flex-col gap-0.5" aria-label="Components, as τ² computes the reward">
            {components.map((c) => (
              <li
                key={c.component}
                data-testid="tau2-component"
                data-component={c.component}
                data-in-basis={c.inBasis}
                className={c.inBasis ? '' : 'text-slate-600'}
              >
                <span className="font-semibold">{COMPONENT[c.component] ?? c.component}</span>{' '}
                <span className="font-mono tabular-nums">{c.value === null ? '—' : formatReward(c.value)}</span>
                {!c.inBasis && <span className="ml-1 rounded bg-slate-100 px-1 text-[10px]">{NOT_IN_REWARD}</span>}
                <span className="text-slate-600"> — {safeLabel(c.evidence, 1000)}</span>
              </li>
            ))}
          </ol>
          <p className="mt-1" data-testid="tau2-product">
            {parts.length === 0 ? 'No component counts: reward 1.' : parts.map(([k, v]) => `${COMPONENT[k] ?? k} ${formatReward(v)}`).join(' × ')}
            {parts.length > 0 && ` = ${formatReward(view.reward)}`}
            <span className="text-slate-600"> (ended by {safeLabel(view.termination, 60)})</span>
          </p>
        </>
      )}
      {view.note !== null && <p className="mt-1 text-slate-600">{safeLabel(view.note, 500)}</p>}
      {view.findings
        .filter((f) => f.kind === 'evaluate-trajs-differs')
        .map((f) => (
          <p key={f.kind} className="mt-1 rounded bg-amber-50 px-1 text-amber-900" data-testid="tau2-evaluate-trajs">
            {safeLabel(f.text, 1000)}
          </p>
        ))}
    </Section>
  );
}

function RecordDiff({ d, onCall }: { d: Tau2RecordDiff; onCall: (index: number) => void }) {
  return (
    <li className="rounded border border-slate-200 p-1.5" data-testid="tau2-db-record">
      <div className="flex flex-wrap items-center gap-1.5">
        <span className="font-mono font-semibold">
          {d.db === 'user' ? 'user DB · ' : ''}
          {safeLabel(d.table, 80)}
          {d.key !== null && ` / ${safeLabel(d.key, 120)}`}
        </span>
        <span className="text-slate-600" data-testid="tau2-blame">
          {d.blame.length === 0 ? (
            'no call of the agent changed it (the reference actions did)'
          ) : (
            <>
              changed by{' '}
              {d.blame.map((b, i) => (
                <span key={b}>
                  {i > 0 && ', '}
                  <CallLink index={b} onCall={onCall} />
                </span>
              ))}
            </>
          )}
        </span>
      </div>
      <div className="mt-1 rounded border border-slate-200 bg-white">
        <FieldDiffList
          testId="tau2-db-fields"
          left={{ name: 'predicted (after the agent’s calls)', db: 'the predicted DB' }}
          right={{ name: 'gold (after the reference actions)', db: 'the gold DB' }}
          intFloatNote={INT_FLOAT_NOTE}
          rows={d.fields.map((f) => ({ path: f.path, kind: f.kind, left: f.predicted, right: f.gold, intVsFloat: f.intVsFloat }))}
        />
      </div>
      {d.fields.length >= MAX_FIELDS_SHOWN && <p className="text-slate-600">The first {MAX_FIELDS_SHOWN} fields that differ; the whole records below.</p>}
      <details className="mt-1">
        <summary className="cursor-pointer text-[10px] text-slate-600">the whole records</summary>
        <div className="mt-1 grid gap-1 @lg:grid-cols-2">
          <div className="min-w-0">
            <div className="text-[10px] text-slate-600">predicted</div>
            <div className="font-mono text-[11px] break-all">{d.predicted === null ? <i>absent</i> : <FoldedText text={d.predicted} limit={3000} />}</div>
          </div>
          <div className="min-w-0">
            <div className="text-[10px] text-slate-600">gold</div>
            <div className="font-mono text-[11px] break-all">{d.gold === null ? <i>absent</i> : <FoldedText text={d.gold} limit={3000} />}</div>
          </div>
        </div>
      </details>
    </li>
  );
}

const short = (h: string | null): string => (h === null ? '—' : h.slice(0, 12));

/** The DB check: the four hashes, and the records that differ with the calls that changed them. */
export function Tau2DbCheck({ view, onCall }: { view: Tau2SimView; onCall: (index: number) => void }) {
  const basis = new Set(view.basis ?? []);
  if (!view.db)
    return (
      <p className="px-3 py-2 text-xs text-slate-600" data-testid="tau2-db-none">
        No DB check: {view.premature ? 'the simulation ended early (τ² runs no check)' : 'no environment was built (no reference action and no env assertion)'}.
      </p>
    );
  return (
    <Section title="DB check" testId="tau2-db" status={<Status ok={view.db.nondeterministic ? null : view.db.match} counts={basis.has('DB')} />}>
      <p className="font-mono text-[11px] text-slate-600">
        agent DB gold {short(view.db.hashes.goldAgent)} · predicted {short(view.db.hashes.predictedAgent)}
        {(view.db.hashes.goldUser !== null || view.db.hashes.predictedUser !== null) &&
          ` · user DB gold ${short(view.db.hashes.goldUser)} · predicted ${short(view.db.hashes.predictedUser)}`}
      </p>
      {view.db.nondeterministic && <p className="mt-1 text-amber-900">A tool drew a random id: these hashes cannot be reproduced by anyone.</p>}
      {view.db.diffError !== null && <p className="mt-1 text-amber-900">The diff could not be computed: {safeLabel(view.db.diffError, 500)}</p>}
      {view.db.match === true && <p className="mt-1 text-slate-600">The agent’s calls leave the DB as the reference actions do.</p>}
      {view.db.diff.length > 0 && (
        <ul className="mt-1 flex flex-col gap-1.5" aria-label="Records that differ">
          {view.db.diff.map((d) => (
            <RecordDiff key={`${d.db}/${d.table}/${d.key ?? ''}`} d={d} onCall={onCall} />
          ))}
        </ul>
      )}
    </Section>
  );
}

/** How τ² judged it: the verdict, every check but the DB's with its evidence, and the walkthrough. */
export function Tau2Checks({ view, onCall }: { view: Tau2SimView; onCall: (index: number) => void }) {
  const basis = new Set(view.basis ?? []);
  const sections: Record<string, ReactNode> = {
    ENV_ASSERTION: view.envAssertions && view.envAssertions.length > 0 && (
      <Section title="Env assertions" testId="tau2-env" status={<Status ok={view.envAssertions.every((a) => a.met)} counts={basis.has('ENV_ASSERTION')} />}>
        <ul className="flex flex-col gap-1">
          {view.envAssertions.map((a, i) => (
            <li key={i} className="rounded border border-slate-200 p-1.5" data-testid="tau2-env-assertion" data-met={a.met}>
              <div className="font-mono break-all">
                <span className="text-slate-600">{a.envType === 'user' ? 'user · ' : 'agent · '}</span>
                {safeLabel(a.func, 120)}({safeLabel(a.arguments, 2000)})
              </div>
              <div className="mt-0.5">
                expected <span className="font-mono font-semibold">{a.expected}</span>, actual{' '}
                <span className={`font-mono font-semibold ${a.met ? 'text-emerald-800' : 'text-rose-800'}`} data-testid="tau2-env-actual">
                  {safeLabel(a.actual, 500)}
                </span>{' '}
                → {a.met ? 'met' : 'not met'}
              </div>
              {a.message !== null && <div className="text-slate-600">{safeLabel(a.message, 500)}</div>}
            </li>
          ))}
        </ul>
      </Section>
    ),
    ACTION: view.actions && view.actions.length > 0 && (
      <Section title="Reference actions" testId="tau2-actions" status={<Status ok={view.actions.every((a) => a.match)} counts={basis.has('ACTION')} />}>
        <ol className="flex flex-col gap-1">
          {view.actions.map((a, i) => (
            <li key={i} className="rounded border border-slate-200 p-1.5" data-testid="tau2-action" data-match={a.match}>
              <div className="font-mono break-all">
                <span className="text-slate-600">{a.requestor === 'user' ? 'user · ' : ''}</span>
                <span className="font-semibold">{safeLabel(a.name, 120)}</span>({safeLabel(a.arguments, 2000)})
              </div>
              <div className="mt-0.5 text-slate-600">
                {a.compareArgs === null ? 'every argument compared' : `compared: ${a.compareArgs.length === 0 ? 'no argument' : a.compareArgs.join(', ')}`}
                {' · '}
                {a.match ? (
                  <>
                    matched by <CallLink index={a.matchedCall!} onCall={onCall} />
                  </>
                ) : (
                  <span className="text-rose-800">
                    never called with these arguments
                    {a.sameName.length > 0 && (
                      <>
                        {' '}
                        (same tool with other arguments:{' '}
                        {a.sameName.map((c, k) => (
                          <span key={c}>
                            {k > 0 && ', '}
                            <CallLink index={c} onCall={onCall} />
                          </span>
                        ))}
                        )
                      </>
                    )}
                  </span>
                )}
              </div>
            </li>
          ))}
        </ol>
      </Section>
    ),
    COMMUNICATE: view.communicate && view.communicate.length > 0 && (
      <Section title="Communicate" testId="tau2-communicate" status={<Status ok={view.communicate.every((c) => c.met)} counts={basis.has('COMMUNICATE')} />}>
        <ul className="flex flex-col gap-0.5">
          {view.communicate.map((c, i) => (
            <li key={i} data-testid="tau2-communicate-info" data-met={c.met}>
              <span className="font-mono font-semibold">“{safeLabel(c.info, 300)}”</span>{' '}
              {c.met ? `found in message #${c.messageIndex} (marked there)` : 'in no assistant message (lower-cased, commas removed)'}
            </li>
          ))}
        </ul>
      </Section>
    ),
    NL_ASSERTION: view.nl && view.nl.length > 0 && (
      <Section title="NL assertions" testId="tau2-nl" status={<Status ok={view.nl.every((c) => c.met === true)} counts={basis.has('NL_ASSERTION')} />}>
        <p className="mb-1 rounded bg-teal-50 px-1.5 py-0.5 text-teal-900" data-testid="tau2-nl-recorded">
          Judged by an LLM when the run was made, not recomputed: shown as recorded.
        </p>
        <ul className="flex flex-col gap-1">
          {view.nl.map((c, i) => (
            <li key={i}>
              <span className={c.met === true ? 'text-emerald-800' : 'text-rose-800'}>{c.met === null ? 'no verdict' : c.met ? 'met' : 'not met'}</span>:{' '}
              {safeLabel(c.assertion, 1000)}
              {c.justification !== null && <div className="text-slate-600">{safeLabel(c.justification, 2000)}</div>}
            </li>
          ))}
        </ul>
      </Section>
    ),
  };
  // The task's reward_basis first, in its order, then the checks that do not count.
  const order = [...(view.basis ?? []).filter((k) => k in sections), ...Object.keys(sections).filter((k) => !basis.has(k))];
  return (
    <>
      <Tau2Verdict view={view} />
      {order.map((k) => (
        <Fragment key={k}>{sections[k]}</Fragment>
      ))}
      <Walkthrough lines={view.walkthrough} />
    </>
  );
}

/** "How τ² judged this simulation": the CLI's `explain`, line by line. */
function Walkthrough({ lines }: { lines: readonly string[] }) {
  const [open, setOpen] = useState(true);
  return (
    <Section
      title="How τ² judged this simulation"
      testId="tau2-walkthrough"
      status={
        <button type="button" className="font-normal text-indigo-700 normal-case hover:underline" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'hide' : 'show'}
        </button>
      }
    >
      {open && (
        <ol className="flex flex-col gap-0.5 font-mono text-[11px] whitespace-pre-wrap">
          {lines.map((l, i) => (
            <li key={i}>{safeLabel(l, 4000)}</li>
          ))}
        </ol>
      )}
    </Section>
  );
}
