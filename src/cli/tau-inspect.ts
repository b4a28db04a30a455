import { start } from './start';

// The CLI from its sources (`npm run cli`); the build (scripts/build-cli.ts) runs `start` through the code-cache loader instead.
await start();
