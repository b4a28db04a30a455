import { EvaluationSetupError, ResultsFileError, Tau2FileError, Tau2SetupError } from '../core/contract';
import { auditCommand, USAGE as AUDIT_USAGE } from './commands/audit';
import { compareCommand, USAGE as COMPARE_USAGE } from './commands/compare';
import { evaluateCommand, USAGE as EVALUATE_USAGE } from './commands/evaluate';
import { explainCommand, USAGE as EXPLAIN_USAGE } from './commands/explain';
import { indexCommand, USAGE as INDEX_USAGE } from './commands/index';
import { reportCommand, USAGE as REPORT_USAGE } from './commands/report';
import { submissionsCommand, USAGE as SUBMISSIONS_USAGE } from './commands/submissions';
import { keepDataWork } from './tau-bench-cache';
import { installPipeGuard, terminalSafe } from './terminal';
import { InputFileError, UsageError } from './usage';

/** One entry per command: `src/cli/commands/<name>.ts`. */
const COMMANDS: Readonly<Record<string, { run: (args: string[]) => Promise<number>; usage: string }>> = {
  evaluate: { run: evaluateCommand, usage: EVALUATE_USAGE },
  explain: { run: explainCommand, usage: EXPLAIN_USAGE },
  compare: { run: compareCommand, usage: COMPARE_USAGE },
  report: { run: reportCommand, usage: REPORT_USAGE },
  index: { run: indexCommand, usage: INDEX_USAGE },
  audit: { run: auditCommand, usage: AUDIT_USAGE },
  submissions: { run: submissionsCommand, usage: SUBMISSIONS_USAGE },
};

const USAGE = Object.values(COMMANDS)
  .map((c) => c.usage)
  .join('\n\n');

export async function main(argv: string[]): Promise<number> {
  installPipeGuard();
  const [cmd, ...rest] = argv;
  const command = cmd === undefined ? undefined : COMMANDS[cmd];
  try {
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    if (!command || !Object.hasOwn(COMMANDS, cmd)) throw new UsageError(`unknown command '${cmd}'`);
    const code = await command.run(rest);
    // τ-bench's data work this process did, for the next one (never fails).
    await keepDataWork();
    return code;
  } catch (e) {
    const message = terminalSafe(e instanceof Error ? e.message : String(e));
    if (
      e instanceof UsageError ||
      e instanceof ResultsFileError ||
      e instanceof EvaluationSetupError ||
      e instanceof Tau2FileError ||
      e instanceof Tau2SetupError
    ) {
      process.stderr.write(`tau-inspect: ${message}\n`);
      if (e instanceof UsageError && !(e instanceof InputFileError) && !message.startsWith('cannot read'))
        process.stderr.write(`\n${command?.usage ?? USAGE}\n`);
      return 2;
    }
    process.stderr.write(`tau-inspect: ${message}\n`);
    return 1;
  }
}
