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
  const shown = await new Promise<{ code: string; key?: string }>((resolve, reject) => {
    sender.on('state', (state) => {
      if (state.phase === 'waiting-for-peer') resolve(state);
      if (state.phase === 'failed') reject(new Error(`sender failed first: ${state.message}`));
    });
  });
  const { code, key } = shown;
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
