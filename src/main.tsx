import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { connectEvaluator } from './app/evaluator-client';
import { syncLink } from './app/link-sync';
import { createAppStore } from './store/app-store';
import { indexedDbNotes } from './store/notes-port';
import './index.css';

const evaluator = connectEvaluator();
const store = createAppStore(evaluator.port, indexedDbNotes());
void store.getState().loadNotes();
evaluator.attach(store);
syncLink(store);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
