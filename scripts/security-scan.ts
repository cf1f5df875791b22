// Part of `npm run lint`: Electronegativity's checks over what the desktop shell ships, offline.
// Any finding above low fails. A justified exception is an `eng-disable CHECK_ID` comment at the
// line, and the README's Security section must name each such check and say why.
import run from '@doyensec/electronegativity';
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SHELL = join(ROOT, 'src-main/electron');
const PAGE = join(ROOT, 'src-renderer/index.html');
// Above this, a finding fails the lint (electronegativity's LOW).
const LOW = 1;
// It asks GitHub for Electron's releases, which an offline machine cannot reach.
const NEEDS_NETWORK = ['AvailableSecurityFixesGlobalCheck'];

const electronVersion = (
  JSON.parse(await readFile(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;

const staged = await mkdtemp(join(tmpdir(), 'ferry-security-scan-'));
try {
  const shipped = (await readdir(SHELL)).filter((name) => !name.endsWith('.test.ts'));
  for (const name of shipped) await cp(join(SHELL, name), join(staged, 'electron', name));
  await cp(PAGE, join(staged, 'index.html'));

  const { issues } = await run({
    input: staged,
    electronVersionOverride: electronVersion,
    isRelative: true,
    excludeFromScan: NEEDS_NETWORK,
  });
  const failing = issues.filter((issue) => issue.severity.value > LOW);
  for (const issue of issues) {
    const where = `${issue.file}:${issue.location.line}`;
    console.log(`${issue.severity.name} ${issue.id} at ${where}: ${issue.description}`);
  }

  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const sources = await Promise.all(shipped.map((name) => readFile(join(SHELL, name), 'utf8')));
  const exceptions = sources.flatMap((text) =>
    [...text.matchAll(/eng-disable\s+([A-Z_]+)/g)].map((match) => match[1] ?? ''),
  );
  const unexplained = exceptions.filter((id) => !readme.includes(id));
  for (const id of unexplained) {
    console.log(`${id} is disabled in src-main/electron but the README does not say why.`);
  }

  if (failing.length > 0 || unexplained.length > 0) {
    console.log(`security scan: ${failing.length} finding(s) above low.`);
    process.exitCode = 1;
  } else {
    console.log(`security scan: nothing above low (${issues.length} low or informational).`);
  }
} finally {
  await rm(staged, { recursive: true, force: true });
}
