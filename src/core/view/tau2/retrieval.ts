/**
 * banking_knowledge's retrieval: which knowledge-base documents each retrieval call (KB_search_bm25, KB_search_dense,
 * shell…) brought back, read from its recorded output (τ² never replays one), and the task's `required_documents`
 * beside them.
 */
import type { TValue } from '../../py/pydantic';
import type { Tau2Evaluation } from '../../judge/tau2/evaluate';

/** A document id as the knowledge base names them (`doc_<category>_<name>_<nnn>`, file `documents/<id>.json`). */
const DOC_ID = /doc_[A-Za-z0-9_()\-.]*[A-Za-z0-9)]/g;

export interface RetrievedDocuments {
  /** The call's index among the simulation's calls. */
  readonly call: number;
  readonly name: string;
  /** Document ids named in the recorded output, first mention first (a `.json` or `.md` suffix dropped). */
  readonly documents: readonly string[];
}

/** Each retrieval call with the document ids its recorded output names. */
export function retrievedDocuments(e: Tau2Evaluation): RetrievedDocuments[] {
  return e.toolCalls
    .filter((c) => c.retrieval && c.recordedOutput !== null)
    .map((c) => ({ call: c.index, name: c.name, documents: docIdsIn(c.recordedOutput!) }));
}

export function docIdsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(DOC_ID)) {
    const id = m[0].replace(/\.(json|md|txt)$/, '');
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** The task's `required_documents` as recorded with the task (empty when it names none). */
export function requiredDocuments(taskRaw: ReadonlyMap<string, TValue> | null): string[] {
  const v = taskRaw?.get('required_documents');
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** For a simulation: the required documents the agent retrieved (with the first call that did) and those it never did. */
export function requiredCoverage(e: Tau2Evaluation, required: readonly string[]): { found: { id: string; call: number }[]; missing: string[] } {
  const calls = retrievedDocuments(e);
  const found: { id: string; call: number }[] = [];
  const missing: string[] = [];
  for (const id of required) {
    const c = calls.find((x) => x.documents.includes(id));
    if (c) found.push({ id, call: c.call });
    else missing.push(id);
  }
  return { found, missing };
}

/** A knowledge-base document of banking_knowledge (`documents/<id>.json`). */
export interface KnowledgeDocument {
  readonly id: string;
  readonly title: string;
  readonly content: string;
}

/** Each retrieval call's documents, opened (null: not in the data), and the task's required documents with the first call that retrieved each. */
export interface Tau2RetrievalView {
  readonly calls: readonly {
    readonly call: number;
    readonly name: string;
    readonly documents: readonly { readonly id: string; readonly required: boolean; readonly doc: KnowledgeDocument | null }[];
  }[];
  readonly required: readonly { readonly id: string; readonly doc: KnowledgeDocument | null; readonly retrievedIn: number | null }[];
}
