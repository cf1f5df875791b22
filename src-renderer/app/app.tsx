import { useEffect, useState } from 'react';
import type { FerryBackend } from '../backend/ferry-backend';
import { receiveFromLink } from '../links/receive-link';
import { createFerryStores } from '../stores/ferry-stores';
import { followBackend } from '../stores/follow-backend';
import { AppLayout } from './app-layout';
import { StoresContext } from '../stores/stores-context';
import { useStrayDropGuard } from './use-stray-drop-guard';

interface AppProps {
  backend: FerryBackend;
  /**
   * The page's location hash: a receive link (`#receive=<code>&key=<secret>`) opens Receive with
   * the code, its key kept for it.
   */
  link?: string;
}

export function App({ backend, link = '' }: AppProps) {
  const [stores] = useState(() => {
    const created = createFerryStores(backend);
    const opened = receiveFromLink(link);
    if (opened) {
      created.codeDraft.getState().openLink(opened);
      created.screen.getState().show('receive');
    }
    return created;
  });

  useEffect(() => {
    const following = new AbortController();
    void followBackend(stores, following.signal);
    return () => following.abort();
  }, [stores]);

  useStrayDropGuard();

  return (
    <StoresContext value={stores}>
      <AppLayout />
    </StoresContext>
  );
}
