/**
 * Type-only checks of the page ↔ worker protocol. **Checked by `tsc`, not run by vitest**: this file is no
 * spec; `npm run typecheck` (tsconfig.json includes `test/`) fails when a side stops being typed from the
 * declaration in src/protocol/messages.ts. The runtime checks of the same protocol are test/app/protocol.spec.ts.
 */
import { expectTypeOf } from 'vitest';
import type { FromWorker, FromWorkerName, RequestName, ToWorker } from '../../src/protocol/messages';
import type { EvaluatorPort } from '../../src/store/ports';
import type { STORE_HANDLERS } from '../../src/store/receive';
import type { requestHandlers } from '../../src/worker/handlers';

// Each side is typed from the declaration: the worker's dispatch, the store's receiver and the port.
expectTypeOf<keyof ReturnType<typeof requestHandlers>>().toEqualTypeOf<RequestName>();
expectTypeOf<keyof typeof STORE_HANDLERS>().toEqualTypeOf<FromWorkerName>();
expectTypeOf<Parameters<EvaluatorPort['send']>[0]>().toEqualTypeOf<ToWorker>();
expectTypeOf<ToWorker['type']>().toEqualTypeOf<RequestName>();
expectTypeOf<FromWorker['type']>().toEqualTypeOf<FromWorkerName>();
// A view is asked for and answered by its address (run and episode), never by an id.
expectTypeOf<ToWorker<'view'>>().toEqualTypeOf<{ readonly type: 'view' } & { readonly run: number; readonly episode: number }>();
