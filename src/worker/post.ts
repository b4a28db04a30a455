import type { FromWorker } from '../core/contract';

declare const self: { postMessage(m: FromWorker): void };

/** Sends one message to the page. */
export const post = (m: FromWorker): void => self.postMessage(m);

let channel: MessageChannel | null = null;
const waiting: (() => void)[] = [];

/** Lets queued messages (view, search, prioritize, cancel) run between episodes. */
export const yieldToMessages = (): Promise<void> => {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
  }
  const port = channel.port2;
  return new Promise((resolve) => {
    waiting.push(resolve);
    port.postMessage(0);
  });
};
