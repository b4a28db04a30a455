/**
 * What τ² does not count: facts about a simulation that its reward does not show. Heuristics and
 * reminders, never part of the reward.
 */
import { pyLower } from '../../py/lower';
import type { TValue } from '../../py/pydantic';
import type { Tau2Evaluation } from '../../judge/tau2/evaluate';
import { BANKING } from '../../model/domains/tau2/banking';
import { requiredCoverage } from './retrieval';
import { callName, callNames } from './numbering';
import { tau2ProcedureFindings, type Tau2ProcedureKind } from './procedure';

/** banking_knowledge's discoverable agent tools that change nothing (their calls are logged only when allowlisted). */
const READ_DISCOVERABLE: ReadonlySet<string> = new Set(BANKING.agent.tools.filter((t) => t.discoverable && !t.mutates).map((t) => t.name));

export type Tau2FindingKind =
  | 'no-op-reference'
  | 'ignored-action-check'
  | 'nl-recorded'
  | 'info-inside-number'
  | 'recorded-pass-recomputed-fail'
  | 'recorded-fail-recomputed-pass'
  | 'output-differs'
  | 'random-hash'
  | 'recorded-differs'
  | 'gold-action-raises'
  | 'gold-info-unseen'
  | 'gold-assertion-fails'
  | 'read-log'
  | 'required-documents'
  | 'evaluate-trajs-differs'
  | Tau2ProcedureKind;

export interface Tau2Finding {
  readonly kind: Tau2FindingKind;
  readonly text: string;
  /** `procedure`: what the domain's policy asks and τ²'s reward ignores (procedure.ts); absent: about how τ² judged. */
  readonly group?: 'procedure';
  /** The call (`Tau2CallView.index`) and message that show it. */
  readonly call?: number;
  readonly message?: number;
}

const DIGIT = /\d/;

/** Whether every place `info` occurs in an assistant message (as τ² searches) sits inside a longer number. */
function onlyInsideNumbers(e: Tau2Evaluation, info: string): boolean {
  const needle = pyLower(info);
  if (!/^\d/.test(needle) && !/\d$/.test(needle)) return false;
  let found = false;
  // A full-duplex simulation: the agent's merged speech, as τ²'s communicate check reads it.
  const said = e.simulation.fullDuplex ? (e.spoken ?? []).map((m) => ({ role: 'assistant', content: m.content })) : e.simulation.messages;
  for (const m of said) {
    if (m.role !== 'assistant' || m.content === null) continue;
    const hay = pyLower(m.content).replaceAll(',', '');
    for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
      found = true;
      const before = hay[i - 1] ?? '';
      const after = hay[i + needle.length] ?? '';
      const inside = (DIGIT.test(needle[0]!) && (DIGIT.test(before) || before === '.')) || (DIGIT.test(needle[needle.length - 1]!) && DIGIT.test(after));
      if (!inside) return false;
    }
  }
  return found;
}

