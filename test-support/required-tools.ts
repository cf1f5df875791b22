import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Programs some tests need that `npm install` cannot bring: one rule for vitest and Playwright.
 * Where a tool is present the test runs. Where it is absent the test is skipped with one line,
 * `skipped: needs Redis (apt-get install redis-server) — <test>`, unless CI=true: `.ci/run`
 * installs every tool marked `installedByCi`, so there a missing one fails the test instead.
 *
 * FERRY_TEST_HIDE=chromium,firefox,redis,coturn (any of the names below, or `all`) makes tools count as
 * absent, to see the skip lines, or with CI=true the failures, without uninstalling anything.
 */
export type RequiredTool = 'chromium' | 'firefox' | 'redis' | 'coturn' | 'electron';

interface ToolSpec {
  /** What the line says is needed. */
  label: string;
  /** How to get it, in the words of a Debian machine. */
  install: string;
  /** Whether `.ci/run` provides it, so that its absence under CI=true is a failure. */
  installedByCi: boolean;
  locate(): string | undefined;
}

const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const FIREFOX_CANDIDATES = ['/usr/bin/firefox-esr'];

const TOOLS: Record<RequiredTool, ToolSpec> = {
  // Debian's Chromium: Playwright's own browser download cannot work offline.
  chromium: {
    label: 'Chromium',
    install: 'apt-get install chromium, or set CHROMIUM_PATH',
    installedByCi: true,
    locate: () => {
      const fromEnv = process.env.CHROMIUM_PATH;
      if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
      return CHROMIUM_CANDIDATES.find((path) => existsSync(path));
    },
  },
  // Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core (Playwright needs its own
  // patched Firefox build, which cannot be downloaded offline).
  firefox: {
    label: 'Firefox ESR',
    install: 'apt-get install firefox-esr, or set FIREFOX_PATH',
    installedByCi: true,
    locate: () => {
      const fromEnv = process.env.FIREFOX_PATH;
      if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
      return FIREFOX_CANDIDATES.find((path) => existsSync(path));
    },
  },
  redis: {
    label: 'Redis',
    install: 'apt-get install redis-server',
    installedByCi: true,
    locate: () => onPath('redis-server'),
  },
  coturn: {
    label: 'coturn',
    install: 'apt-get install coturn',
    installedByCi: true,
    locate: () => onPath('turnserver'),
  },
  // npm never downloads Electron's binary here, and neither does .ci/run: never a CI failure.
  electron: {
    label: 'an Electron runtime',
    install: 'set ELECTRON_OVERRIDE_DIST_PATH to an Electron dist',
    installedByCi: false,
    locate: () => {
      const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH;
      return dist && existsSync(join(dist, 'electron')) ? join(dist, 'electron') : undefined;
    },
  },
};

function onPath(program: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

function hidden(): ReadonlySet<string> {
  const names = (process.env.FERRY_TEST_HIDE ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of names) {
    if (name !== 'all' && !(name in TOOLS)) {
      throw new Error(
        `FERRY_TEST_HIDE names an unknown tool "${name}" (known: ${Object.keys(TOOLS).join(', ')}, all)`,
      );
    }
  }
  return new Set(names);
}

/** Whether this is a `.ci/run` run (CI=true), where a missing requirement fails instead of skipping. */
export function onCi(): boolean {
  const value = (process.env.CI ?? '').toLowerCase();
  return value !== '' && value !== 'false' && value !== '0';
}

/** Where the tool is (an executable's path), or undefined when absent or hidden. */
export function findTool(tool: RequiredTool): string | undefined {
  const hide = hidden();
  if (hide.has('all') || hide.has(tool)) return undefined;
  return TOOLS[tool].locate();
}

export type ToolCheck =
  | { readonly outcome: 'run'; readonly path: string }
  /** Absent: skip, saying `reason`. */
  | { readonly outcome: 'skip'; readonly reason: string }
  /** Absent under CI=true, where .ci/run should have installed it: fail with `reason`. */
  | { readonly outcome: 'fail'; readonly reason: string };

/** What a test that needs `tool` does on this machine. */
export function checkTool(tool: RequiredTool): ToolCheck {
  const path = findTool(tool);
  if (path !== undefined) return { outcome: 'run', path };
  const { label, install, installedByCi } = TOOLS[tool];
  const needs = `needs ${label} (${install})`;
  return installedByCi && onCi()
    ? {
        outcome: 'fail',
        reason: `${needs}; it is missing under CI=true, where .ci/run installs it`,
      }
    : { outcome: 'skip', reason: needs };
}

/** The one line a skipped test prints: `skipped: <reason> — <which test>`. */
export function skipLine(reason: string, what: string): string {
  return `skipped: ${reason} — ${what}`;
}
