import { Tau2Checks, Tau2DbCheck } from '../../features/tau2/checks';
import { Tau2Findings } from '../../features/tau2/findings';
import type { Tau2Panel } from '../../features/tau2/panel-types';
import { Tau2Retrieval } from '../../features/tau2/retrieval';
import { Tau2Reviews } from '../../features/tau2/reviews';
import { Tau2StatePanel } from '../../features/tau2/state';
import { Tau2Notes } from '../../features/tau2/notes';
import { Tau2TrialCompare } from '../../features/trials/tau2/trial-compare';
import { Tau2Voice } from '../../features/tau2/voice';

/**
 * The τ² simulation screen's side panels, one entry each, in the order of their tabs and digit keys
 * (`1` is the first): a panel of another feature (what-if, notes) slots in as one more entry here.
 */
export const TAU2_PANELS: readonly Tau2Panel[] = [
  {
    id: 'judged',
    name: 'how τ² judged',
    label: 'How τ² judged',
    short: 'How judged',
    render: ({ view, onCall }) => <Tau2Checks view={view} onCall={onCall} />,
  },
  {
    id: 'diff',
    name: 'DB diff',
    label: (v) => (v.db === null ? 'DB diff (no check)' : v.db.match === false ? `DB diff (${v.db.diff.length})` : 'DB diff (none)'),
    short: (v) => (v.db?.match === false ? `Diff ${v.db.diff.length}` : 'Diff'),
    render: ({ view, onCall }) => <Tau2DbCheck view={view} onCall={onCall} />,
    // A simulation shown as recorded (τ²'s data not here yet) has no replay to diff.
    shown: (v) => v.recordedOnly !== true,
  },
  {
    id: 'state',
    name: 'state at step',
    label: 'State at step',
    short: 'State',
    render: (ctx) => <Tau2StatePanel {...ctx} />,
    shown: (v) => v.recordedOnly !== true,
  },
  {
    id: 'findings',
    name: 'not counted',
    label: (v) => `Not counted (${v.findings.length})`,
    short: (v) => `Not counted ${v.findings.length}`,
    render: ({ view, onCall, onMessage }) => <Tau2Findings view={view} onCall={onCall} onMessage={onMessage} />,
  },
  {
    id: 'reviews',
    name: 'recorded reviews',
    label: (v) => `Recorded reviews (${v.reviews.length})`,
    short: (v) => `Reviews ${v.reviews.length}`,
    render: ({ view }) => <Tau2Reviews view={view} />,
  },
  { id: 'notes', name: 'notes', label: 'Notes', render: () => <Tau2Notes /> },
  { id: 'trial', name: 'compare with another trial', label: 'Other trial', short: 'Trial', render: () => <Tau2TrialCompare /> },
  {
    id: 'retrieval',
    name: 'retrieved documents',
    label: (v) => (v.retrieval ? `Retrieved (${v.retrieval.calls.reduce((n, c) => n + c.documents.length, 0)})` : 'Retrieved'),
    short: (v) => (v.retrieval ? `Retrieved ${v.retrieval.calls.reduce((n, c) => n + c.documents.length, 0)}` : 'Retrieved'),
    // Only where the simulation made retrieval calls (τ³'s banking_knowledge knowledge-base search, shell).
    shown: (v) => v.retrieval !== undefined || v.messages.some((m) => m.calls.some((c) => c.retrieval === true)),
    render: ({ view, onCall }) => <Tau2Retrieval view={view} onCall={onCall} />,
  },
  {
    id: 'voice',
    name: 'voice timeline (full-duplex simulations)',
    label: (v) => (v.voice ? `Voice (${v.voice.ticks} ticks)` : 'Voice'),
    short: 'Voice',
    render: (ctx) => <Tau2Voice {...ctx} />,
    shown: (v) => v.voice !== undefined,
    opensOn: (v) => v.voice !== undefined,
  },
];

/** The panels' ids in the order of their digit keys. */
export const TAU2_PANEL_KEYS: readonly string[] = TAU2_PANELS.map((p) => p.id);
