/**
 * The entry of the bundle's body (`<name>.body.cjs`), which the code-cache loader (loader.ts) compiles and runs: the
 * CLI started, its promise exported so the loader keeps the compiled code only once the command is done.
 */
import { start } from '../start';

export const started: Promise<void> = start();
