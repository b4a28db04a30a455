import type { FromWorker } from '../core/contract';

declare const self: { postMessage(m: FromWorker): void };

/** Sends one message to the page. */
export const post = (m: FromWorker): void => self.postMessage(m);

/** Lets queued messages (view, search, prioritize) run between episodes. */
export const yieldToMessages = (() => {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return (): Promise<void> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });
})();
