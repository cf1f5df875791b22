import { useStore } from 'zustand';
import { ReceiveScreen } from '../screens/receive-screen';
import { SendScreen } from '../screens/send-screen';
import { SettingsScreen } from '../screens/settings-screen';
import { TransferScreen } from '../screens/transfer-screen';
import { asSentence } from '../../src-shared/format/as-sentence';
import { AppTabs, PANEL_ID, tabId } from './app-tabs';
import { NoticeBar } from './notice-bar';
import { PageStatus } from './page-status';
import { RememberedDevicesPanel } from '../components/remembered-devices-panel';
import { HistoryPanel } from '../components/history-panel';
import { ConfirmWordsSetting } from '../components/confirm-words-setting';
import { useFerryStores } from '../stores/stores-context';

function CurrentScreen() {
  const { screen, transfer } = useFerryStores();
  const current = useStore(screen, (state) => state.screen);
  const view = useStore(transfer, (state) => state.view);
  if (current === 'settings') return <SettingsScreen />;
  if (view.phase !== 'idle') return <TransferScreen view={view} />;
  return current === 'send' ? <SendScreen /> : <ReceiveScreen />;
}

/** The window: a start-up message until the backend answers, then tabs and the current screen. */
export function AppLayout() {
  const { backend, screen, session } = useFerryStores();
  const state = useStore(session, (current) => current.session);
  const current = useStore(screen, (current) => current.screen);

  if (state.state === 'starting') {
    return (
      <main className="app-status" aria-busy="true">
        <h1 className="app-title">Ferry</h1>
        <p>Starting Ferry…</p>
      </main>
    );
  }
  if (state.state === 'failed') {
    return (
      <main className="app-status">
        <h1 className="app-title">Ferry</h1>
        <p>{asSentence(state.error.message)}</p>
      </main>
    );
  }
  return (
    <div className="app">
      <PageStatus />
      <header className="app-header">
        <h1 className="app-title">Ferry</h1>
        <AppTabs />
      </header>
      <NoticeBar />
      <main className="app-main">
        <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(current)}>
          <CurrentScreen />
        </div>
        {!backend.capabilities.settings && (
          // Without a settings screen (the web client), what applies to a page is one click away.
          <details className="web-devices" data-testid="web-settings">
            <summary>Settings</summary>
            <ConfirmWordsSetting />
          </details>
        )}
        {!backend.capabilities.settings && (
          // Without a settings screen (the web client), the remembered devices are one click away.
          <details className="web-devices" data-testid="web-devices">
            <summary>Remembered devices</summary>
            <RememberedDevicesPanel title={false} />
          </details>
        )}
        {!backend.capabilities.settings && (
          <details className="web-devices" data-testid="web-history">
            <summary>History</summary>
            <HistoryPanel title={false} />
          </details>
        )}
      </main>
    </div>
  );
}
