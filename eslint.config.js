import path from 'node:path';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/*
 * What lint enforces, in one place (ARCHITECTURE.md has the same as a table):
 *   1. Layers (eslint-plugin-boundaries): which folder may import which, by resolved file path.
 *   2. Packages per layer (no-restricted-imports): React, zustand, Node built-ins.
 *   3. Core has no host globals (no-restricted-globals) and compiles without DOM/Node types
 *      (tsconfig.core.json, run by `npm run typecheck`).
 *   4. React hooks rules (eslint-plugin-react-hooks, recommended, warnings raised to errors).
 *   5. No HTML from strings anywhere in src (no-restricted-syntax).
 *   6. Kebab-case file and folder names (local rule below).
 *   7. No network channel that the browser specs' request routes cannot see (no-restricted-globals,
 *      no-restricted-properties): WebSocket, EventSource, WebTransport, RTCPeerConnection, navigator.sendBeacon.
 *      The app's requests are fetch/XHR only, which test/browser/harness.ts attributes to page, worker or frame.
 */

// ---------------------------------------------------------------- 1. layers

/** Each layer is a folder (or file) of src. Core's sub-layers are listed bottom-up. */
const ELEMENTS = [
  { type: 'core-py', pattern: 'src/core/py' },
  { type: 'core-data', pattern: 'src/core/model/data' },
  { type: 'core-episode', pattern: 'src/core/model/episode' },
  { type: 'core-domains', pattern: 'src/core/model/domains' },
  { type: 'core-env', pattern: 'src/core/env' },
  { type: 'core-judge', pattern: 'src/core/judge' },
  { type: 'core-view', pattern: 'src/core/view' },
  { type: 'core-session', pattern: 'src/core/session' },
  // File formats every layer outside core may import (the share-link codec, file stems, Parquet bounds): imports nothing but fflate.
  { type: 'formats', pattern: 'src/formats' },
  // The page ↔ worker messages (src/protocol/messages.ts) and the types they carry besides core's.
  { type: 'protocol', pattern: 'src/protocol' },
  { type: 'worker', pattern: 'src/worker' },
  { type: 'store', pattern: 'src/store' },
  { type: 'ui', pattern: 'src/ui' },
  // One element per feature folder: imports between two features are between two elements.
  { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
  { type: 'app', pattern: 'src/app' },
  { type: 'cli', pattern: 'src/cli' },
];

/** Layers that are single files rather than folders. */
const FILES = [
  { category: 'core-contract', pattern: 'src/core/contract.ts' },
  { category: 'core-globals', pattern: 'src/core/globals.d.ts' },
  { category: 'app-entry', pattern: ['src/main.tsx', 'src/index.css'] },
];

/** Who may import whom. Anything not listed is an error; imports inside one element are free. */
const MAY_IMPORT = {
  'core-py': [],
  'core-data': ['core-py'],
  'core-episode': ['core-py', 'core-data'],
  'core-domains': ['core-py', 'core-data'],
  'core-env': ['core-py', 'core-data', 'core-episode', 'core-domains'],
  'core-judge': ['core-py', 'core-data', 'core-episode', 'core-domains', 'core-env'],
  'core-view': ['core-py', 'core-data', 'core-episode', 'core-domains', 'core-env', 'core-judge'],
  'core-session': ['core-py', 'core-data', 'core-episode', 'core-domains', 'core-env', 'core-judge', 'core-view'],
  'core-contract': ['core-py', 'core-data', 'core-episode', 'core-domains', 'core-env', 'core-judge', 'core-view', 'core-session'],
  'core-globals': [],
  formats: [],
  protocol: ['core-contract', 'formats'],
  worker: ['core-contract', 'formats', 'protocol'],
  store: ['core-contract', 'formats', 'protocol'],
  ui: ['core-contract', 'formats', 'protocol'], // + store, types only (below)
  feature: ['core-contract', 'formats', 'protocol', 'store', 'ui'], // never another feature
  app: ['core-contract', 'formats', 'protocol', 'store', 'ui', 'feature', 'worker'],
  'app-entry': ['core-contract', 'formats', 'protocol', 'store', 'ui', 'feature', 'worker', 'app', 'app-entry'],
  cli: ['core-contract', 'formats'],
};

const FILE_LAYERS = new Set(FILES.map((f) => f.category));
const element = (type) => (FILE_LAYERS.has(type) ? { file: { categories: type } } : { element: { type } });
const layerPolicies = [
  ...Object.entries(MAY_IMPORT).map(([from, allow]) => ({ from: element(from), allow: allow.map((to) => ({ to: element(to) })) })),
  // src/ui may use the store's types (AppState, AppStore), never its values.
  { from: element('ui'), allow: [{ to: element('store'), dependency: { kind: 'type' } }] },
];
/** Handlebars for the layer name of either side: an element type or a single-file layer's category. */
const LAYER_OF = (side) => `{{${side}.element.type}}{{#each ${side}.file.categories}}{{this}}{{/each}}`;
const LAYER_MESSAGE =
  `${LAYER_OF('from')} may not import ${LAYER_OF('to')}. ` +
  'Core points one way (py ← model: data ← episode, domains ← env ← judge ← view ← session ← contract); ' +
  'outside core only src/core/contract.ts is importable (add a re-export there); ' +
  'features never import each other (share through src/ui). See MAY_IMPORT in eslint.config.js.';

// ---------------------------------------------------------------- 2. packages per layer

const NODE = {
  group: ['node:*', 'fs', 'fs/*', 'path', 'url', 'os', 'child_process', 'util', 'stream', 'buffer', 'process', 'crypto'],
  message: 'Only src/cli (and tests, benches, scripts) may use Node built-ins.',
};
const REACT = { group: ['react', 'react/*', 'react-dom', 'react-dom/*', '@tanstack/react-*'], message: 'This layer is React-free.' };
const ZUSTAND_REACT = { name: 'zustand', message: 'Use zustand/vanilla here; React bindings live in src/ui.' };
const ZUSTAND_ANY = { group: ['zustand', 'zustand/*'], message: 'Core and the worker hold no app state: no zustand.' };
// ---------------------------------------------------------------- 7. network channels

const UNSEEN_CHANNEL_MESSAGE =
  'The app talks to the network with fetch only: the browser specs attribute every fetch to page, worker or frame (test/browser/harness.ts), not this channel.';
const NO_UNSEEN_CHANNELS = ['WebSocket', 'EventSource', 'WebTransport', 'RTCPeerConnection'].map((name) => ({ name, message: UNSEEN_CHANNEL_MESSAGE }));

const restrictImports = ({ patterns = [], paths = [] }) => ({ 'no-restricted-imports': ['error', { patterns, paths }] });

// ---------------------------------------------------------------- 3. host globals core may not touch

const CORE_GLOBALS = [
  'window',
  'self',
  'globalThis',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'caches',
  'fetch',
  'XMLHttpRequest',
  'postMessage',
  'process',
  'Buffer',
  'require',
  '__dirname',
  '__filename',
].map((name) => ({ name, message: 'src/core runs in the browser, the worker and Node alike: take what you need as a parameter.' }));

// ---------------------------------------------------------------- 5. no HTML from strings

const NO_HTML = [
  {
    selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
    message: 'Model output, notes and file names are untrusted text: render them as text, never HTML.',
  },
  {
    selector: 'AssignmentExpression > MemberExpression.left[property.name=/^(innerHTML|outerHTML)$/]',
    message: 'Never assign HTML strings: set textContent or render with React.',
  },
  {
    selector: 'CallExpression[callee.property.name=/^(insertAdjacentHTML|createContextualFragment)$/]',
    message: 'Never parse HTML strings: build nodes or render with React.',
  },
  { selector: "CallExpression[callee.object.name='document'][callee.property.name=/^write(ln)?$/]", message: 'No document.write.' },
];

// ---------------------------------------------------------------- 6. kebab-case names

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$/;
const local = {
  rules: {
    'kebab-case-path': {
      meta: { type: 'problem', schema: [], docs: { description: 'File and folder names are kebab-case (dots only before suffixes like .spec.ts).' } },
      create(context) {
        const rel = path.relative(context.cwd, context.filename);
        const bad = rel.startsWith('..') ? undefined : rel.split(path.sep).find((part) => !KEBAB.test(part));
        if (bad !== undefined) context.report({ loc: { line: 1, column: 0 }, message: `"${bad}" in ${rel} is not kebab-case.` });
        return {};
      },
    },
    // Issue 20 item 5: a key from a file stays data. `o[k] = v` on an object made by a literal (`{}`,
    // `{ ...x }`) with a computed key: a key named `__proto__` would set the prototype (and vanish),
    // `toString`, `constructor` would shadow or find inherited members. Use Object.create(null), a Map,
    // Object.fromEntries or Object.defineProperty.
    'no-computed-key-on-plain-object': {
      meta: { type: 'problem', schema: [], docs: { description: 'No computed-key assignment into an object literal (a key from a file could be __proto__).' } },
      create(context) {
        const literalInit = (id) => {
          for (let scope = context.sourceCode.getScope(id); scope; scope = scope.upper) {
            const v = scope.set.get(id.name);
            if (!v) continue;
            const def = v.defs[0];
            let init = def && def.node.type === 'VariableDeclarator' ? def.node.init : null;
            while (init && /^TS(As|Satisfies|NonNull)Expression$|^TSTypeAssertion$/.test(init.type)) init = init.expression;
            return init !== null && init !== undefined && init.type === 'ObjectExpression';
          }
          return false;
        };
        return {
          AssignmentExpression(node) {
            const l = node.left;
            if (l.type !== 'MemberExpression' || !l.computed || l.property.type === 'Literal' || l.object.type !== 'Identifier') return;
            if (literalInit(l.object))
              context.report({
                node,
                message: `${l.object.name}[…] = on an object literal: a key named __proto__ would vanish. Use Object.create(null), a Map or Object.fromEntries.`,
              });
          },
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.bench/**', 'src/core/py/nonprintable-ranges.ts'] },
  js.configs.recommended,
  { files: ['scripts/**/*.mjs', 'bin/**/*.mjs'], languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } } },
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    plugins: { local },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
      'local/kebab-case-path': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/files': FILES,
      'boundaries/include': ['src/**/*'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', message: LAYER_MESSAGE, policies: layerPolicies }],
      // Unresolvable or unclassified imports would slip past the layer rule: make them errors too.
      'boundaries/no-unknown-dependencies': 'error',
      'boundaries/no-unknown-files': 'error',
      'no-restricted-syntax': ['error', ...NO_HTML],
      'local/no-computed-key-on-plain-object': 'error',
    },
  },
  {
    // JSON the CLI prints or writes, and JSON the app exports (notes, links), is inert: made by
    // `inertJson` (core/view/inert-json.ts), which also escapes C1 and bidi controls.
    files: ['src/cli/**/*.ts', 'src/worker/shared-episode.ts', 'src/core/view/notes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...NO_HTML,
        {
          selector: "CallExpression[callee.object.name='JSON'][callee.property.name='stringify']",
          message: 'Output JSON goes through inertJson (core/contract): it escapes C1 and bidi controls too.',
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      // Warnings do not fail `npm run lint`; a missing dependency is a bug.
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', ...NO_UNSEEN_CHANNELS],
      'no-restricted-properties': ['error', { object: 'navigator', property: 'sendBeacon', message: UNSEEN_CHANNEL_MESSAGE }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      ...restrictImports({
        patterns: [
          REACT,
          ZUSTAND_ANY,
          NODE,
          { group: ['idb-keyval', 'fflate'], message: 'Storage and transport belong to the worker and store, not core.' },
          { group: ['immer'], message: "A DB changes through writeDb (core/env/drafts.ts); immer is the specs' reference only." },
        ],
      }),
      'no-restricted-globals': ['error', ...CORE_GLOBALS, ...NO_UNSEEN_CHANNELS],
    },
  },
  {
    files: ['src/formats/**/*.ts'],
    rules: restrictImports({
      patterns: [
        REACT,
        ZUSTAND_ANY,
        NODE,
        {
          group: ['idb-keyval', 'immer', '@noble/*', 'hash-wasm', 'jsondiffpatch', 'fast-json-stable-stringify', '@tanstack/*'],
          message: 'src/formats imports nothing but fflate.',
        },
      ],
    }),
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: restrictImports({
      patterns: [
        REACT,
        ZUSTAND_ANY,
        NODE,
        { group: ['idb-keyval', 'fflate'], message: 'The protocol declares messages; storage and transport live in the worker and the store.' },
      ],
    }),
  },
  { files: ['src/worker/**/*.ts'], rules: restrictImports({ patterns: [REACT, ZUSTAND_ANY, NODE] }) },
  { files: ['src/store/**/*.ts'], rules: restrictImports({ patterns: [REACT, NODE], paths: [ZUSTAND_REACT] }) },
  { files: ['src/ui/**/*.{ts,tsx}', 'src/features/**/*.{ts,tsx}', 'src/app/**/*.{ts,tsx}', 'src/main.tsx'], rules: restrictImports({ patterns: [NODE] }) },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrictImports({
      patterns: [REACT, { group: ['zustand', 'zustand/*', 'idb-keyval'], message: 'The CLI runs on core through the contract: no app state.' }],
    }),
  },
);
