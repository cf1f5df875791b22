import { batchWords } from '../../src-shared/transfer/text-message-words';
import { useId } from 'react';
import { useStore } from 'zustand';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { useFerryStores } from '../stores/stores-context';
import { reachableFromOtherDevices, receiveLink, webClientFor } from '../links/receive-link';
import { CancelTransfer } from './cancel-transfer';
import { CodeCountdown } from './code-countdown';
import { CodeDisplay } from './code-display';
import { CopyLinkButton } from './copy-link-button';
import { QrCode } from './qr-code';
import { StepHeading } from './step-heading';
import { plainHttpSentence } from '../wording/plain-http';

type WaitingForPeer = Extract<TransferView, { phase: 'waiting-for-peer' }>;

/** The sender's code, to read out, copy or scan, while Ferry waits for the other device. */
export function CodeReady({ view }: { view: WaitingForPeer }) {
  const { backend, lanRoom, settings } = useFerryStores();
  const room = useStore(lanRoom, (state) => state.room);
  const serverUrl = useStore(settings, (state) => state.settings?.serverUrl);
  const webClient = webClientFor(room, serverUrl, backend.webClientUrl);
  const link = receiveLink(view.code, webClient, view.key);
  // A link to a loopback address would lead a phone to itself: no QR code then, and one line on
  // how a phone can reach Ferry instead.
  const localOnly = webClient !== undefined && !reachableFromOtherDevices(webClient);
  const onLanRoom = room.state === 'on' && webClient === room.url;
  const headingId = useId();
  // Said while the person waits, when a notification would have called them back.
  const plainHttp = plainHttpSentence(
    backend.capabilities.plainHttpLimits.filter((limit) => limit === 'notify'),
  );

  return (
    <section className="step" aria-labelledby={headingId}>
      <StepHeading id={headingId}>Your code</StepHeading>
      <p className="hint">Sending {batchWords({ fileCount: view.files.length, ...view })}.</p>
      <div className="code-share">
        <CodeDisplay code={view.code} />
        {localOnly ? (
          <div className="code-qr code-qr--local">
            <p className="hint" data-testid="phone-hint">
              {backend.capabilities.lanRoom ? (
                'To receive on a phone, turn on Host a LAN room in Settings: this address works on this computer only.'
              ) : (
                // A page served by `npm start` or `npm run web` on loopback: the same command
                // with HOST=0.0.0.0 serves it to the network.
                <>
                  This page’s address works on this computer only. To receive on a phone on the same
                  network, start Ferry with <code>HOST=0.0.0.0 npm start</code> and open this
                  computer’s network address there.
                </>
              )}
            </p>
            <CopyLinkButton link={link} />
          </div>
        ) : (
          <figure className="code-qr">
            <QrCode
              text={link}
              label={
                webClient ? 'QR code of a link that receives these files' : 'QR code of the code'
              }
            />
            <figcaption className="hint">
              {webClient === undefined
                ? 'Or scan this to read the code on another device.'
                : onLanRoom
                  ? 'Or scan this with a phone on the same network to receive in its browser.'
                  : 'Or scan this with a phone to receive in its browser.'}
            </figcaption>
            {webClient && <CopyLinkButton link={link} />}
          </figure>
        )}
      </div>
      <CodeCountdown />
      {plainHttp !== undefined && (
        <p className="hint" data-testid="plain-http-limits">
          {plainHttp}
        </p>
      )}
      <p className="next-step">
        On the other device, open Ferry, choose Receive and type these words. Ferry connects as soon
        as they do; keep this window open.
      </p>
      <CancelTransfer />
    </section>
  );
}
