/** Detection of a results file's domain (from tool names and policy headings), and what its content shows before any data. */
import type { Domain } from '../../model/data/db';
import { DOMAINS } from '../../model/data/db';
import type { RewardRule } from '../../model/data/versions';
import { domainOnlyTools } from '../../model/domains/registry';
import type { EpisodeRecord } from '../../model/episode/types';
import { dumpsFloat } from '../../py/json-dumps';

export interface FileOptions {
  readonly domain?: Domain;
  /** Full or short commit to use instead of detecting the data version. */
  readonly dataVersion?: string;
  readonly rule?: RewardRule;
}

export class EvaluationSetupError extends Error {}

export interface DomainDetection {
  readonly domain: Domain | null;
  readonly why: string;
}

/** Which address field names the recorded tool outputs show (the data version's hint). */
export type AddressHint = 'state' | 'province' | null;

/**
 * What detection needs from every episode's messages, gathered one episode at a time (in file
 * order), so a reader can let go of each episode's messages once it has been added: the domain
 * votes, the notes on the file's content, the address-field hint.
 */
/** Partial credit: a finite recorded reward strictly between 0 and 1 (τ-bench writes 0.0 or 1.0). */
export const isPartialCredit = (x: number | null): boolean => x !== null && Number.isFinite(x) && x > 0 && x < 1;
/** A recorded reward that is not a number, or a number outside [0, 1]: no evaluator's reward. */
const isOddReward = (r: EpisodeRecord): boolean =>
  r.recordedRewardText !== undefined || (r.recordedReward !== null && (r.recordedReward < 0 || r.recordedReward > 1));

const ONLY: Record<Domain, ReadonlySet<string>> = { retail: domainOnlyTools('retail'), airline: domainOnlyTools('airline') };
/**
 * Each domain's policy heading after its `#`: `#\s*retail agent policy`, any case. A system message of every episode
 * holds a whole policy, and this runs for every episode judged, so the heading is tried only where a `#` is (a
 * case-blind pattern is otherwise tried at every character of the policy).
 */
const HEADING: Record<Domain, RegExp> = { retail: /\s*retail agent policy/iy, airline: /\s*airline agent policy/iy };
function hasHeading(text: string, d: Domain): boolean {
  const re = HEADING[d];
  for (let i = text.indexOf('#'); i !== -1; i = text.indexOf('#', i + 1)) {
    re.lastIndex = i + 1;
    if (re.test(text)) return true;
  }
  return false;
}
/** What `domainMentions` names a policy heading. */
const POLICY = 'policy heading';
/** Mentions of the other domain (and none of its policy: that counts 5) below which an episode is not taken for another run's. */
const MIN_FOREIGN = 3;

/**
 * Every mention in one episode that only one domain has, with its weight: a reference action's or a
 * called tool's name (1 each, as often as it appears), the domain's policy heading in a system message (5).
 */
export function domainMentions(r: EpisodeRecord, see: (domain: Domain, name: string, weight: number) => void): void {
  const tool = (name: unknown): void => {
    if (typeof name === 'string') for (const d of DOMAINS) if (ONLY[d].has(name)) see(d, name, 1);
  };
  for (const a of r.task?.actions ?? []) tool(a.name);
  for (const m of r.traj) {
    const role = m.get('role');
    const content = m.get('content');
    if (role === 'system' && typeof content === 'string') for (const d of DOMAINS) if (hasHeading(content, d)) see(d, POLICY, 5);
    if (role === 'tool') tool(m.get('name'));
    const calls = m.get('tool_calls');
    if (Array.isArray(calls))
      for (const c of calls) {
        const fn = c instanceof Map ? c.get('function') : undefined;
        tool(fn instanceof Map ? fn.get('name') : undefined);
      }
    if (role === 'assistant' && typeof content === 'string' && content.includes('Action:'))
      for (const m2 of content.matchAll(/"name"\s*:\s*"([a-z_]+)"/g)) tool(m2[1]!);
  }
}

