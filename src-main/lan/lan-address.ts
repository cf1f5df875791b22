import { createServer } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { DEFAULT_SIGNALING_PORT } from '../../src-shared/signaling/limits';
import { LanError } from './lan-error';

/** The shape of `os.networkInterfaces()`, so tests can hand in a machine of their own. */
export type InterfaceTable = Readonly<Record<string, readonly NetworkInterfaceInfo[] | undefined>>;

export interface LanAddress {
  interfaceName: string;
  address: string;
}

// Container, VM and hypervisor software names its bridges predictably, and a phone on the same
// Wi-Fi can reach none of them. A plain `br0` is left alone: servers put their LAN address there.
const VIRTUAL_BRIDGE =
  /^(docker|br-|veth|virbr|vmnet|vboxnet|cni|flannel|cali|weave|lxcbr|lxdbr|podman|bridge\d|vEthernet|VirtualBox|VMware)/i;

// A VPN tunnel may carry a private address, but the devices on the local network are not behind it.
const TUNNEL = /^(tun|tap|wg|tailscale|utun|zt|ppp|ipsec)/i;

const PORT_ATTEMPTS = 20;

function octets(address: string): number[] {
  return address.split('.').map(Number);
}

function isLoopbackOrLinkLocal(address: string): boolean {
  const [first, second] = octets(address);
  return first === 127 || (first === 169 && second === 254) || first === 0;
}

/** RFC 1918 ranges, most common on home networks first; anything else after them. */
function rangeRank(address: string): number {
  const [first, second] = octets(address);
  if (first === 192 && second === 168) return 0;
  if (first === 10) return 1;
  if (first === 172 && second >= 16 && second <= 31) return 2;
  return 3;
}

function compareAddresses(left: string, right: string): number {
  const a = octets(left);
  const b = octets(right);
  for (let index = 0; index < 4; index += 1) {
    if (a[index] !== b[index]) return a[index] - b[index];
  }
  return 0;
}

function compareText(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

/**
 * Every IPv4 address another device on the local network could use to reach this one, best
 * first: physical links before VPN tunnels, private ranges before public ones, then by interface
 * name and address so the same machine always gives the same answer.
 */
export function lanAddresses(table: InterfaceTable = networkInterfaces()): LanAddress[] {
  const found: LanAddress[] = [];
  for (const [interfaceName, entries] of Object.entries(table)) {
    if (VIRTUAL_BRIDGE.test(interfaceName)) continue;
    for (const entry of entries ?? []) {
      if (entry.family !== 'IPv4' || entry.internal || isLoopbackOrLinkLocal(entry.address)) {
        continue;
      }
      found.push({ interfaceName, address: entry.address });
    }
  }
  return found.sort(
    (left, right) =>
      Number(TUNNEL.test(left.interfaceName)) - Number(TUNNEL.test(right.interfaceName)) ||
      rangeRank(left.address) - rangeRank(right.address) ||
      compareText(left.interfaceName, right.interfaceName) ||
      compareAddresses(left.address, right.address),
  );
}

/** The address a LAN room listens on and announces; fails with ERR_NO_LAN_ADDRESS when offline. */
export function chooseLanAddress(table: InterfaceTable = networkInterfaces()): LanAddress {
  const [best] = lanAddresses(table);
  if (!best) throw new LanError('ERR_NO_LAN_ADDRESS');
  return best;
}

function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * The preferred port when nothing listens on it at `host`, else the next free one. Another
 * program can still take the port before the caller binds it, so a caller that loses that race
 * should ask again rather than treat it as fatal.
 */
export async function findFreePort(
  host: string,
  preferred: number = DEFAULT_SIGNALING_PORT,
  attempts: number = PORT_ATTEMPTS,
): Promise<number> {
  const last = Math.min(preferred + attempts - 1, 65_535);
  for (let port = preferred; port <= last; port += 1) {
    if (await isFree(host, port)) return port;
  }
  throw new LanError('ERR_NO_FREE_PORT', `${host}:${preferred}-${last}`);
}
