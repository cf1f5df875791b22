import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRoomCertificate, ROOM_CERTIFICATE_FILE } from './room-certificate';

const freshFolder = (): Promise<string> => mkdtemp(join(tmpdir(), 'ferry-room-certificate-'));
const FINGERPRINT = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;

function logLines(): { lines: string[]; log: (line: string) => void } {
  const lines: string[] = [];
  return { lines, log: (line) => lines.push(line) };
}

describe("a LAN room's certificate", () => {
  it('is made once and kept: a second start serves the same one', async () => {
    const folder = await freshFolder();
    const { lines, log } = logLines();
    const made = await loadRoomCertificate(folder, ['192.168.1.20'], log);
    expect(made.fingerprint).toMatch(FINGERPRINT);
    const again = await loadRoomCertificate(folder, ['192.168.1.20'], log);
    expect(again.fingerprint).toBe(made.fingerprint);
    expect(again.key).toBe(made.key);
    expect(lines).toEqual([]);
  });

  it('is readable by its owner only', async () => {
    const folder = await freshFolder();
    await loadRoomCertificate(folder, ['192.168.1.20'], () => undefined);
    expect((await stat(join(folder, ROOM_CERTIFICATE_FILE))).mode & 0o777).toBe(0o600);
  });

  it('names the addresses it serves, and its fingerprint is the one browsers show', async () => {
    const folder = await freshFolder();
    const made = await loadRoomCertificate(folder, ['192.168.1.20', 'localhost'], () => undefined);
    const certificate = new X509Certificate(made.certificate);
    expect(certificate.checkIP('192.168.1.20')).toBe('192.168.1.20');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.checkIP('192.168.1.21')).toBeUndefined();
    expect(certificate.fingerprint256).toBe(made.fingerprint);
  });

  it('is replaced with a log line, not a crash, when its file is damaged', async () => {
    const folder = await freshFolder();
    const made = await loadRoomCertificate(folder, ['192.168.1.20'], () => undefined);
    const file = join(folder, ROOM_CERTIFICATE_FILE);
    await writeFile(file, (await readFile(file, 'utf8')).slice(0, 200));
    const { lines, log } = logLines();
    const replaced = await loadRoomCertificate(folder, ['192.168.1.20'], log);
    expect(replaced.fingerprint).not.toBe(made.fingerprint);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^The LAN room certificate in ${file} was replaced because .*${replaced.fingerprint}\\.$`,
        ),
      ),
    ]);
    expect((await loadRoomCertificate(folder, ['192.168.1.20'], log)).fingerprint).toBe(
      replaced.fingerprint,
    );
    expect(lines).toHaveLength(1);
  });

  it('is replaced, and says so, when its key is not the certificate’s', async () => {
    const first = await freshFolder();
    const second = await freshFolder();
    const mine = await loadRoomCertificate(first, ['10.0.0.2'], () => undefined);
    const theirs = await loadRoomCertificate(second, ['10.0.0.2'], () => undefined);
    await writeFile(join(first, ROOM_CERTIFICATE_FILE), `${mine.certificate}\n${theirs.key}\n`);
    const { lines, log } = logLines();
    const replaced = await loadRoomCertificate(first, ['10.0.0.2'], log);
    expect(replaced.fingerprint).not.toBe(mine.fingerprint);
    expect(lines).toEqual([expect.stringContaining('its key is not the certificate’s')]);
  });

  it('is made anew, and says so, when the room serves an address it does not name', async () => {
    const folder = await freshFolder();
    const made = await loadRoomCertificate(folder, ['192.168.1.20'], () => undefined);
    const { lines, log } = logLines();
    const moved = await loadRoomCertificate(folder, ['10.0.0.7'], log);
    expect(moved.fingerprint).not.toBe(made.fingerprint);
    expect(new X509Certificate(moved.certificate).checkIP('10.0.0.7')).toBe('10.0.0.7');
    expect(lines).toEqual([expect.stringContaining('it does not name 10.0.0.7')]);
  });
});