/**
 * Why one episode of a `domain` file cannot be judged there: its own messages mention the other
 * domain's tools or policy more than this domain's, at least `MIN_FOREIGN` times, and not this
 * domain's policy (an episode of another run, pasted into this file). Null when it fits `domain`,
 * or says too little either way.
 */
export function otherDomainProblem(r: EpisodeRecord, domain: Domain): string | null {
  const other: Domain = domain === 'retail' ? 'airline' : 'retail';
  let own = 0;
  let theirs = 0;
  let ownPolicy = false;
  const names = new Set<string>();
  domainMentions(r, (d, name, weight) => {
    if (d === domain) {
      own += weight;
      if (name === POLICY) ownPolicy = true;
    } else {
      theirs += weight;
      names.add(name);
    }
  });
  // The file's own policy in the episode's system message settles it: τ-bench's agents put it there, so an agent of
  // this run that calls the other domain's tools by mistake, however often (each answered "Unknown action"), is judged
  // as τ-bench judged it. Without a policy to tell, a few mentions of the other domain are not enough either.
  if (ownPolicy || theirs <= own || theirs < MIN_FOREIGN) return null;
  return (
    `this episode belongs to a ${other} run: it mentions ${other}-only tools or headings ${theirs} times (${[...names].slice(0, 4).join(', ')})` +
    `${own ? ` and ${domain}'s ${own}` : ` and nothing of ${domain}`}, while the file is ${domain}; it is not judged against ${domain} task ${r.taskId ?? '?'}`
  );
}

export class FileTally {
  private readonly votes: Record<Domain, number> = { retail: 0, airline: 0 };
  private readonly evidence: Record<Domain, Set<string>> = { retail: new Set(), airline: new Set() };
  private count = 0;
  private episodes = 0;
  private firstProblem: EpisodeRecord | null = null;
  private fractional = 0;
  private odd = 0;
  private firstOdd: EpisodeRecord | null = null;
  private firstFractional: EpisodeRecord | null = null;
  private literal = 0;
  private think = 0;
  private readonly roles = new Map<string, number>();
  private readonly firstLiteral: number[] = [];
  private hint: AddressHint = null;
  private hintAt = Infinity;

