import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { interactionMetricsText, stepAt, type NearMissKind, type Tau2SimView, type VoiceCommunicate, type VoiceTimelineView } from '../../core/contract';
import { clip, safeLabel } from '../../ui/fold';
import { FoldedText } from '../../ui/folded-text';
import { useApp, useAppStore } from '../../ui/store-context';
import type { Tau2PanelContext, VoiceCursor } from './panel-types';

/** Pixels per tick on the timeline. */
const TICK_PX = 10;
const LANE_CLASS = { agent: 'bg-indigo-400', user: 'bg-sky-400' } as const;

/** The message (a step) a tick falls in: the last message of the history at or before it. */
function messageAt(voice: VoiceTimelineView, tick: number): number {
  let at = 0;
  voice.messageTicks.forEach((t, i) => {
    if (t <= tick) at = i;
  });
  return at;
}

/** Where each utterance (either speaker's) begins, in order: the `[` `]` stops. */
function utteranceStarts(voice: VoiceTimelineView): number[] {
  return [...new Set(voice.lanes.flatMap((l) => l.utterances.map((u) => u.start)))].sort((a, b) => a - b);
}

const secondsOf = (voice: VoiceTimelineView, tick: number): number => (tick - voice.firstTick) * voice.tickSeconds;
const tickOfSeconds = (voice: VoiceTimelineView, sec: number): number =>
  Math.max(voice.firstTick, Math.min(voice.lastTick, voice.firstTick + Math.floor(sec / voice.tickSeconds + 1e-6)));

/** A key the focused element uses itself: a text field, or arrows in tabs, a grid, a list box, a slider or the audio's own controls. */
const ownKey = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement &&
  (['INPUT', 'TEXTAREA', 'SELECT', 'AUDIO'].includes(t.tagName) ||
    t.isContentEditable ||
    t.closest('[role="tablist"], [role="grid"], [role="listbox"], [role="slider"]') !== null);

/**
 * The tick cursor of a full-duplex (voice) simulation, kept by its screen so that its keys work whichever panel is open:
 * `←`/`→` step by tick, `[`/`]` by utterance (either speaker's); the step cursor follows, and a step moved elsewhere
 * (j/k, a click in the dialogue) moves it to that message's tick. Null for a turn-based simulation.
 */
export function useVoiceCursor(view: Tau2SimView, message: number): VoiceCursor | null {
  const store = useAppStore();
  const voice = view.voice ?? null;
  // The tick, and the step it was last in line with. It starts at the first tick (the history's messages are sparse: its first may come late).
  const [cursor, setCursor] = useState(() => ({ tick: voice?.firstTick ?? 0, step: message }));
  let tick = cursor.tick;
  if (voice && cursor.step !== message) {
    tick = voice.messageTicks[message] ?? cursor.tick;
    setCursor({ tick, step: message });
  }
  const goTo = useCallback(
    (t: number) => {
      if (!voice) return;
      const next = Math.max(voice.firstTick, Math.min(voice.lastTick, t));
      const step = stepAt(view, messageAt(voice, next));
      setCursor({ tick: next, step });
      store.getState().setStep(step);
    },
    [store, view, voice],
  );
  const cursorRef = useRef(tick);
  useEffect(() => {
    cursorRef.current = tick;
  }, [tick]);
  useEffect(() => {
    if (!voice) return;
    const starts = utteranceStarts(voice);
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || ownKey(e.target)) return;
      const t = cursorRef.current;
      let to: number | undefined;
      if (e.key === 'ArrowRight') to = t + 1;
      else if (e.key === 'ArrowLeft') to = t - 1;
      else if (e.key === ']') to = starts.find((s) => s > t);
      else if (e.key === '[') to = [...starts].reverse().find((s) => s < t);
      else return;
      e.preventDefault();
      if (to !== undefined) goTo(to);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [voice, goTo]);
  return useMemo(() => (voice ? { tick, goTo } : null), [voice, tick, goTo]);
}

