import { tau2TeachSheet, tau2View } from '../../core/contract';
import { showCall, Tau2Dialogue } from '../../features/tau2/dialogue';
import type { TeachDescriptor } from '../../features/teach/teach-screen';
import { whenDrawn } from '../../ui/progressive';

/** τ²'s part of teaching mode: the sheet from a simulation's view (recomputed or recorded), its dialogue without the judge's marks. */
export const TAU2_TEACH: TeachDescriptor = {
  sheet: (v) => {
    const t = tau2View(v);
    return t && tau2TeachSheet(t);
  },
  dialogue: (v, message, onSelect) => {
    const t = tau2View(v);
    return t && <Tau2Dialogue view={t} message={message} onSelect={onSelect} blind />;
  },
  show: ({ message, call }) => {
    if (call !== null) showCall(call);
    else if (message !== null) whenDrawn(`tau2-message-${message}`, (el) => el.scrollIntoView({ block: 'center', behavior: 'smooth' }));
  },
};
