import { AsyncDuckDB, DuckDBDataProtocol, selectBundle, VoidLogger, type AsyncDuckDBConnection } from '@duckdb/duckdb-wasm';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';

/**
 * DuckDB-Wasm for the library view, started once on first use, in its own worker (started from this one:
 * never on the page's thread). Its wasm and worker script are the app's own files (Vite `?url` assets from
 * node_modules), so nothing is fetched from another host; `selectBundle` picks the exception-handling build
 * where the browser has it.
 */
let started: Promise<AsyncDuckDB> | null = null;

async function start(): Promise<AsyncDuckDB> {
  const bundle = await selectBundle({
    mvp: { mainModule: mvpWasm, mainWorker: mvpWorker },
    eh: { mainModule: ehWasm, mainWorker: ehWorker },
  });
  const worker = new Worker(bundle.mainWorker!);
  const db = new AsyncDuckDB(new VoidLogger(), worker);
  await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
  return db;
}

export function duckdb(): Promise<AsyncDuckDB> {
  started ??= start().catch((e: unknown) => {
    started = null;
    throw e;
  });
  return started;
}

let registered = 0;

/**
 * Runs `use` with a connection on which `name` reads the given bytes (a picked file is read by DuckDB
 * a piece at a time; a fetched one is handed over whole); the file is dropped afterwards.
 */
export async function withFile<T>(file: Blob | Uint8Array, use: (conn: AsyncDuckDBConnection, name: string) => Promise<T>): Promise<T> {
  const db = await duckdb();
  const name = `library-${++registered}.parquet`;
  if (file instanceof Uint8Array) await db.registerFileBuffer(name, file);
  else await db.registerFileHandle(name, file, DuckDBDataProtocol.BROWSER_FILEREADER, true);
  const conn = await db.connect();
  try {
    return await use(conn, name);
  } finally {
    await conn.close();
    await db.dropFile(name);
  }
}
