import { describe, expect, it } from 'vitest';
import { parseArgs } from './parse-args';

const env = {};
const cwd = '/home/ana';

describe('the command line is read exactly as --help documents it', () => {
  it('send takes files and folders, and the default server is localhost:3001', () => {
    expect(parseArgs(['send', 'a.txt', 'photos/'], env, cwd)).toEqual({
      ok: true,
      command: {
        kind: 'send',
        server: { kind: 'url', url: 'http://localhost:3001' },
        paths: ['a.txt', 'photos/'],
        verify: false,
      },
    });
  });

  it('send takes --text, or --text - for standard input, but not beside files', () => {
    const sent = (args: string[]) => parseArgs(['send', ...args], env, cwd);
    expect(sent(['--text', 'hello https://example.com'])).toMatchObject({
      ok: true,
      command: { kind: 'send', paths: [], text: 'hello https://example.com' },
    });
    expect(sent(['--text', '-'])).toMatchObject({ ok: true, command: { text: '-' } });
    expect(sent(['--text', 'hi', 'a.txt'])).toEqual({
      ok: false,
      problem: 'send takes either files and folders or --text, not both',
    });
    expect(sent(['--text', ''])).toEqual({
      ok: false,
      problem: '--text needs the text to send, or - to read it from standard input',
    });
    expect(sent([])).toEqual({
      ok: false,
      problem: 'send needs at least one file or folder, or --text',
    });
  });

  it('FERRY_SERVER replaces the default server, and --server replaces both', () => {
    const fromEnv = parseArgs(['send', 'a'], { FERRY_SERVER: 'https://ferry.example' }, cwd);
    expect(fromEnv.ok && fromEnv.command).toMatchObject({
      server: { url: 'https://ferry.example' },
    });
    const fromFlag = parseArgs(
      ['send', '--server', 'http://10.0.0.2:3001/', 'a'],
      { FERRY_SERVER: 'https://x' },
      cwd,
    );
    expect(fromFlag.ok && fromFlag.command).toMatchObject({
      server: { url: 'http://10.0.0.2:3001' },
    });
  });

  it('receive takes --out, --yes, --no-report and one code, normalized', () => {
    expect(
      parseArgs(
        ['receive', '--out', 'inbox', '--yes', '--no-report', ' Plum-OTTER-cask '],
        env,
        cwd,
      ),
    ).toEqual({
      ok: true,
      command: {
        kind: 'receive',
        server: { kind: 'url', url: 'http://localhost:3001' },
        code: 'plum-otter-cask',
        out: 'inbox',
        yes: true,
        report: false,
        verify: false,
      },
    });
  });

  it('receive takes a whole receive link as its code, with or without its key', () => {
    const key = 'q83vEjRWeJCrze8SNFZ4kA';
    const withKey = parseArgs(
      ['receive', `https://ferry.example/#receive=plum-otter-cask&key=${key}`],
      env,
      cwd,
    );
    expect(withKey.ok && withKey.command).toMatchObject({ code: 'plum-otter-cask', key });
    const old = parseArgs(['receive', 'https://ferry.example/#receive=plum-otter-cask'], env, cwd);
    expect(old.ok && old.command).toMatchObject({ code: 'plum-otter-cask' });
    expect(old.ok && old.command).not.toHaveProperty('key');
    const typed = parseArgs(['receive', '--key', key, 'plum', 'otter', 'cask'], env, cwd);
    expect(typed.ok && typed.command).toMatchObject({ code: 'plum-otter-cask', key });
  });

  it('refuses a damaged key, in a link or after --key, rather than go on without it', () => {
    const damaged = 'https://ferry.example/#receive=plum-otter-cask&key=q83vEjRWeJCrze8SNFZ4k';
    expect(parseArgs(['receive', damaged], env, cwd)).toMatchObject({ ok: false });
    expect(parseArgs(['receive', '--key', 'short', 'plum-otter-cask'], env, cwd)).toEqual({
      ok: false,
      problem: '--key needs the 22-character key of a Ferry link',
    });
    expect(parseArgs(['send', '--key', 'q83vEjRWeJCrze8SNFZ4kA', 'a'], env, cwd)).toMatchObject({
      ok: false,
    });
  });

  it('--verify asks to confirm the verification words, on either side', () => {
    const send = parseArgs(['send', '--verify', 'a.txt'], env, cwd);
    expect(send.ok && send.command).toMatchObject({ kind: 'send', verify: true });
    const receive = parseArgs(['receive', '--verify', '--yes', 'plum-otter-cask'], env, cwd);
    expect(receive.ok && receive.command).toMatchObject({ verify: true, yes: true });
  });

  it('a code typed as separate words is one code', () => {
    const parsed = parseArgs(['receive', 'plum', 'otter', 'cask'], env, cwd);
    expect(parsed.ok && parsed.command).toMatchObject({
      code: 'plum-otter-cask',
      out: cwd,
      yes: false,
      report: true,
    });
  });

  it('--lan asks for a LAN room instead of a server address', () => {
    const parsed = parseArgs(['receive', '--lan', 'a-b-c'], env, cwd);
    expect(parsed.ok && parsed.command).toMatchObject({ server: { kind: 'lan' } });
  });

  it('--server-certificate pins an https server to the fingerprint its certificate has', () => {
    const pin = `${'ab:'.repeat(31)}ab`;
    const parsed = parseArgs(
      ['receive', '--server', 'https://192.168.1.20:3001', '--server-certificate', pin, 'a-b-c'],
      env,
      cwd,
    );
    expect(parsed.ok && parsed.command).toMatchObject({
      server: { kind: 'url', url: 'https://192.168.1.20:3001', certificate: pin },
    });
    const problem =
      '--server-certificate needs the SHA-256 fingerprint the https --server shows, as AB:CD:…';
    for (const argv of [
      ['send', '--server', 'http://192.168.1.20:3001', '--server-certificate', pin, 'a'],
      ['send', '--server', 'https://192.168.1.20:3001', '--server-certificate', 'ab:cd', 'a'],
      ['send', '--lan', '--server-certificate', pin, 'a'],
    ]) {
      expect(parseArgs(argv, env, cwd)).toEqual({ ok: false, problem });
    }
  });

  it.each([
    [['send'], 'send needs at least one file or folder, or --text'],
    [['receive'], 'receive needs the code the sender shows'],
    [['send', '--yes', 'a'], 'unknown option "--yes" for send'],
    [['send', '--server', 'ftp://x', 'a'], '--server needs an http:// or https:// address'],
    [['send', '--server'], '--server needs an http:// or https:// address'],
    [['fetch', 'x'], 'unknown command "fetch"'],
  ])('%j is refused with "%s"', (argv, problem) => {
    expect(parseArgs(argv, env, cwd)).toEqual({ ok: false, problem });
  });

  it('--remember names the other device; --to with --code and --from accept only a remembered one', () => {
    const send = parseArgs(
      ['send', '--remember', ' Bea  phone ', '--to=Bea', '--code', 'a.txt'],
      env,
      cwd,
    );
    expect(send.ok && send.command).toMatchObject({
      kind: 'send',
      remember: 'Bea phone',
      only: 'Bea',
      paths: ['a.txt'],
    });
    expect(send.ok && send.command).not.toHaveProperty('reach');
    const receive = parseArgs(['receive', '--from', 'Ana laptop', 'plum-otter-cask'], env, cwd);
    expect(receive.ok && receive.command).toMatchObject({ only: 'Ana laptop' });
    expect(parseArgs(['receive', '--to', 'Ana', 'a-b-c'], env, cwd)).toEqual({
      ok: false,
      problem: 'unknown option "--to" for receive',
    });
    expect(parseArgs(['send', '--remember', '\u200b', 'a'], env, cwd)).toEqual({
      ok: false,
      problem: '--remember needs a name for the other device',
    });
    expect(parseArgs(['send', 'a', '--remember'], env, cwd)).toEqual({
      ok: false,
      problem: '--remember needs a name for the other device',
    });
  });

  it('send --to NAME without --code reaches NAME with no code', () => {
    const parsed = parseArgs(['send', '--to', ' Bea  phone', 'a.txt', 'b.txt'], env, cwd);
    expect(parsed.ok && parsed.command).toEqual({
      kind: 'send',
      server: { kind: 'url', url: 'http://localhost:3001' },
      paths: ['a.txt', 'b.txt'],
      verify: false,
      reach: 'Bea phone',
    });
    const byId = parseArgs(['send', '--to', 'Bea phone#K3QZ7A', '--text', 'hi'], env, cwd);
    expect(byId.ok && byId.command).toMatchObject({ reach: 'Bea phone#K3QZ7A', text: 'hi' });
    expect(parseArgs(['send', '--to', '', 'a.txt'], env, cwd)).toEqual({
      ok: false,
      problem: '--to needs the name of a remembered device, or of one in the room',
    });
  });

  it('receive --listen waits until stopped; --lan or --server with no code waits for one transfer', () => {
    expect(parseArgs(['receive', '--listen', '--out', 'inbox', '--yes'], env, cwd)).toEqual({
      ok: true,
      command: {
        kind: 'listen',
        server: { kind: 'url', url: 'http://localhost:3001' },
        out: 'inbox',
        yes: true,
        report: true,
        verify: false,
        once: false,
      },
    });
    const lan = parseArgs(['receive', '--lan', '--no-report'], env, cwd);
    expect(lan.ok && lan.command).toMatchObject({
      kind: 'listen',
      server: { kind: 'lan' },
      out: cwd,
      yes: false,
      report: false,
      once: true,
    });
    const server = parseArgs(['receive', '--server', 'http://10.0.0.2:3001'], env, cwd);
    expect(server.ok && server.command).toMatchObject({
      kind: 'listen',
      server: { kind: 'url', url: 'http://10.0.0.2:3001' },
      once: true,
    });
    // FERRY_SERVER alone names no server to wait on: a code is still asked for.
    expect(parseArgs(['receive'], { FERRY_SERVER: 'http://x:1' }, cwd)).toEqual({
      ok: false,
      problem: 'receive needs the code the sender shows',
    });
    expect(parseArgs(['receive', '--listen', 'plum-otter-cask'], env, cwd)).toEqual({
      ok: false,
      problem: 'receive --listen takes no code',
    });
    expect(parseArgs(['receive', '--listen', '--from', 'Ana'], env, cwd)).toEqual({
      ok: false,
      problem: '--from needs a code; it does not go with waiting for devices',
    });
    expect(parseArgs(['receive', '--lan', '--remember', 'Ana'], env, cwd)).toEqual({
      ok: false,
      problem: '--remember needs a code; it does not go with waiting for devices',
    });
  });

  it('devices lists, renames and forgets, and says what it takes otherwise', () => {
    const command = (argv: string[]) => {
      const parsed = parseArgs(argv, env, cwd);
      return parsed.ok ? parsed.command : parsed.problem;
    };
    expect(command(['devices'])).toEqual({
      kind: 'devices',
      action: { kind: 'list', server: { kind: 'url', url: 'http://localhost:3001' } },
    });
    expect(command(['devices', '--lan'])).toEqual({
      kind: 'devices',
      action: { kind: 'list', server: { kind: 'lan' } },
    });
    expect(command(['devices', 'list', '--server', 'http://10.0.0.2:3001/'])).toEqual({
      kind: 'devices',
      action: { kind: 'list', server: { kind: 'url', url: 'http://10.0.0.2:3001' } },
    });
    expect(command(['devices', 'list', 'Ana'])).toBe('devices list takes no names');
    expect(command(['devices', '--out', 'x'])).toBe('unknown option "--out" for devices');
    expect(command(['devices', 'rename', 'Ana', ' Ana  desk'])).toEqual({
      kind: 'devices',
      action: { kind: 'rename', name: 'Ana', newName: 'Ana desk' },
    });
    expect(command(['devices', 'forget', 'Ana'])).toEqual({
      kind: 'devices',
      action: { kind: 'forget', name: 'Ana' },
    });
    expect(command(['devices', 'forget'])).toMatch(/^devices takes "list"/);
  });

  it('no arguments, help and --help all show the help', () => {
    for (const argv of [[], ['help'], ['--help'], ['send', '--help']]) {
      expect(parseArgs(argv, env, cwd)).toEqual({ ok: true, command: { kind: 'help' } });
    }
  });
});
