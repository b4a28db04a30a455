import { notesImportSuite } from '../browser/notes-import-suite';

// Soak: a notes import of 100,000 conflicting records (the gate imports 10,000, test/browser/notes-import.spec.ts).
notesImportSuite(100_000);