/**
 * A full-duplex (voice) simulation: a timeline of its ticks with one lane per speaker (speech, silence, both at once,
 * who cut in), the tool calls at their ticks, the audio when the run folder has it (the cursor follows playback, a click
 * seeks), the transcript as τ² merges the chunks, and each communicate check with the merged text it was found in or its
 * nearest miss. The tick cursor is the screen's (`useVoiceCursor`).
 */
export function Tau2Voice({ view, onCall, voiceCursor }: Tau2PanelContext) {
  const voice = view.voice;
  if (!voice || !voiceCursor)
    return <p className="px-3 py-2 text-xs text-slate-600">Not a full-duplex (voice) simulation: its messages are the whole of it.</p>;
  return <VoicePanel key={view.index} view={view} voice={voice} cursor={voiceCursor} onCall={onCall} />;
}

function VoicePanel({ view, voice, cursor, onCall }: { view: Tau2SimView; voice: VoiceTimelineView; cursor: VoiceCursor; onCall: (index: number) => void }) {
  const store = useAppStore();
  const { tick, goTo } = cursor;
  const cursorRef = useRef(tick);
  useEffect(() => {
    cursorRef.current = tick;
  }, [tick]);

  // The audio: asked for when the panel opens (one file, this simulation's), played from an object URL.
  const audio = useApp((s) => (s.audio?.run === s.runs.a.id && s.audio?.episode === view.index ? s.audio : null));
  useEffect(() => store.getState().askAudio(), [store, view.index]);
  const player = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState(false);
  const blob = audio?.blob ?? null;
  const attach = useCallback(
    (el: HTMLAudioElement | null) => {
      player.current = el;
      if (!el || !blob) return;
      const url = URL.createObjectURL(blob);
      el.src = url;
      let frame = 0;
      // While it plays, the cursor follows (each animation frame; a new tick only when the tick changes).
      const follow = (): void => {
        const t = tickOfSeconds(voice, el.currentTime);
        if (t !== cursorRef.current) goTo(t);
        if (!el.paused && !el.ended) frame = requestAnimationFrame(follow);
      };
      const onPlay = (): void => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(follow);
      };
      el.addEventListener('play', onPlay);
      el.addEventListener('seeked', follow);
      return () => {
        cancelAnimationFrame(frame);
        el.removeEventListener('play', onPlay);
        el.removeEventListener('seeked', follow);
        el.removeAttribute('src');
        URL.revokeObjectURL(url);
      };
    },
    [blob, voice, goTo],
  );
  // A cursor moved by hand (a click, a key, the dialogue's step) moves playback there.
  useEffect(() => {
    const el = player.current;
    // A few milliseconds into the tick: the media clock is in samples, and its start exactly may read back as the tick before.
    if (el && blob && tickOfSeconds(voice, el.currentTime) !== tick) el.currentTime = secondsOf(voice, tick) + Math.min(0.005, voice.tickSeconds / 10);
  }, [tick, blob, voice]);

  // The timeline keeps the cursor in sight.
  const scroller = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const x = (tick - voice.firstTick) * TICK_PX;
    if (x < box.scrollLeft + 24 || x > box.scrollLeft + box.clientWidth - 24) box.scrollLeft = Math.max(0, x - box.clientWidth / 3);
  }, [tick, voice.firstTick]);

  const line = voice.transcript.findIndex((l) => tick >= l.start && tick < l.end);
  const speaking = voice.lanes.filter((l) => l.segments.some((s) => tick >= s.start && tick < s.end)).map((l) => l.speaker);
  return (
    <div className="flex flex-col gap-3 px-3 py-2 text-sm" data-testid="tau2-voice" data-tick={tick}>
      <p className="text-xs text-slate-600">
        Full duplex: {voice.ticks} ticks of {voice.tickSeconds} s ({(voice.ticks * voice.tickSeconds).toFixed(1)} s), {voice.overlaps.length} overlap
        {voice.overlaps.length === 1 ? '' : 's'}, {voice.interruptions.length} cut-in{voice.interruptions.length === 1 ? '' : 's'}. Keys: ←/→ a tick, [/] an
        utterance.
      </p>
      <section aria-label="Audio" className="flex flex-col gap-1">
        {audio?.blob ? (
          <>
            <div className="flex items-center gap-2">
              <button
                type="button"
                data-testid="voice-play"
                className="shrink-0 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50"
                onClick={() => {
                  const el = player.current;
                  if (el) void (el.paused ? el.play().catch(() => undefined) : el.pause());
                }}
              >
                {playing ? 'Pause' : `Play from tick ${tick}`}
              </button>
              <audio
                ref={attach}
                controls
                preload="auto"
                className="h-8 min-w-0 flex-1"
                data-testid="voice-audio"
                onPlay={() => setPlaying(true)}
                onPause={() => setPlaying(false)}
                onEnded={() => setPlaying(false)}
              />
            </div>
            <p className="font-mono text-[11px] break-all text-slate-600">{safeLabel(audio.path ?? '', 300)}</p>
          </>
        ) : (
          <p className="text-xs text-slate-600" data-testid="voice-no-audio">
            {audio === null || (audio.error === null && audio.blob === null)
              ? 'Looking for the audio…'
              : `No audio: ${safeLabel(audio.error ?? '', 300)}. The timeline alone.`}
          </p>
        )}
      </section>
      <Timeline voice={voice} tick={tick} onTick={goTo} onCall={onCall} scroller={scroller} />
      <p className="text-xs text-slate-700" data-testid="voice-cursor" aria-live="polite">
        Tick {tick} ({secondsOf(voice, tick).toFixed(1)} s):{' '}
        {speaking.length === 2 ? 'both speak' : speaking.length === 1 ? `the ${speaking[0]} speaks` : 'silence'}; step: message{' '}
        {stepAt(view, messageAt(voice, tick))}
      </p>
      <Communicate checks={voice.communicate} onTick={goTo} />
      <section aria-label="Transcript as τ² merges it" className="flex flex-col gap-1">
        <h3 className="text-xs font-semibold text-slate-700">Transcript as τ² merges it</h3>
        <ol className="flex flex-col gap-1" data-testid="voice-transcript">
          {voice.transcript.map((l, i) => (
            <li key={`${l.speaker}-${l.start}-${i}`}>
              <button
                type="button"
                onClick={() => goTo(l.start)}
                aria-current={i === line ? 'true' : undefined}
                className={`w-full rounded border px-2 py-1 text-left text-xs ${
                  i === line ? 'border-amber-400 bg-amber-50' : l.speaker === 'agent' ? 'border-indigo-100 bg-indigo-50/50' : 'border-sky-100 bg-sky-50/50'
                }`}
              >
                <span className="font-semibold text-slate-700">
                  {l.speaker} · ticks {l.start}–{l.end - 1}
                </span>{' '}
                <span className="break-words whitespace-pre-wrap text-slate-900">
                  <FoldedText text={l.text} limit={2000} />
                </span>
              </button>
            </li>
          ))}
        </ol>
      </section>
      <p className="text-[11px] text-slate-600" data-testid="voice-metrics">
        {safeLabel(interactionMetricsText({ metrics: voice.metrics, error: voice.metricsError }), 1000)}
      </p>
      <p className="text-[11px] text-slate-600" data-testid="voice-no-what-if">
        No what-if here: τ² judges a full-duplex simulation from its ticks, and what-if edits a text simulation’s messages only.
      </p>
    </div>
  );
}

