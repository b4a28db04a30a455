import type { EvaluatorPort } from '../../src/store/ports';

/** Every method of the port: a new one fails the typecheck here, in one place, not in each spec's fake. */
const METHODS: Readonly<Record<keyof EvaluatorPort, true>> = {
  openRun: true,
  openCompare: true,
  closeCompare: true,
  report: true,
  cancel: true,
  resume: true,
  useFolder: true,
  useDataUrl: true,
  prioritize: true,
  search: true,
  view: true,
  transcript: true,
  episodeJson: true,
  whatIf: true,
};

export type PortCall = [keyof EvaluatorPort, ...unknown[]];

/**
 * An evaluator port for store specs: records every call in order (`calls`, name first) and passes
 * it on to `also[name]` when a spec wants to act on it.
 */
export function fakePort(also: Partial<EvaluatorPort> = {}): { port: EvaluatorPort; calls: PortCall[] } {
  const calls: PortCall[] = [];
  const port = {} as Record<keyof EvaluatorPort, (...a: unknown[]) => void>;
  for (const name of Object.keys(METHODS) as (keyof EvaluatorPort)[])
    port[name] = (...a) => {
      calls.push([name, ...a]);
      (also[name] as ((...b: unknown[]) => void) | undefined)?.(...a);
    };
  return { port: port as unknown as EvaluatorPort, calls };
}