export function tau2Findings(e: Tau2Evaluation): Tau2Finding[] {
  const out: Tau2Finding[] = [];
  const basis = e.rewardBasis ?? [];
  if (e.dbHashNondeterministic)
    out.push({
      kind: 'random-hash',
      text: "A tool drew a random bill id (telecom's refuel_data without a draft bill): this DB hash cannot be reproduced by anyone, so the DB check is not comparable.",
    });
  if (e.dbHash && basis.includes('DB') && e.dbHash.goldAgent === e.initialDbHash.agent && e.dbHash.goldUser === e.initialDbHash.user)
    out.push({ kind: 'no-op-reference', text: "The task's reference actions leave the DB as it started: an agent that changes nothing passes the DB check." });
  if (e.actionChecks && !basis.includes('ACTION')) {
    const failed = e.actionChecks.filter((c) => !c.actionMatch);
    if (failed.length > 0)
      out.push({
        kind: 'ignored-action-check',
        text: `${failed.length} of ${e.actionChecks.length} reference action${e.actionChecks.length === 1 ? '' : 's'} not called as written (${failed.map((c) => c.action.name).join(', ')}), but ACTION is not in the reward basis: it does not count.`,
      });
  }
  if (basis.includes('NL_ASSERTION'))
    out.push({
      kind: 'nl-recorded',
      text: e.nlUnrecorded
        ? "NL assertions are part of the reward, but the file records no verdict of them: τ² would ask an LLM; they are counted as met here, so this reward may not be τ²'s."
        : 'NL assertions are part of the reward: judged by an LLM when the run was made, taken from the file as recorded, not recomputed.',
    });
  for (const c of e.communicateChecks ?? [])
    if (c.met && onlyInsideNumbers(e, c.info))
      out.push({ kind: 'info-inside-number', text: `Required information '${c.info}' was found only inside a longer number.` });
  const recorded = e.simulation.rewardInfo?.get('reward');
  // A simulation given no verdict (e.error) has no recomputed reward to hold against the recorded one.
  const rec = e.error !== null ? null : typeof recorded === 'number' ? recorded : typeof recorded === 'bigint' ? Number(recorded) : null;
  if (rec !== null && rec === 1 && e.reward !== 1)
    out.push({
      kind: 'recorded-pass-recomputed-fail',
      text: `The file records a pass (reward ${rec}); recomputed, the simulation fails (reward ${e.reward}).`,
    });
  if (rec !== null && rec !== 1 && e.reward === 1)
    out.push({ kind: 'recorded-fail-recomputed-pass', text: `The file records reward ${rec}; recomputed, the simulation passes.` });
  for (const text of recordedDifferences(e)) out.push({ kind: 'recorded-differs', text });
  for (const g of e.goldActionErrors ?? [])
    out.push({
      kind: 'gold-action-raises',
      text: `Gold action ${g.index + 1} (${g.name}) raises: ${g.error}, the gold DB lacks it (τ² only logs a gold action's exception and goes on).`,
    });
  for (const a of e.gold?.failingAssertions ?? [])
    out.push({
      kind: 'gold-assertion-fails',
      text: `Env assertion ${a.index + 1} (${a.func}) ${a.error === null ? 'fails' : `raises (${a.error})`} on the gold replay itself (the reference actions replayed as τ² replays them, the toolkits synced once after): check the task before blaming the agent.`,
    });
  if (e.gold && e.gold.unseenInfo.length > 0)
    out.push({
      kind: 'gold-info-unseen',
      text: `Required information ${e.gold.unseenInfo.map((s) => `'${s}'`).join(', ')} is in no tool output of the reference actions: the agent cannot read it from the tools as written (it may be computed from them, or come from the user or the policy).`,
    });
  if (e.requiredDocuments && e.requiredDocuments.length > 0 && !e.premature && e.error === null && e.reward !== 1) {
    const { found, missing } = requiredCoverage(e, e.requiredDocuments);
    out.push({
      kind: 'required-documents',
      text:
        missing.length === 0
          ? `The agent retrieved every document the task requires (${found.map((f) => `${f.id} in ${callName(f.call)}`).join(', ')}), and still failed.`
          : `The agent never retrieved ${missing.length === e.requiredDocuments.length ? 'any of the documents' : `${missing.length} of the ${e.requiredDocuments.length} documents`} the task requires: ${missing.join(', ')}` +
            (found.length > 0 ? `; it did retrieve ${found.map((f) => `${f.id} (${callName(f.call)})`).join(', ')}.` : '.'),
    });
  }
  const trajs = evaluateTrajsText(e);
  if (trajs !== null) out.push({ kind: 'evaluate-trajs-differs', text: trajs });
  const readLog = readLogText(e);
  if (readLog !== null) out.push({ kind: 'read-log', text: readLog });
  const URL = /errors\.pydantic\.dev\/\d+\.\d+\//g;
  const differs = e.toolCalls.filter((c) => c.output !== null && c.recordedOutput !== null && c.output.replace(URL, '') !== c.recordedOutput.replace(URL, ''));
  if (differs.length > 0)
    out.push({
      kind: 'output-differs',
      text: `${differs.length} tool output${differs.length === 1 ? '' : 's'} replayed differently from the recorded one (${callNames(differs.map((c) => c.index))}).${writeDiffers(differs)}`,
    });
  out.push(...tau2ProcedureFindings(e));
  return out;
}

/** What a differing write means: no run made on this data records it (run time replays strictly); the verdict is evaluate-trajs' lenient one. */
function writeDiffers(differs: readonly Tau2Evaluation['toolCalls'][number][]): string {
  const w = differs.find((c) => c.evaluatorReplayed);
  if (w === undefined) return '';
  return ` A run made on this data cannot have recorded ${callName(w.index)} (${w.name}): τ² replays writes strictly when a run is made and would have raised ValueError there, before any reward. The outputs were edited or made on other data; the verdict is the one tau2 evaluate-trajs gives (it replays leniently).`;
}

