import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './app/ferry.css';
import { selectBackend } from './backend/select-backend';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App backend={selectBackend(window)} link={window.location.hash} />
    </StrictMode>,
  );
}
