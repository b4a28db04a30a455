import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';
import type { HostConsent } from './consent';

/** Hosts a link may make the app contact: asked before the first contact, remembered per origin when the user says so. */
export interface ConsentSlice {
  /** A results file URL (or a library's, `library`) a link carried from a host not agreed to: waits for the user's answer. */
  runRequest: { readonly url: string; readonly library?: boolean } | null;
  /** Origins the user agreed to remember in this browser. */
  rememberedHosts: readonly string[];

  /** The user's answer to `runRequest`. */
  answerRunRequest(agree: boolean, remember?: boolean): void;
  forgetHosts(): void;
}

export const createConsentSlice =
  (consent: HostConsent): StateCreator<AppState, [], [], ConsentSlice> =>
  (set, get) => ({
    runRequest: null,
    rememberedHosts: consent.remembered(),

    answerRunRequest(agree, remember = false) {
      const req = get().runRequest;
      if (!req) return;
      set({ runRequest: null });
      if (agree) {
        if (remember) consent.remember(req.url);
        set({ rememberedHosts: consent.remembered() });
        if (req.library) get().openLibraryUrl(req.url);
        else get().openUrl(req.url);
        return;
      }
      set({ place: null });
      if (get().runs.a.id === null && get().pending.a === null) get().openFallbackSample();
    },
    forgetHosts() {
      consent.forget();
      set({ rememberedHosts: [] });
    },
  });