/** Where `tau2 evaluate-trajs` would give another verdict than the one the run was judged by, and which of its rules differ. */
function evaluateTrajsText(e: Tau2Evaluation): string | null {
  const t = e.evaluateTrajs;
  if (t === undefined) return null;
  const verdict = (reward: number | null, error: string | null): string => (error === null ? `reward ${reward}` : `no verdict (${error})`);
  const why = t.rules.map((r) =>
    r === 'solo'
      ? 'it decides solo mode otherwise (is_solo_mode: only llm_agent_solo with dummy_user; at run time every solo agent, llm_agent_solo_gt too, ran and was judged in solo mode)'
      : `it replays leniently: ${e.strictRaises ? `${e.strictRaises.gold ? "in the task's message history, " : ''}${callName(e.strictRaises.index)} (${e.strictRaises.name})` : 'a write'} replays to another output than the recorded one, where the strict replay of run time raises`,
  );
  return `tau2 evaluate-trajs (v1.0.1) would give ${verdict(t.reward, t.error)}; judged as the run was judged, ${verdict(e.error === null ? e.reward : null, e.error)}: ${why.join('; ')} (#502).`;
}

const boolList = (v: TValue | undefined, key: string): (boolean | null)[] | null =>
  Array.isArray(v) ? v.map((x) => (x instanceof Map && typeof x.get(key) === 'boolean' ? (x.get(key) as boolean) : null)) : null;

/** Each component the file records that the recomputation does not reproduce, in words (with the likely cause). */
export function recordedDifferences(e: Tau2Evaluation): string[] {
  const ri = e.simulation.rewardInfo;
  if (ri === null || e.premature || e.error !== null) return [];
  const out: string[] = [];
  const basis = ri.get('reward_basis');
  if (Array.isArray(basis) && e.rewardBasis && basis.join(',') !== e.rewardBasis.join(','))
    out.push(
      `The file records reward basis ${basis.join(', ')}; the task in the file says ${e.rewardBasis.join(', ')}: the run was judged by another version of τ²'s rule.`,
    );
  const db = ri.get('db_check');
  const recordedDb = db instanceof Map ? db.get('db_match') : undefined;
  if (typeof recordedDb === 'boolean' && e.dbMatch !== null && recordedDb !== e.dbMatch)
    out.push(`The file records db_match ${recordedDb}; recomputed, it is ${e.dbMatch}.`);
  const pairs: [string, string, (boolean | null)[] | null, boolean[] | null][] = [
    ['env assertions', 'met', boolList(ri.get('env_assertions'), 'met'), e.envAssertions?.map((c) => c.met) ?? null],
    ['action checks', 'action_match', boolList(ri.get('action_checks'), 'action_match'), e.actionChecks?.map((c) => c.actionMatch) ?? null],
    ['communicate checks', 'met', boolList(ri.get('communicate_checks'), 'met'), e.communicateChecks?.map((c) => c.met) ?? null],
  ];
  for (const [name, , rec, got] of pairs)
    if (rec !== null && got !== null && (rec.length !== got.length || rec.some((x, i) => x !== got[i])))
      out.push(`The file records ${name} ${JSON.stringify(rec)}; recomputed: ${JSON.stringify(got)}.`);
  return out;
}

/**
 * banking_knowledge: which reads of discoverable tools, called through `call_discoverable_agent_tool`, were logged into
 * the hashed DB and why (τ² v1.0.1 logs a read only when the task's gold actions call that tool, #329).
 */
const REFUSED = /^Error: (Unknown agent tool '|Tool '[^']*' has not been unlocked\.|Invalid JSON in arguments: |Invalid arguments: )/;

function readLogText(e: Tau2Evaluation): string | null {
  if (e.readLogAllowlist === undefined) return null;
  const allow = new Set(e.readLogAllowlist);
  const logged = new Set<string>();
  const skipped = new Set<string>();
  for (const c of e.toolCalls) {
    // Python parity: call_discoverable_agent_tool logs once the tool has returned (its own "Error: …" answers included);
    // not when it refuses the call (unknown, locked, bad JSON, arguments that do not bind) or the tool raised.
    if (c.name !== 'call_discoverable_agent_tool' || c.output === null || c.error || REFUSED.test(c.output)) continue;
    const target = c.arguments.get('agent_tool_name');
    if (typeof target !== 'string' || !READ_DISCOVERABLE.has(target)) continue;
    (allow.has(target) ? logged : skipped).add(target);
  }
  if (logged.size === 0 && skipped.size === 0) return null;
  const list = (s: Set<string>): string => [...s].join(', ');
  return [
    logged.size > 0 ? `Reads logged into the hashed DB (agent_discoverable_tools), because the task's gold actions call them: ${list(logged)}.` : '',
    skipped.size > 0 ? `Reads not logged, because no gold action calls them (τ² v1.0.1 ignores extra reads, #329): ${list(skipped)}.` : '',
  ]
    .filter((x) => x !== '')
    .join(' ');
}
