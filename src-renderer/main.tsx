import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './app/ferry.css';
import { selectBackend } from './backend/select-backend';

const root = document.getElementById('root');
// Read once, then taken out of the address bar and this history entry: a receive link's key
// must not stay where a shoulder, a screenshot or a synced history can read it
// (docs/protocol.md, "Secret link").
const link = window.location.hash;
if (link !== '') {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
}
if (root) {
  const page = createRoot(root);
  // In a browser the backend is a chunk of its own, fetched before the first render.
  selectBackend(window).then(
    (backend) =>
      page.render(
        <StrictMode>
          <App backend={backend} link={link} />
        </StrictMode>,
      ),
    (error: unknown) => {
      root.textContent = `Ferry could not start (${String(error)}). Reload the page to try again.`;
    },
  );
}
