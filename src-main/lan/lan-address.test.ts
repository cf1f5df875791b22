import { createServer, type Server } from 'node:net';
import type { NetworkInterfaceInfo } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseLanAddress, findFreePort, lanAddresses, type InterfaceTable } from './lan-address';
import { LanError } from './lan-error';

function ipv4(address: string, internal = false): NetworkInterfaceInfo {
  return {
    address,
    netmask: '255.255.255.0',
    family: 'IPv4',
    mac: '02:00:00:00:00:01',
    internal,
    cidr: `${address}/24`,
  };
}

function ipv6(address: string): NetworkInterfaceInfo {
  return {
    address,
    netmask: 'ffff:ffff:ffff:ffff::',
    family: 'IPv6',
    mac: '02:00:00:00:00:01',
    internal: false,
    cidr: `${address}/64`,
    scopeid: 0,
  };
}

const loopback = { lo: [ipv4('127.0.0.1', true), ipv6('::1')] };

describe('choosing the LAN address', () => {
  it("picks the Wi-Fi's private address over loopback, docker, veth and libvirt bridges", () => {
    const table: InterfaceTable = {
      ...loopback,
      docker0: [ipv4('172.17.0.1')],
      'br-5f2a9c': [ipv4('172.18.0.1')],
      veth12ab: [ipv4('10.0.3.1')],
      virbr0: [ipv4('192.168.122.1')],
      wlan0: [ipv6('fe80::1'), ipv4('192.168.1.20')],
    };
    expect(chooseLanAddress(table)).toEqual({ interfaceName: 'wlan0', address: '192.168.1.20' });
  });

  it('skips link-local and IPv6-only interfaces', () => {
    const table: InterfaceTable = {
      ...loopback,
      eth1: [ipv4('169.254.10.3')],
      eth2: [ipv6('fd00::5')],
      eth0: [ipv4('10.1.2.3')],
    };
    expect(lanAddresses(table).map((entry) => entry.address)).toEqual(['10.1.2.3']);
  });

  it('puts private ranges before public addresses, 192.168 before 10 before 172.16', () => {
    const table: InterfaceTable = {
      eth0: [ipv4('130.83.1.7')],
      eth1: [ipv4('172.20.0.9')],
      eth2: [ipv4('10.0.0.5')],
      eth3: [ipv4('192.168.0.8')],
    };
    expect(lanAddresses(table).map((entry) => entry.address)).toEqual([
      '192.168.0.8',
      '10.0.0.5',
      '172.20.0.9',
      '130.83.1.7',
    ]);
  });

  it('puts a VPN tunnel after every physical link, even a public one', () => {
    const table: InterfaceTable = {
      tun0: [ipv4('10.8.0.2')],
      wg0: [ipv4('192.168.200.1')],
      eth0: [ipv4('130.83.1.7')],
    };
    expect(lanAddresses(table).map((entry) => entry.interfaceName)).toEqual([
      'eth0',
      'wg0',
      'tun0',
    ]);
  });

  it("skips Windows' Hyper-V and WSL switches and macOS VM bridges", () => {
    const table: InterfaceTable = {
      'vEthernet (WSL)': [ipv4('172.29.160.1')],
      'VirtualBox Host-Only Network': [ipv4('192.168.56.1')],
      bridge100: [ipv4('192.168.64.1')],
      'Wi-Fi': [ipv4('192.168.178.33')],
    };
    expect(chooseLanAddress(table).interfaceName).toBe('Wi-Fi');
  });

  it('gives the same answer whatever order the operating system lists interfaces in', () => {
    const entries: [string, NetworkInterfaceInfo[]][] = [
      ['enp3s0', [ipv4('192.168.1.30'), ipv4('192.168.1.4')]],
      ['wlp2s0', [ipv4('192.168.1.20')]],
      ['eno1', [ipv4('192.168.1.9')]],
    ];
    const forward = lanAddresses(Object.fromEntries(entries));
    const backward = lanAddresses(Object.fromEntries([...entries].reverse()));
    expect(backward).toEqual(forward);
    expect(forward.map((entry) => entry.address)).toEqual([
      '192.168.1.9',
      '192.168.1.4',
      '192.168.1.30',
      '192.168.1.20',
    ]);
  });

  it('fails with ERR_NO_LAN_ADDRESS on a machine with loopback only', () => {
    expect(() => chooseLanAddress(loopback)).toThrow(
      expect.objectContaining({ code: 'ERR_NO_LAN_ADDRESS' }),
    );
  });
});

describe('finding a free port', () => {
  const held: Server[] = [];

  function hold(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        held.push(server);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  async function releasedPort(): Promise<number> {
    const port = await hold(0);
    await new Promise((resolve) => held.pop()?.close(resolve));
    return port;
  }

  afterEach(async () => {
    await Promise.all(held.splice(0).map((server) => new Promise((done) => server.close(done))));
  });

  it('returns the preferred port when nothing listens on it', async () => {
    const port = await releasedPort();
    expect(await findFreePort('127.0.0.1', port)).toBe(port);
  });

  it('skips a port in use and returns one that can be bound', async () => {
    const taken = await hold(0);
    const port = await findFreePort('127.0.0.1', taken);
    expect(port).toBeGreaterThan(taken);
    expect(await hold(port)).toBe(port);
  });

  it('fails with ERR_NO_FREE_PORT once every attempt is taken', async () => {
    const taken = await hold(0);
    const attempt = findFreePort('127.0.0.1', taken, 1);
    await expect(attempt).rejects.toBeInstanceOf(LanError);
    await expect(attempt).rejects.toMatchObject({ code: 'ERR_NO_FREE_PORT' });
  });
});
