import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkTool, findTool, skipLine } from './required-tools';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('a test that needs a program npm cannot install', () => {
  it('is skipped with what to install when the program is absent', () => {
    vi.stubEnv('FERRY_TEST_HIDE', 'redis');
    vi.stubEnv('CI', '');
    expect(findTool('redis')).toBeUndefined();
    expect(checkTool('redis')).toEqual({
      outcome: 'skip',
      reason: 'needs Redis (apt-get install redis-server)',
    });
  });

  it('fails instead under CI=true, where .ci/run installs it', () => {
    vi.stubEnv('FERRY_TEST_HIDE', 'chromium,coturn');
    vi.stubEnv('CI', 'true');
    for (const tool of ['chromium', 'coturn'] as const) {
      const check = checkTool(tool);
      expect(check.outcome).toBe('fail');
      expect(check.outcome === 'fail' && check.reason).toMatch(/apt-get install .*CI=true/);
    }
  });

  it('is only skipped under CI=true when CI does not provide the program either', () => {
    vi.stubEnv('ELECTRON_OVERRIDE_DIST_PATH', '');
    vi.stubEnv('CI', 'true');
    expect(checkTool('electron').outcome).toBe('skip');
  });

  it('runs where the program is, with its path', () => {
    vi.stubEnv('FERRY_TEST_HIDE', '');
    vi.stubEnv('CHROMIUM_PATH', process.execPath);
    expect(checkTool('chromium')).toEqual({ outcome: 'run', path: process.execPath });
  });

  it('hides everything with FERRY_TEST_HIDE=all, and refuses a name it does not know', () => {
    vi.stubEnv('CHROMIUM_PATH', process.execPath);
    vi.stubEnv('FERRY_TEST_HIDE', 'all');
    expect(findTool('chromium')).toBeUndefined();
    vi.stubEnv('FERRY_TEST_HIDE', 'redis,chrome');
    expect(() => findTool('redis')).toThrow(/unknown tool "chrome"/);
  });

  it('finds Firefox ESR at FIREFOX_PATH, says how to get it, and fails under CI=true', () => {
    vi.stubEnv('FERRY_TEST_HIDE', '');
    vi.stubEnv('FIREFOX_PATH', process.execPath);
    expect(checkTool('firefox')).toEqual({ outcome: 'run', path: process.execPath });

    vi.stubEnv('FIREFOX_PATH', '/nonexistent/firefox-esr');
    vi.stubEnv('CI', '');
    expect(checkTool('firefox')).toEqual({
      outcome: 'skip',
      reason: 'needs Firefox ESR (apt-get install firefox-esr, or set FIREFOX_PATH)',
    });

    vi.stubEnv('FIREFOX_PATH', process.execPath);
    vi.stubEnv('FERRY_TEST_HIDE', 'firefox');
    vi.stubEnv('CI', 'true');
    const check = checkTool('firefox');
    expect(check.outcome).toBe('fail');
    expect(check.outcome === 'fail' && check.reason).toMatch(
      /apt-get install firefox-esr.*CI=true/,
    );
  });

  it('prints one line: the reason, then which test', () => {
    const line = skipLine('needs coturn (apt-get install coturn)', 'the relay route');
    expect(line).toBe('skipped: needs coturn (apt-get install coturn) — the relay route');
    expect(line).not.toContain('\n');
  });
});
