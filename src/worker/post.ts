import type { FromWorker } from '../protocol/messages';

declare const self: { postMessage(m: FromWorker, transfer?: Transferable[]): void };

/** Sends one message to the page (an event, or the answer to a request); `transfer`: buffers handed over, not copied. */
export const post = (m: FromWorker, transfer?: Transferable[]): void => (transfer ? self.postMessage(m, transfer) : self.postMessage(m));

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
