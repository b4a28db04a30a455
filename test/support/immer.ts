/**
 * immer for specs, with its Map/Set and patches plugins on. The core no longer uses it (`writeDb`
 * drafts a DB itself, `src/core/env/drafts.ts`); specs use it for states made another way (a bare
 * `produce`: no lineage) and as the reference the drafts are checked against (`drafts.spec.ts`).
 */
import { enableMapSet, enablePatches } from 'immer';

enableMapSet();
enablePatches();

export { freeze, produce, produceWithPatches, type Patch } from 'immer';
