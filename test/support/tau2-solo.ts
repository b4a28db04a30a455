/** A crafted solo run of the invented mock sample (judged.spec, the evaluate-trajs feature spec). */
import type { SampleRun } from './tau2-sample';

/** The sample turned into a solo run of one task: the agent dismisses the user's notification itself (a user tool). */
export function soloRun(agent: string): (run: SampleRun) => void {
  return (run) => {
    (run.info.agent_info as Record<string, unknown>).implementation = agent;
    (run.info.user_info as Record<string, unknown>).implementation = 'dummy_user';
    run.tasks = [
      {
        id: 'clear_note',
        description: { purpose: 'Dismiss the delivery notification' },
        user_scenario: { instructions: 'none (solo)' },
        evaluation_criteria: {
          actions: [{ action_id: 'dismiss', requestor: 'user', name: 'dismiss_notification', arguments: { notification_id: 'note_1' } }],
          reward_basis: ['DB'],
        },
      },
    ];
    const sim = run.simulations[0]!;
    run.simulations = [
      {
        ...sim,
        id: 'solo-0',
        task_id: 'clear_note',
        termination_reason: 'agent_stop',
        reward_info: { reward: 1.0, db_check: { db_match: true, db_reward: 1.0 }, reward_basis: ['DB'] },
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', name: 'dismiss_notification', arguments: { notification_id: 'note_1' }, requestor: 'assistant' }],
          },
          { role: 'tool', id: 'c1', content: 'Notification note_1 dismissed', requestor: 'assistant', error: false },
          { role: 'assistant', content: 'Done: the delivery notification is dismissed.', tool_calls: null },
        ],
      },
    ];
  };
}
