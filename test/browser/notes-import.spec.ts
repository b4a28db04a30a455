import { notesImportSuite } from './notes-import-suite';

// The gate's notes import (the same assertions as the soak's 100,000 records in test/soak/browser-notes-import.spec.ts).
notesImportSuite(10_000);
