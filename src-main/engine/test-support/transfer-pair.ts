import {
  receiveFiles,
  sendFiles,
  type FinalState,
  type ReceiveOptions,
  type Route,
  type SendOptions,
  type Transfer,
} from '..';

export interface PairOutcome {
  sender: FinalState;
  receiver: FinalState;
  /** The route each side reported when its channel opened. */
  senderRoute: Route | undefined;
  receiverRoute: Route | undefined;
  receiverTransfer: Transfer;
}

/** A sender through `serverUrl`, once it shows its code (and the key its receive link carries). */
export async function startSender(
  serverUrl: string,
  send: Omit<SendOptions, 'serverUrl' | 'remedySurface'>,
): Promise<{ sender: Transfer; code: string; key?: string }> {
  const sender = sendFiles({ serverUrl, remedySurface: 'cli', ...send });
  return { sender, ...(await codeShownBy(sender)) };
}

/** The code a sender shows, and its link's key; rejects when the sender fails first. */
function codeShownBy(sender: Transfer): Promise<{ code: string; key?: string }> {
  return new Promise((resolve, reject) => {
    sender.on('state', (state) => {
      if (state.phase === 'waiting-for-peer') {
        resolve({ code: state.code, ...(state.key === undefined ? {} : { key: state.key }) });
      }
      if (state.phase === 'failed') reject(new Error(`sender failed first: ${state.message}`));
    });
  });
}

/**
 * Runs a sender and a receiver through `serverUrl`, the receiver joining with the code the
 * sender shows (and, with `keyFromLink`, the secret its receive link carries), and waits until
 * both have finished (everything closed).
 */
export async function transferPair(
  serverUrl: string,
  send: Omit<SendOptions, 'serverUrl' | 'remedySurface'>,
  receive: Omit<ReceiveOptions, 'serverUrl' | 'remedySurface' | 'code'>,
  onReceiverStart: (transfer: Transfer) => void = () => undefined,
  onSenderStart: (transfer: Transfer) => void = () => undefined,
  keyFromLink = false,
): Promise<PairOutcome> {
  const sender = sendFiles({ serverUrl, remedySurface: 'cli', ...send });
  onSenderStart(sender);
  let senderRoute: Route | undefined;
  sender.on('connected', (route) => (senderRoute = route));
  const { code, key } = await codeShownBy(sender);
  if (keyFromLink && key === undefined) throw new Error('the sender showed no link key');
  const receiver = receiveFiles({
    serverUrl,
    remedySurface: 'cli',
    ...receive,
    code,
    ...(keyFromLink && key !== undefined ? { linkSecret: key } : {}),
  });
  let receiverRoute: Route | undefined;
  receiver.on('connected', (route) => (receiverRoute = route));
  onReceiverStart(receiver);
  const [senderFinal, receiverFinal] = await Promise.all([sender.finished, receiver.finished]);
  return {
    sender: senderFinal,
    receiver: receiverFinal,
    senderRoute,
    receiverRoute,
    receiverTransfer: receiver,
  };
}
