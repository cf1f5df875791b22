import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './app/ferry.css';
import { selectBackend } from './backend/select-backend';

const root = document.getElementById('root');
if (root) {
  const page = createRoot(root);
  // In a browser the backend is a chunk of its own, fetched before the first render.
  selectBackend(window).then(
    (backend) =>
      page.render(
        <StrictMode>
          <App backend={backend} link={window.location.hash} />
        </StrictMode>,
      ),
    (error: unknown) => {
      root.textContent = `Ferry could not start (${String(error)}). Reload the page to try again.`;
    },
  );
}
