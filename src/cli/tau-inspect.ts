import { isIndexWorker } from './library/pool';
import { main } from './main';

// An index worker (`tau-inspect index --jobs N`) runs this same file (bundled) and only answers its jobs.
if (!isIndexWorker()) process.exitCode = await main(process.argv.slice(2));
