import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Elsewhere, EpisodeView, NearSaid, OutputView } from '../../core/contract';
import type { Mark, Reveal } from './dialogue';
import type { EpisodeNav, PhoneView } from './screen-types';

/** Where the episode screen points: the marked span, the message to bring into view, the reference action and output shown. */
export interface EpisodePointers {
  readonly mark: Mark | null;
  readonly reveal: Reveal | null;
  readonly reference: { readonly index: number; readonly nonce: number } | null;
  readonly activeOutput: string | null;
  /** Selects a step (ignored when out of range). */
  readonly select: (n: number) => void;
  /** Selects a step and scrolls the dialogue to it. */
  readonly jump: (n: number) => void;
  readonly nav: EpisodeNav;
  readonly onFound: (o: OutputView) => void;
  readonly onNear: (o: OutputView, n: NearSaid) => void;
  readonly onElsewhere: (o: OutputView, place: Elsewhere) => void;
  /** Brings a search hit's message into view (its step selected). */
  readonly revealHit: (messageIndex: number) => void;
}

const ownerOf = (view: EpisodeView, messageIndex: number): number | null => {
  const m = view.messages[messageIndex];
  return m?.stepIndex ?? m?.observationOf ?? null;
};

/**
 * The ways one part of the episode screen points into another: a step, a message, a reference
 * action, a differing record, a span of text. `show` opens a side panel or, on a phone, the dialogue.
 */
export function useEpisodeNav(view: EpisodeView, onStep: (n: number) => void, show: (panel: string | PhoneView) => void): EpisodePointers {
  const [mark, setMark] = useState<Mark | null>(null);
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const [reference, setReference] = useState<{ index: number; nonce: number } | null>(null);
  const [activeOutput, setActiveOutput] = useState<string | null>(null);
  const [recordFocus, setRecordFocus] = useState<{ name: string; nonce: number } | null>(null);
  const nonce = useRef(0);
  const latest = useRef({ onStep, view, show });
  useLayoutEffect(() => {
    latest.current = { onStep, view, show };
  });

  const select = useCallback((n: number) => {
    const { view: v, onStep: go } = latest.current;
    if (Number.isInteger(n) && n >= 0 && n < v.steps.length) go(n);
  }, []);
  const revealMessage = useCallback((messageIndex: number, hit = false) => {
    setReveal({ messageIndex, nonce: ++nonce.current, ...(hit ? { hit } : {}) });
  }, []);
  const showMessage = useCallback(
    (messageIndex: number, hit = false) => {
      const owner = ownerOf(latest.current.view, messageIndex);
      if (owner !== null) select(owner);
      if (!hit) latest.current.show('dialogue');
      revealMessage(messageIndex, hit);
    },
    [select, revealMessage],
  );
  const jump = useCallback(
    (n: number) => {
      select(n);
      const s = latest.current.view.steps[n];
      latest.current.show('dialogue');
      if (s) revealMessage(s.messageIndex);
    },
    [select, revealMessage],
  );
  const showReference = useCallback((index: number) => {
    latest.current.show('diff');
    setReference({ index, nonce: ++nonce.current });
  }, []);
  const showRecord = useCallback((name: string) => {
    latest.current.show('diff');
    setRecordFocus({ name, nonce: ++nonce.current });
  }, []);
  useEffect(() => {
    if (!recordFocus) return;
    const el = [...document.querySelectorAll('[data-testid="diff-record"]')].find((e) => e.getAttribute('aria-label') === recordFocus.name);
    el?.scrollIntoView({ block: 'nearest' });
  }, [recordFocus]);

  const onFound = useCallback(
    (o: OutputView) => {
      if (o.stepIndex === null || o.messageIndex === null || o.span === null) return;
      setMark({ messageIndex: o.messageIndex, target: 'respond', span: o.span, label: `required output "${o.output}" matched here` });
      setActiveOutput(o.output);
      jump(o.stepIndex);
    },
    [jump],
  );
  const onNear = useCallback(
    (o: OutputView, n: NearSaid) => {
      setMark({ messageIndex: n.messageIndex, target: 'respond', span: n.span, label: `"${n.text}" said here, near the required output "${o.output}"` });
      setActiveOutput(o.output);
      jump(n.stepIndex);
    },
    [jump],
  );
  const onElsewhere = useCallback(
    (o: OutputView, place: Elsewhere) => {
      setMark({ messageIndex: place.messageIndex, target: 'content', span: place.span, label: `"${o.output}" here does not count` });
      setActiveOutput(o.output);
      showMessage(place.messageIndex);
    },
    [showMessage],
  );
  const revealHit = useCallback((messageIndex: number) => showMessage(messageIndex, true), [showMessage]);
  const nav = useMemo<EpisodeNav>(
    () => ({ step: jump, message: (i) => showMessage(i), reference: showReference, record: showRecord }),
    [jump, showMessage, showReference, showRecord],
  );
  return { mark, reveal, reference, activeOutput, select, jump, nav, onFound, onNear, onElsewhere, revealHit };
}
