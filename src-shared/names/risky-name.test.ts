import { describe, expect, it } from 'vitest';
import { systemOfPlatform, systemOfUserAgent } from './receiving-system';
import { executableExtensions, nameFlags, RUNS_ON_OPEN, type ReceivingSystem } from './risky-name';

describe('what an accept prompt flags in a name', () => {
  it.each([
    ['photos/beach.jpg', 'unknown', { hidden: false, executable: false }],
    ['.bashrc', 'linux', { hidden: true, executable: false }],
    ['kit/.config/settings.json', 'unknown', { hidden: true, executable: false }],
    ['invoice.pdf.exe', 'windows', { hidden: false, executable: true }],
    ['Setup.MSI', 'windows', { hidden: false, executable: true }],
    ['Ferry.app/Contents/MacOS/Ferry', 'macos', { hidden: false, executable: true }],
    ['archive.tar.gz', 'unknown', { hidden: false, executable: false }],
    ['README', 'unknown', { hidden: false, executable: false }],
  ] as const)('%s on %s', (path, system, flags) => {
    expect(nameFlags(path, system)).toEqual(flags);
  });

  it('flags what the receiving system runs on a double-click, not every script', () => {
    // Windows Script Host runs a `.js`; elsewhere it opens in an editor, as source code does.
    expect(nameFlags('site/app.js', 'windows').executable).toBe(true);
    for (const system of ['macos', 'linux', 'android', 'ios'] as const) {
      expect(nameFlags('site/app.js', system).executable, system).toBe(false);
    }
    // A received shell script has no executable bit: an editor opens it.
    expect(nameFlags('tools/run.sh', 'linux').executable).toBe(false);
    expect(nameFlags('tools/run.sh', 'macos').executable).toBe(false);
    expect(nameFlags('ferry.deb', 'linux').executable).toBe(true);
    expect(nameFlags('ferry.deb', 'windows').executable).toBe(false);
    expect(nameFlags('Install.command', 'macos').executable).toBe(true);
    expect(nameFlags('ferry.apk', 'android').executable).toBe(true);
    expect(nameFlags('ferry.apk', 'linux').executable).toBe(false);
    // A bundle is a program on the Mac only.
    expect(nameFlags('Ferry.app/Contents/Info.plist', 'windows').executable).toBe(false);
  });

  it('flags by every list where the system is unknown', () => {
    for (const [system, extensions] of Object.entries(RUNS_ON_OPEN)) {
      for (const extension of extensions) {
        expect(executableExtensions('unknown').has(extension), `${system} ${extension}`).toBe(true);
      }
    }
  });

  it('knows the usual ways a file runs or installs something on each system', () => {
    const expected: Record<Exclude<ReceivingSystem, 'unknown'>, string[]> = {
      windows: ['exe', 'msi', 'bat', 'cmd', 'com', 'scr', 'vbs', 'js', 'lnk', 'reg'],
      macos: ['app', 'command', 'dmg', 'pkg'],
      linux: ['deb', 'rpm', 'appimage', 'desktop'],
      android: ['apk'],
      ios: ['mobileconfig'],
    };
    for (const [system, extensions] of Object.entries(expected)) {
      for (const extension of extensions) {
        expect(executableExtensions(system as ReceivingSystem).has(extension), extension).toBe(
          true,
        );
      }
    }
  });
});

describe('the receiving system', () => {
  it("is read from Node's platform", () => {
    expect(systemOfPlatform('win32')).toBe('windows');
    expect(systemOfPlatform('darwin')).toBe('macos');
    expect(systemOfPlatform('linux')).toBe('linux');
    expect(systemOfPlatform('freebsd')).toBe('unknown');
  });

  it("is read from a browser's user agent, a phone before the system it names too", () => {
    const agents: [string, ReceivingSystem][] = [
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126', 'windows'],
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126 Mobile', 'android'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15', 'ios'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 'macos'],
      ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126', 'linux'],
      ['curl/8.0', 'unknown'],
    ];
    for (const [agent, system] of agents) expect(systemOfUserAgent(agent), agent).toBe(system);
  });
});
