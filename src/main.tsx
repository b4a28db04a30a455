import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { connectEvaluator } from './app/evaluator-client';
import { persistLayout } from './app/layout-persist';
import { syncLink } from './app/link-sync';
import { createAppStore } from './store/app-store';
import { hostConsent, type KeyValueStorage } from './store/consent';
import { indexedDbNotes } from './store/notes-port';
import './index.css';

const evaluator = connectEvaluator();
function browserStorage(): KeyValueStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const store = createAppStore(evaluator.port, hostConsent(location.origin, browserStorage()), indexedDbNotes());
void store.getState().loadNotes();
evaluator.attach(store);
persistLayout(store);
syncLink(store);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
