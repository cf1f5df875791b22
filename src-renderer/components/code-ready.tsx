import { useId } from 'react';
import { useStore } from 'zustand';
import { formatBytes } from '../../src-shared/format/format-bytes';
import type { TransferView } from '../../src-shared/transfer/transfer-view';
import { useFerryStores } from '../stores/stores-context';
import { receiveLink, webClientFor } from '../links/receive-link';
import { countOf } from '../wording/count-of';
import { CancelTransfer } from './cancel-transfer';
import { CodeDisplay } from './code-display';
import { CopyLinkButton } from './copy-link-button';
import { QrCode } from './qr-code';
import { StepHeading } from './step-heading';

type WaitingForPeer = Extract<TransferView, { phase: 'waiting-for-peer' }>;

/** The sender's code, to read out, copy or scan, while Ferry waits for the other device. */
export function CodeReady({ view }: { view: WaitingForPeer }) {
  const { backend, lanRoom, settings } = useFerryStores();
  const room = useStore(lanRoom, (state) => state.room);
  const serverUrl = useStore(settings, (state) => state.settings?.serverUrl);
  const webClient = webClientFor(room, serverUrl, backend.webClientUrl);
  const link = receiveLink(view.code, webClient, view.key);
  const headingId = useId();

  return (
    <section className="step" aria-labelledby={headingId}>
      <StepHeading id={headingId}>Your code</StepHeading>
      <p className="hint">
        Sending {countOf(view.files.length, 'file')}, {formatBytes(view.totalBytes)}.
      </p>
      <div className="code-share">
        <CodeDisplay code={view.code} />
        <figure className="code-qr">
          <QrCode
            text={link}
            label={
              webClient ? 'QR code of a link that receives these files' : 'QR code of the code'
            }
          />
          <figcaption className="hint">
            {webClient
              ? 'Or scan this with a phone on the same network to receive in its browser.'
              : 'Or scan this to read the code on another device.'}
          </figcaption>
          {webClient && <CopyLinkButton link={link} />}
        </figure>
      </div>
      <p className="next-step">
        On the other device, open Ferry, choose Receive and type these words. Ferry connects as soon
        as they do; keep this window open.
      </p>
      <CancelTransfer />
    </section>
  );
}