function Timeline(props: {
  voice: VoiceTimelineView;
  tick: number;
  onTick: (tick: number) => void;
  onCall: (index: number) => void;
  scroller: RefObject<HTMLDivElement | null>;
}) {
  const { voice, tick, onTick, onCall, scroller } = props;
  const x = (t: number): number => (t - voice.firstTick) * TICK_PX;
  const width = voice.ticks * TICK_PX;
  const band = (r: { start: number; end: number }) => ({ left: x(r.start), width: Math.max(TICK_PX, (r.end - r.start) * TICK_PX) });
  const placed = voice.toolCalls.filter((c) => c.tick !== null);
  const ruler = [];
  for (let t = voice.firstTick; t <= voice.lastTick; t++) if ((t - voice.firstTick) % 10 === 0) ruler.push(t);
  const label = (text: string) => <span className="h-6 border-t border-slate-100 pt-1 pr-1 text-right text-[11px] font-medium text-slate-700">{text}</span>;
  return (
    <div className="flex rounded border border-slate-200 bg-white" data-testid="voice-timeline">
      {/* The lanes' names stay in sight while the ticks scroll. */}
      <div className="flex w-12 shrink-0 flex-col border-r border-slate-100" aria-hidden="true">
        <span className="h-4" />
        {voice.lanes.map((l) => label(l.speaker))}
        {label('calls')}
      </div>
      <div ref={scroller} className="min-w-0 flex-1 overflow-x-auto">
        <div className="relative" style={{ width }}>
          <div className="relative h-4 text-[10px] text-slate-500">
            {ruler.map((t) => (
              <span key={t} className="absolute top-0 border-l border-slate-300 pl-0.5" style={{ left: x(t) }}>
                {t}
              </span>
            ))}
          </div>
          {voice.lanes.map((lane) => (
            <div key={lane.speaker} className="relative h-6 border-t border-slate-100" data-lane={lane.speaker}>
              {lane.segments.map((s, i) => (
                <span
                  key={i}
                  data-segment={`${s.start}-${s.end}`}
                  title={`${lane.speaker}, ticks ${s.start}–${s.end - 1}${s.cutOff ? ' (cut off)' : ''}${s.action ? ` (${s.action})` : ''}: ${clip(s.text, 200)}`}
                  className={`absolute top-1 h-4 rounded-sm ${LANE_CLASS[lane.speaker]} ${s.cutOff ? 'ring-2 ring-red-500' : ''}`}
                  style={band(s)}
                />
              ))}
            </div>
          ))}
          <div className="relative h-6 border-t border-slate-100" data-lane="calls">
            {placed.map((c, i) => (
              <button
                key={c.index}
                type="button"
                data-call={c.index}
                onClick={(e) => {
                  e.stopPropagation();
                  onTick(c.tick!);
                  onCall(c.index);
                }}
                title={`${c.requestor === 'user' ? 'the user’s' : 'the agent’s'} call ${c.index} at tick ${c.tick}: ${clip(c.name, 80)}(${clip(c.arguments, 200)}) → ${clip(
                  c.output ?? '(no output)',
                  300,
                )}${c.matchesRecorded === false ? ' (replays differently)' : ''}`}
                className={`absolute top-0.5 h-5 overflow-hidden rounded-sm px-0.5 font-mono text-[10px] leading-5 text-ellipsis whitespace-nowrap ring-1 ${
                  c.error ? 'bg-red-100 text-red-900 ring-red-400' : 'bg-amber-100 text-amber-900 ring-amber-400'
                }`}
                // No wider than the room before the next call's tick (the name is in the title).
                style={{ left: x(c.tick!), maxWidth: Math.max(TICK_PX, ((placed[i + 1]?.tick ?? c.tick! + 30) - c.tick!) * TICK_PX - 1) }}
              >
                {clip(c.name, 24)}
              </button>
            ))}
          </div>
          {voice.overlaps.map((o, i) => (
            <span
              key={`o${i}`}
              data-overlap={`${o.start}-${o.end}`}
              title={`both speak, ticks ${o.start}–${o.end - 1}`}
              className="pointer-events-none absolute top-4 h-12 bg-amber-300/40"
              style={band(o)}
            />
          ))}
          {voice.interruptions.map((it, i) => (
            <span
              key={`i${i}`}
              data-interruption={it.tick}
              title={`the ${it.by} cuts in at tick ${it.tick} (${it.kind.replace('_', ' ')})${it.stoppedAt === null ? '' : `; the other stops at tick ${it.stoppedAt}`}`}
              className="pointer-events-none absolute top-3.5 -ml-1.5 text-xs leading-none font-bold text-red-600"
              style={{ left: x(it.tick) }}
              aria-label={`${it.by} cuts in at tick ${it.tick}`}
            >
              ▼
            </span>
          ))}
          <span
            data-testid="voice-cursor-line"
            className="pointer-events-none absolute top-0 bottom-0 border-l-2 border-red-600"
            style={{ left: x(tick) + TICK_PX / 2 - 1 }}
          />
          {/* One hit area per tick: click (or Enter) to put the cursor there (and the audio). */}
          <div className="absolute inset-x-0 top-4 bottom-6 flex" role="group" aria-label="Ticks: click one to go there">
            {Array.from({ length: voice.ticks }, (_, i) => voice.firstTick + i).map((t) => (
              <button
                key={t}
                type="button"
                tabIndex={-1}
                data-tick={t}
                aria-label={`tick ${t}`}
                onClick={() => onTick(t)}
                className={`h-full shrink-0 ${t === tick ? 'bg-red-500/10' : 'hover:bg-slate-400/10'}`}
                style={{ width: TICK_PX }}
              />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}

function Communicate({ checks, onTick }: { checks: readonly VoiceCommunicate[] | null; onTick: (tick: number) => void }) {
  if (checks === null || checks.length === 0) return null;
  return (
    <section aria-label="Communicate checks on the merged speech" className="flex flex-col gap-1" data-testid="voice-communicate">
      <h3 className="text-xs font-semibold text-slate-700">Communicate checks on the merged speech</h3>
      {checks.map((c, i) => (
        <div key={i} className={`rounded border px-2 py-1 text-xs ${c.met ? 'border-emerald-200 bg-emerald-50' : 'border-red-200 bg-red-50'}`} data-met={c.met}>
          <p className="font-semibold">
            {c.met ? '✓' : '✗'} “{safeLabel(c.info, 200)}” {c.met ? 'said' : 'not found in any merged agent message'}
          </p>
          {c.found && (
            <p className="mt-0.5 break-words text-slate-800">
              found in merged message {c.found.line + 1}: <Marked text={c.found.text} span={c.found.span} /> <TickLinks ticks={c.found.ticks} onTick={onTick} />
            </p>
          )}
          {c.nearMiss && (
            <div className="mt-0.5 text-slate-800" data-near-miss={c.nearMiss.kind}>
              <p>Nearest miss: {safeLabel(c.nearMiss.why, 600)}</p>
              <p className="mt-0.5 rounded bg-white/70 px-1 break-words whitespace-pre-wrap">
                <span className="font-medium text-slate-600">{NEAR_MISS_TEXT[c.nearMiss.kind]} </span>
                <FoldedText text={c.nearMiss.text} limit={600} />
              </p>
              <TickLinks ticks={c.nearMiss.ticks} onTick={onTick} />
            </div>
          )}
          {!c.met && !c.nearMiss && <p className="mt-0.5 text-slate-700">Nothing close to it was said.</p>}
        </div>
      ))}
    </section>
  );
}

/** What a near miss's text is. */
const NEAR_MISS_TEXT: Readonly<Record<NearMissKind, string>> = {
  'split-across-messages': 'The two messages, joined here (τ² does not):',
  'space-between-utterances': 'The merged message:',
  'said-by-user': 'The user’s words:',
  'in-tool-output': 'The tool’s output:',
  partial: 'The agent’s message:',
};

function Marked({ text, span }: { text: string; span: { start: number; end: number } | null }) {
  if (span === null) return <span className="whitespace-pre-wrap">{clip(text, 600)}</span>;
  return (
    <span className="whitespace-pre-wrap">
      {clip(text.slice(Math.max(0, span.start - 200), span.start), 200)}
      <mark className="rounded-sm bg-yellow-200 px-px">{text.slice(span.start, span.end)}</mark>
      {clip(text.slice(span.end), 200)}
    </span>
  );
}

function TickLinks({ ticks, onTick }: { ticks: readonly number[]; onTick: (tick: number) => void }) {
  if (ticks.length === 0) return null;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {ticks.slice(0, 12).map((t, i) => (
        <button key={`${t}-${i}`} type="button" className="font-mono text-[11px] text-sky-800 underline" onClick={() => onTick(t)}>
          tick {t}
        </button>
      ))}
    </span>
  );
}
