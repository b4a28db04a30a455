import { useMemo, useState } from 'react';
import { tauBenchView, toolCatalog, type Domain, type EpisodeView, type StepEdit } from '../../core/contract';
import { Button } from '../../ui/button';
import { useApp } from '../../ui/store-context';

const AREA = 'w-full rounded border border-violet-300 bg-white p-1.5 font-mono text-xs text-slate-900';

/** A JSON object with every declared parameter, for the insert form. */
const template = (params: readonly string[]): string => `{\n${params.map((p) => `  ${JSON.stringify(p)}: ""`).join(',\n')}\n}`;

/**
 * What-if replay: change the selected step (a tool call's arguments, a respond's text), drop
 * it, or insert a call before it; τ-bench's verdict is recomputed on the edited episode. Edits
 * stay with the episode (and in the link) until reset.
 */
export function WhatIfPanel(props: { recorded: EpisodeView; step: number }) {
  const { recorded, step } = props;
  const whatIf = useApp((s) => s.whatIf);
  const run = useApp((s) => s.runWhatIf);
  const domain = useApp((s) => s.runs.a.domain);
  const shown = tauBenchView(whatIf?.view) ?? recorded;
  const current = shown.steps[step];
  const message = current ? shown.messages[current.messageIndex] : undefined;
  const original = message?.originalIndex ?? null;
  const initial = current ? (current.isRespond ? (current.respondText ?? '') : current.kwargs) : '';
  const [text, setText] = useState(initial);
  const [textFor, setTextFor] = useState(current);
  if (textFor !== current) {
    // Another step was selected (or a replay changed this one): start from its text.
    // Adjusting state while rendering, not in an effect, saves a render with the old text.
    setTextFor(current);
    setText(initial);
  }
  const [insertTool, setInsertTool] = useState('');
  const [insertArgs, setInsertArgs] = useState('');
  const tools = useMemo(() => (domain ? toolCatalog(domain as Domain) : []), [domain]);

  const edits = whatIf?.edits ?? [];
  const replace = (extra: StepEdit): readonly StepEdit[] => [...edits.filter((e) => e.insert || e.messageIndex !== extra.messageIndex), extra];
  const missing = shown.alignment.pairs.filter((p) => p.match === 'missing' && p.gold !== null);
  const insertAt = original ?? null;
  const chooseTool = (name: string): void => {
    setInsertTool(name);
    const t = tools.find((x) => x.name === name);
    setInsertArgs(t ? template(t.params) : '');
  };

  return (
    <div className="space-y-1.5 text-xs text-violet-950" data-testid="what-if">
      <h3 className="font-semibold" data-testid="what-if-title">
        What if step {step + 1} were different? <span className="font-normal text-violet-800">(select another step in the dialogue or with j/k)</span>
      </h3>
      {!current && <p>This episode has no executed step to change.</p>}
      {current && (
        <div className="grid gap-3 @3xl:grid-cols-2">
          <div className="space-y-1">
            {original === null ? (
              <p>This call was inserted by the what-if; undo it in the list of changes above the dialogue.</p>
            ) : (
              <>
                <label className="block font-medium" htmlFor="what-if-args">
                  {current.isRespond ? (
                    'Text of this respond (what the user gets; required outputs are searched here)'
                  ) : (
                    <>
                      Arguments of <code className="font-mono">{current.action}</code> (JSON; ints and floats as you type them)
                    </>
                  )}
                </label>
                <textarea id="what-if-args" className={`${AREA} h-28`} spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} />
                <div className="flex flex-wrap gap-2">
                  <Button
                    variant="toolbar"
                    data-testid="what-if-apply"
                    onClick={() => run(replace(current.isRespond ? { messageIndex: original, content: text } : { messageIndex: original, kwargsJson: text }))}
                  >
                    {current.isRespond ? 'Replay with this text' : 'Replay with these arguments'}
                  </Button>
                  <Button variant="toolbar" onClick={() => run(replace({ messageIndex: original, remove: true }))}>
                    Replay without this step
                  </Button>
                </div>
              </>
            )}
          </div>
          {insertAt !== null && (
            <div className="space-y-1" data-testid="what-if-insert">
              <p className="font-medium">Insert a tool call before step {step + 1}</p>
              {missing.length > 0 && (
                <div className="flex flex-wrap gap-1">
                  {missing.map((p) => {
                    const ref = shown.reference[p.gold!]!;
                    return (
                      <Button
                        variant="toolbar"
                        key={p.gold}
                        onClick={() => run([...edits, { messageIndex: insertAt, insert: true, name: ref.action, kwargsJson: ref.kwargs }])}
                        data-testid="what-if-insert-missing"
                      >
                        Insert missing reference {p.gold! + 1}: {ref.action}
                      </Button>
                    );
                  })}
                </div>
              )}
              <label className="block" htmlFor="what-if-tool">
                Tool
              </label>
              <select
                id="what-if-tool"
                className="rounded border border-violet-300 bg-white px-1 py-0.5"
                value={insertTool}
                onChange={(e) => chooseTool(e.target.value)}
              >
                <option value="">choose a tool…</option>
                {tools.map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.name}
                    {t.writes ? ' (writes)' : ''}
                  </option>
                ))}
              </select>
              {insertTool !== '' && (
                <>
                  <label className="block" htmlFor="what-if-insert-args">
                    Arguments (JSON, one entry per declared parameter)
                  </label>
                  <textarea
                    id="what-if-insert-args"
                    className={`${AREA} h-28`}
                    spellCheck={false}
                    value={insertArgs}
                    onChange={(e) => setInsertArgs(e.target.value)}
                  />
                  <Button variant="toolbar" onClick={() => run([...edits, { messageIndex: insertAt, insert: true, name: insertTool, kwargsJson: insertArgs }])}>
                    Insert and replay
                  </Button>
                </>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