  /** Adds an episode (episodes with messages in file order; the order of others does not matter). */
  add(r: EpisodeRecord): void {
    this.count++;
    if (r.task !== null || r.traj.length > 0) this.episodes++;
    if (r.problem !== null && (this.firstProblem === null || r.index < this.firstProblem.index)) this.firstProblem = r;
    if (isOddReward(r)) {
      this.odd++;
      if (this.firstOdd === null || r.index < this.firstOdd.index) this.firstOdd = r;
    }
    if (isPartialCredit(r.recordedReward)) {
      this.fractional++;
      if (this.firstFractional === null || r.index < this.firstFractional.index) this.firstFractional = r;
    }
    domainMentions(r, (d, name, weight) => {
      this.votes[d] += weight;
      this.evidence[d].add(name);
    });
    let rl = false;
    let rt = false;
    for (const m of r.traj) {
      const role = m.get('role');
      const content = m.get('content');
      if (typeof role === 'string' && !['system', 'user', 'assistant', 'tool'].includes(role)) this.roles.set(role, (this.roles.get(role) ?? 0) + 1);
      if (typeof content === 'string' && content.includes('<think>')) rt = true;
      const calls = m.get('tool_calls');
      if (Array.isArray(calls))
        for (const c of calls) {
          const fn = c instanceof Map ? c.get('function') : undefined;
          const args = fn instanceof Map ? fn.get('arguments') : undefined;
          if (typeof args === 'string' && /^\s*\{\s*'/.test(args)) rl = true;
        }
      if (r.index < this.hintAt && typeof content === 'string' && content.includes('"address1"')) {
        const h = content.includes('"province"') ? 'province' : /"country": "[^"]*", "state"/.test(content) ? 'state' : null;
        if (h) {
          this.hint = h;
          this.hintAt = r.index;
        }
      }
    }
    if (rl) {
      this.literal++;
      if (this.firstLiteral.length < 5) this.firstLiteral.push(r.index);
    }
    if (rt) this.think++;
  }

  domain(): DomainDetection {
    const votes = this.votes;
    if (votes.retail === 0 && votes.airline === 0) return { domain: null, why: 'no tool or policy heading that only one domain has' };
    const domain: Domain = votes.retail >= votes.airline ? 'retail' : 'airline';
    const other: Domain = domain === 'retail' ? 'airline' : 'retail';
    const names = [...this.evidence[domain]].slice(0, 4).join(', ');
    return {
      domain,
      why: `${votes[domain]} mentions of ${domain}-only tools or headings (${names})${votes[other] ? `, ${votes[other]} of ${other}` : ''}`,
    };
  }

  /** Chooses the domain of the file (or takes the given one). */
  chooseDomain(options: FileOptions): DomainDetection & { readonly domain: Domain } {
    if (this.episodes === 0) {
      if (this.count === 0) throw new EvaluationSetupError('no episodes: the file is an empty list');
      const first = this.firstProblem;
      throw new EvaluationSetupError(
        `no episodes: none of the file's ${this.count} entries holds a task or a message${first ? ` (episode ${first.index}: ${first.problem})` : ''}`,
      );
    }
    if (options.domain) return { domain: options.domain, why: 'given' };
    const d = this.domain();
    if (!d.domain) throw new EvaluationSetupError(`cannot tell the domain (${d.why})`);
    return { domain: d.domain, why: d.why };
  }

  /** The first recorded address (in file order) says which field names the data has. */
  addressHint(): AddressHint {
    return this.hint;
  }

  /** What the file's own content shows that τ-bench's run.py does not write (known at reading, before any data). */
  notes(): string[] {
    const notes: string[] = [];
    if (this.fractional > 0)
      notes.push(
        `${this.fractional} of ${this.count} episodes record a reward strictly between 0 and 1 (e.g. episode ${this.firstFractional!.index}: ${dumpsFloat(
          this.firstFractional!.recordedReward!,
        )}): τ-bench's rewards are 0.0 or 1.0, so this file was scored by another evaluator (partial credit); tau-inspect gives τ-bench's reward, which cannot equal such a value`,
      );
    if (this.odd > 0) {
      const r = this.firstOdd!;
      notes.push(
        `${this.odd} of ${this.count} episodes record a reward τ-bench never writes (e.g. episode ${r.index}: ${r.recordedRewardText ?? dumpsFloat(r.recordedReward!)}): shown as recorded, not counted as a recorded reward; each is judged as usual`,
      );
    }
    const { literal, think, roles, firstLiteral } = this;
    if (literal > 0)
      notes.push(
        `${literal} episodes write tool arguments as Python literals ({'key': 'value'}) rather than JSON (episodes ${firstLiteral.join(', ')}${
          literal > 5 ? ', …' : ''
        }): τ-bench's json.loads rejects them, so those calls are judged as the crash τ-bench's agent would have had`,
      );
    if (think > 0)
      notes.push(
        `${think} episodes carry <think> blocks (a reasoning model's thoughts) in their messages: τ-bench keeps them in the text, so they count when required outputs are looked for`,
      );
    if (roles.size > 0)
      notes.push(
        `messages with roles τ-bench does not write (${[...roles].map(([k, n]) => `${JSON.stringify(k)} ×${n}`).join(', ')}): they are shown; τ-bench's actions come only from assistant messages`,
      );
    return notes;
  }
}

/** A cheap guess of the domain from the raw text, so data can be read while the file is parsed. */
export function guessDomainFromText(text: string): Domain | null {
  const score = (d: Domain): number => [...domainOnlyTools(d)].filter((name) => text.includes(`"${name}"`)).length;
  const r = score('retail');
  const a = score('airline');
  return r === a ? null : r > a ? 'retail' : 'airline';
}
