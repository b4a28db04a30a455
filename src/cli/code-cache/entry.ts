// The built CLI's entry module (dist/cli/tau-inspect.mjs): the body run through the code cache (loader.ts).
import { runBody } from './loader';

await runBody(import.meta.url);
