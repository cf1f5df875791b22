import multicastDns from 'multicast-dns';
import { LanError } from './lan-error';

export type MdnsSocket = multicastDns.MulticastDNS;
export type MdnsResponse = multicastDns.ResponsePacket;

/**
 * An mDNS socket that joins the group on the interface owning `address` only and sends from it,
 * so rooms are looked for on the network it serves and nowhere else (and inside a network
 * namespace, on that namespace's link). Resolves once queries can be sent and received.
 */
export function openMdnsSocket(address: string): Promise<MdnsSocket> {
  return new Promise((resolve, reject) => {
    // Bound to the wildcard address: on Linux a socket bound to a unicast address never sees
    // datagrams sent to the multicast group.
    const socket = multicastDns({ interface: address, bind: '0.0.0.0', reuseAddr: true });
    let joined = false;
    let lastWarning: Error | undefined;
    const onJoined = () => {
      joined = true;
    };
    const onWarning = (warning: Error) => {
      lastWarning = warning;
    };
    socket.on('networkInterface', onJoined);
    socket.on('warning', onWarning);
    // Stays attached after start-up: only binding raises 'error', and an emitter without an
    // 'error' listener would throw instead. Rejecting an already settled promise does nothing.
    socket.on('error', (error: Error) => {
      socket.destroy();
      reject(new LanError('ERR_LAN_DISCOVERY_UNAVAILABLE', error.message, { cause: error }));
    });
    socket.once('ready', () => {
      socket.off('networkInterface', onJoined);
      socket.off('warning', onWarning);
      if (joined) {
        resolve(socket);
        return;
      }
      socket.destroy();
      const detail = `cannot join the mDNS group on ${address}: ${lastWarning?.message ?? 'unknown'}`;
      reject(new LanError('ERR_LAN_DISCOVERY_UNAVAILABLE', detail, { cause: lastWarning }));
    });
  });
}

export function closeMdnsSocket(socket: MdnsSocket): Promise<void> {
  return new Promise((resolve) => socket.destroy(resolve));
}
