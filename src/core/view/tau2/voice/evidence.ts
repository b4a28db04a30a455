/**
 * The evidence of a full-duplex simulation's communicate checks: the agent's (and, the same way, the user's) speech
 * merged as τ² merges it, and for each check the merged text it was found in, or the nearest miss.
 */
import { pyLower } from '../../../py/lower';
import { mergedAgentSpeech, type MergedSpeech } from '../../../model/episode/tau2/ticks';
import type { Tau2Tick } from '../../../model/episode/tau2/types';
import type { Tau2Evaluation } from '../../../judge/tau2/evaluate';
import { communicateSpan } from '../communicate-span';
import { callName } from '../numbering';

export type VoiceSpeaker = 'agent' | 'user';

/** Ticks are named by their `tick_id`; `end` is exclusive (the first tick after). */
export interface TickRange {
  readonly start: number;
  readonly end: number;
}

export interface VoiceTranscriptLine extends TickRange {
  readonly speaker: VoiceSpeaker;
  readonly text: string;
  readonly utteranceIds: readonly string[];
  /** The ticks of its chunks. */
  readonly ticks: readonly number[];
}

export type NearMissKind = 'space-between-utterances' | 'split-across-messages' | 'said-by-user' | 'in-tool-output' | 'partial';

export interface VoiceCommunicate {
  readonly info: string;
  readonly met: boolean;
  /** Where τ² found it: the merged agent message (its index among the agent's merged messages), its text, the span and the ticks of the span's chunks. */
  readonly found: {
    readonly line: number;
    readonly text: string;
    readonly span: { start: number; end: number } | null;
    readonly ticks: readonly number[];
  } | null;
  /** Not found: the nearest miss, in words, with the text and ticks it is in. */
  readonly nearMiss: { readonly kind: NearMissKind; readonly text: string; readonly ticks: readonly number[]; readonly why: string } | null;
}

/** The chunks of a speaker grouped as τ² groups the agent's for its communicate check, each group merged. */
export function mergedOf(ticks: readonly Tau2Tick[], who: VoiceSpeaker): MergedSpeech[] {
  if (who === 'agent') return mergedAgentSpeech(ticks);
  // The same rule on the user's chunks (moved to the agent's side, which is what mergedAgentSpeech reads).
  return mergedAgentSpeech(ticks.map((t) => ({ ...t, agentChunk: t.userChunk && { ...t.userChunk, isAudio: false } })));
}

/** Merged messages as transcript lines. */
export function speechLines(speech: readonly MergedSpeech[], who: VoiceSpeaker): VoiceTranscriptLine[] {
  return speech.map((m) => ({
    speaker: who,
    text: m.content ?? '',
    utteranceIds: m.utteranceIds,
    ticks: m.ticks,
    start: m.ticks[0]!,
    end: m.ticks[m.ticks.length - 1]! + 1,
  }));
}

const lowered = (s: string): string => pyLower(s).replaceAll(',', '');

/** Where an info τ² did not find comes closest to being said (see NearMissKind). */
export function nearMiss(
  info: string,
  speech: readonly MergedSpeech[],
  agent: readonly VoiceTranscriptLine[],
  user: readonly VoiceTranscriptLine[],
  e: Tau2Evaluation,
): VoiceCommunicate['nearMiss'] {
  const needle = pyLower(info);
  if (needle === '') return null;
  for (const [i, m] of speech.entries()) {
    // The merge put a space where the utterance id changed: the chunks' texts joined without it hold the info.
    if (lowered(m.parts.map((p) => p.text).join('')).includes(needle))
      return {
        kind: 'space-between-utterances',
        text: agent[i]!.text,
        ticks: agent[i]!.ticks,
        why: `said across a change of utterance id: τ² merges those chunks with a space between, so '${info}' is not in the merged text`,
      };
  }
  for (let i = 0; i + 1 < agent.length; i++) {
    const [a, b] = [agent[i]!, agent[i + 1]!];
    for (const sep of ['', ' '])
      if (lowered(a.text + sep + b.text).includes(needle))
        return {
          kind: 'split-across-messages',
          text: `${a.text}${sep}${b.text}`,
          // Where it is split: the last chunk of the one and the first of the other.
          ticks: [a.ticks[a.ticks.length - 1]!, b.ticks[0]!],
          why: `split over two of the agent's messages (ticks ${a.start}–${a.end - 1} and ${b.start}–${b.end - 1}; their utterance ids do not overlap, so τ² does not merge them): '${info}' is in neither`,
        };
  }
  const byUser = user.find((l) => lowered(l.text).includes(needle));
  if (byUser) return { kind: 'said-by-user', text: byUser.text, ticks: byUser.ticks, why: `said by the user, not the agent: τ² reads only the agent's speech` };
  const inTool = e.toolCalls.find((c) => c.output !== null && lowered(c.output).includes(needle));
  if (inTool)
    return {
      kind: 'in-tool-output',
      text: inTool.output!,
      ticks: inTool.tickId === undefined ? [] : [inTool.tickId],
      why: `only in the output of ${inTool.name} (${callName(inTool.index)}), never said by the agent`,
    };
  // The agent message holding the longest start of the info.
  let best: { len: number; line: VoiceTranscriptLine } | null = null;
  for (const l of agent) {
    const hay = lowered(l.text);
    let len = 0;
    while (len < needle.length && hay.includes(needle.slice(0, len + 1))) len++;
    if (len > 0 && (best === null || len > best.len)) best = { len, line: l };
  }
  if (best === null || best.len < Math.min(3, needle.length)) return null;
  return {
    kind: 'partial',
    text: best.line.text,
    ticks: best.line.ticks,
    why: `the agent said '${info.slice(0, best.len)}' of it here, not the rest`,
  };
}

/** The ticks of the chunks a span of a merged message falls in. */
function ticksOfSpan(m: MergedSpeech, span: { start: number; end: number } | null): number[] {
  if (span === null) return [...m.ticks];
  return m.parts.filter((p) => p.at !== null && p.at < span.end && p.at + p.text.length > span.start).map((p) => p.tickId);
}

/**
 * Each communicate check of a full-duplex evaluation with its evidence: `speech` the agent's merged messages (the ones τ²
 * searched, in order), `agent` and `user` their transcript lines.
 */
export function communicateEvidence(
  e: Tau2Evaluation,
  speech: readonly MergedSpeech[],
  agent: readonly VoiceTranscriptLine[],
  user: readonly VoiceTranscriptLine[],
): VoiceCommunicate[] | null {
  return (
    e.communicateChecks?.map((c) => {
      const m = c.messageIndex === null ? undefined : speech[c.messageIndex];
      if (c.met && m) {
        const span = communicateSpan(m.content ?? '', c.info);
        return { info: c.info, met: true, found: { line: c.messageIndex!, text: m.content ?? '', span, ticks: ticksOfSpan(m, span) }, nearMiss: null };
      }
      return { info: c.info, met: c.met, found: null, nearMiss: c.met ? null : nearMiss(c.info, speech, agent, user, e) };
    }) ?? null
  );
}
