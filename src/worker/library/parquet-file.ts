import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { parquetBoundsProblem } from '../../formats/parquet-bounds';

/**
 * A Parquet file read in the worker, the columns asked for only, through hyparquet: what `tau-inspect index`
 * writes through DuckDB, and what Spark and pandas write by default (data pages v1 and v2, every encoding of the
 * format, uncompressed or Snappy). A file compressed otherwise, or no Parquet file at all, is refused in words.
 */
export type Cell = string | number | boolean | null | readonly (string | number | boolean | null)[];

type Scalar = string | number | boolean | null;

/** A value as the library keeps it: 64-bit integers as numbers, anything that is not a scalar or a list of them as null. */
function cell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map((x) => scalar(x));
  return null;
}

function scalar(v: unknown): Scalar {
  if (typeof v === 'bigint') return Number(v);
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

const CODEC = /unsupported compression codec: (\w+)/;

/** hyparquet's own error texts, said as the library says things. */
function refusal(e: unknown): Error {
  const message = e instanceof Error ? e.message : String(e);
  const codec = CODEC.exec(message);
  if (codec) return new Error(`it is compressed with ${codec[1]}, which the app does not read: write it uncompressed or with Snappy (tau-inspect index does)`);
  if (/too short|footer != PAR1|metadata length/.test(message)) return new Error('it is not a Parquet file (no Parquet footer at its end)');
  return new Error(`it could not be read as Parquet (${message})`);
}

/** The columns named in `names` that the file has (top-level), each as one array of `rows` cells. */
export async function readParquetColumns(bytes: Uint8Array, names: readonly string[]): Promise<{ rows: number; columns: Map<string, Cell[]> }> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  // Its row counts and page sizes against the bytes there are, before hyparquet allocates or loops by them.
  const claims = parquetBoundsProblem(bytes);
  if (claims !== null) throw new Error(claims);
  try {
    const metadata = parquetMetadata(file);
    const present = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
    const wanted = names.filter((n) => present.has(n));
    const rows = Number(metadata.num_rows);
    const columns = new Map<string, Cell[]>(wanted.map((n) => [n, new Array<Cell>(rows)]));
    if (wanted.length > 0) {
      const objects = await parquetReadObjects({ file, metadata, columns: wanted });
      for (const n of wanted) {
        const out = columns.get(n)!;
        for (let i = 0; i < objects.length; i++) out[i] = cell(objects[i]![n]);
      }
    }
    return { rows, columns };
  } catch (e) {
    throw refusal(e);
  }
}
