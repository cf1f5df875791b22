import { readCodeOrLink } from '../../src-shared/codes/receive-fragment';
import { readLinkSecret } from '../../src-shared/verify/link-secret';
import { DEFAULT_SIGNALING_PORT } from '../../src-shared/signaling/limits';

export type ServerChoice = { kind: 'url'; url: string } | { kind: 'lan' };

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  /** `verify`: the person confirms the verification words before any file data moves. */
  | { kind: 'send'; server: ServerChoice; paths: string[]; verify: boolean }
  | {
      kind: 'receive';
      server: ServerChoice;
      code: string;
      out: string;
      yes: boolean;
      report: boolean;
      verify: boolean;
      /** The secret link's secret, from a whole link given as the code or from `--key`. */
      key?: string;
    };

export type Parsed = { ok: true; command: Command } | { ok: false; problem: string };

const DEFAULT_SERVER = `http://localhost:${DEFAULT_SIGNALING_PORT}`;

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Reads the command line; `env` supplies FERRY_SERVER, `cwd` the default output folder. */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Parsed {
  const fail = (problem: string): Parsed => ({ ok: false, problem });
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    return { ok: true, command: { kind: 'help' } };
  }
  if (verb === '--version') return { ok: true, command: { kind: 'version' } };
  if (verb !== 'send' && verb !== 'receive') return fail(`unknown command "${verb}"`);

  let server: ServerChoice = { kind: 'url', url: env.FERRY_SERVER || DEFAULT_SERVER };
  let out = cwd;
  let yes = false;
  let report = true;
  let verify = false;
  let key: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i];
    const value = (): string | undefined => rest[++i];
    if (arg === '--') {
      positional.push(...rest.slice(i + 1));
      break;
    } else if (arg === '--help' || arg === '-h') {
      return { ok: true, command: { kind: 'help' } };
    } else if (arg === '--server' || arg.startsWith('--server=')) {
      const url = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : value();
      if (!url || !isHttpUrl(url)) return fail('--server needs an http:// or https:// address');
      server = { kind: 'url', url: url.replace(/\/+$/, '') };
    } else if (arg === '--lan') {
      server = { kind: 'lan' };
    } else if (verb === 'receive' && (arg === '--out' || arg.startsWith('--out='))) {
      const dir = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : value();
      if (!dir) return fail('--out needs a folder');
      out = dir;
    } else if (verb === 'receive' && (arg === '--yes' || arg === '-y')) {
      yes = true;
    } else if (verb === 'receive' && arg === '--no-report') {
      report = false;
    } else if (verb === 'receive' && (arg === '--key' || arg.startsWith('--key='))) {
      const given = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : value();
      key = given === undefined ? undefined : readLinkSecret(given);
      if (key === undefined) return fail('--key needs the 22-character key of a Ferry link');
    } else if (arg === '--verify') {
      verify = true;
    } else if (arg.startsWith('-') && arg !== '-') {
      return fail(`unknown option "${arg}" for ${verb}`);
    } else {
      positional.push(arg);
    }
  }

  if (verb === 'send') {
    if (positional.length === 0) return fail('send needs at least one file or folder');
    return { ok: true, command: { kind: 'send', server, paths: positional, verify } };
  }
  // `ferry receive plum otter cask` is read as the code `plum-otter-cask`; a whole receive link
  // gives its code and its key.
  const given = readCodeOrLink(positional.join(' '));
  if (given === null) return fail('that link is not a Ferry receive link, or its key is damaged');
  if (given.code === '') return fail('receive needs the code the sender shows');
  if (given.key !== undefined && key !== undefined && given.key !== key) {
    return fail('the link and --key name different keys');
  }
  const linkKey = given.key ?? key;
  return {
    ok: true,
    command: {
      kind: 'receive',
      server,
      code: given.code,
      out,
      yes,
      report,
      verify,
      ...(linkKey === undefined ? {} : { key: linkKey }),
    },
  };
}
