import { parseArgs as parseNodeArgs } from 'node:util';
import { readCodeOrLink } from '../../src-shared/codes/receive-fragment';
import { cleanDeviceName } from '../../src-shared/devices/device-name';
import { readLinkSecret } from '../../src-shared/verify/link-secret';
import { DEFAULT_SIGNALING_PORT } from '../../src-shared/signaling/limits';
import { errorMessage } from '../../src-shared/format/error-message';
import { isSha256Fingerprint } from '../../src-shared/verify/server-fingerprint';

/**
 * `certificate`: the SHA-256 fingerprint an https server must present instead of a certificate an
 * authority signed (a LAN room's own: docs/architecture.md, "The LAN room over HTTPS").
 */
export type ServerChoice = { kind: 'url'; url: string; certificate?: string } | { kind: 'lan' };

/** What both transfer commands share. */
interface TransferCommand {
  server: ServerChoice;
  /** The person confirms the verification words before any file data moves. */
  verify: boolean;
  /** Remember the other device under this name once the transfer verified it. */
  remember?: string;
  /** Only this remembered device may be on the other end (`--to` / `--from`). */
  only?: string;
}

export type DevicesAction =
  /** Whether each paired device is online, and who is in the room, are looked up on `server`. */
  | { kind: 'list'; server: ServerChoice }
  | { kind: 'rename'; name: string; newName: string }
  | { kind: 'forget'; name: string };

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | ({
      kind: 'send';
      paths: string[];
      /** A text message to send instead of files; `-` reads it from standard input. */
      text?: string;
      /**
       * `--to NAME` without `--code`: reach that device with no code, through its pair room or
       * the server's roster (docs/architecture.md, "Nearby devices on the command line").
       */
      reach?: string;
    } & TransferCommand)
  | ({
      kind: 'receive';
      code: string;
      out: string;
      yes: boolean;
      report: boolean;
      /** The secret link's secret, from a whole link given as the code or from `--key`. */
      key?: string;
    } & TransferCommand)
  /**
   * `ferry receive --listen`, or `--lan`/`--server` with no code: waits in the pair rooms of the
   * paired devices and on the server's roster, and receives what their invitations bring; `once`
   * ends after the first transfer.
   */
  | {
      kind: 'listen';
      server: ServerChoice;
      out: string;
      yes: boolean;
      report: boolean;
      verify: boolean;
      once: boolean;
    }
  | { kind: 'devices'; action: DevicesAction };

export type Parsed = { ok: true; command: Command } | { ok: false; problem: string };

const DEFAULT_SERVER = `http://localhost:${DEFAULT_SIGNALING_PORT}`;

const SHARED_OPTIONS = {
  server: { type: 'string' },
  'server-certificate': { type: 'string' },
  lan: { type: 'boolean' },
  verify: { type: 'boolean' },
  remember: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SERVER_OPTIONS = {
  server: { type: 'string' },
  'server-certificate': { type: 'string' },
  lan: { type: 'boolean' },
} as const;

const SEND_OPTIONS = {
  ...SHARED_OPTIONS,
  to: { type: 'string' },
  code: { type: 'boolean' },
  text: { type: 'string' },
} as const;

const RECEIVE_OPTIONS = {
  ...SHARED_OPTIONS,
  out: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'no-report': { type: 'boolean' },
  key: { type: 'string' },
  from: { type: 'string' },
  listen: { type: 'boolean' },
} as const;

/** What each option that takes a value needs, said when it is missing or unusable. */
const VALUE_PROBLEMS: Record<string, string> = {
  server: '--server needs an http:// or https:// address',
  'server-certificate':
    '--server-certificate needs the SHA-256 fingerprint the https --server shows, as AB:CD:…',
  out: '--out needs a folder',
  key: '--key needs the 22-character key of a Ferry link',
  remember: '--remember needs a name for the other device',
  to: '--to needs the name of a remembered device, or of one in the room',
  from: '--from needs the name of a remembered device',
  text: '--text needs the text to send, or - to read it from standard input',
};

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

class UsageProblem extends Error {}

/** Node's own reader, with its refusals turned into this command line's wording. */
function readOptions<
  Options extends typeof SEND_OPTIONS | typeof RECEIVE_OPTIONS | typeof SERVER_OPTIONS,
>(verb: string, args: readonly string[], options: Options) {
  try {
    return parseNodeArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = errorMessage(error);
    const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
    const name = option.replace(/^-+/, '');
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && Object.hasOwn(VALUE_PROBLEMS, name)) {
      throw new UsageProblem(VALUE_PROBLEMS[name]);
    }
    throw new UsageProblem(`unknown option "${option}" for ${verb}`);
  }
}

/** A device name given on the command line, cleaned; a usage problem when nothing is left. */
function deviceName(raw: string | undefined, option: string): string | undefined {
  if (raw === undefined) return undefined;
  const name = cleanDeviceName(raw);
  if (name === undefined) throw new UsageProblem(VALUE_PROBLEMS[option]);
  return name;
}

/** `--server`, `--server-certificate` and `--lan`, else FERRY_SERVER, else the default. */
function readServer(
  values: { server?: string; 'server-certificate'?: string; lan?: boolean },
  env: NodeJS.ProcessEnv,
): ServerChoice {
  let server: ServerChoice = { kind: 'url', url: env.FERRY_SERVER || DEFAULT_SERVER };
  if (values.server !== undefined) {
    if (!isHttpUrl(values.server)) throw new UsageProblem(VALUE_PROBLEMS.server);
    server = { kind: 'url', url: values.server.replace(/\/+$/, '') };
  }
  const certificate = values['server-certificate'];
  if (certificate !== undefined) {
    const pinnable = server.kind === 'url' && new URL(server.url).protocol === 'https:';
    if (!pinnable || values.lan === true || !isSha256Fingerprint(certificate)) {
      throw new UsageProblem(VALUE_PROBLEMS['server-certificate']);
    }
    server = { ...server, certificate };
  }
  return values.lan === true ? { kind: 'lan' } : server;
}

/** Reads the command line; `env` supplies FERRY_SERVER, `cwd` the default output folder. */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Parsed {
  try {
    return { ok: true, command: readCommand(argv, env, cwd) };
  } catch (error) {
    if (error instanceof UsageProblem) return { ok: false, problem: error.message };
    throw error;
  }
}

function readCommand(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Command {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    return { kind: 'help' };
  }
  if (verb === '--version') return { kind: 'version' };
  if (verb === 'devices') return readDevices(rest, env);
  if (verb !== 'send' && verb !== 'receive') throw new UsageProblem(`unknown command "${verb}"`);
  const { values, positionals } = readOptions(
    verb,
    rest,
    verb === 'send' ? SEND_OPTIONS : RECEIVE_OPTIONS,
  );
  if (values.help === true) return { kind: 'help' };

  const server = readServer(values, env);
  const remember = deviceName(values.remember, 'remember');
  const shared: TransferCommand = {
    server,
    verify: values.verify === true,
    ...(remember === undefined ? {} : { remember }),
  };

  if (verb === 'send') {
    const sendValues = values as { to?: string; code?: boolean; text?: string };
    const to = deviceName(sendValues.to, 'to');
    // `--to` alone reaches the device with no code; with `--code` it pins a coded send.
    const only = sendValues.code === true ? to : undefined;
    const reach = sendValues.code === true ? undefined : to;
    const { text } = sendValues;
    if (text !== undefined && positionals.length > 0) {
      throw new UsageProblem('send takes either files and folders or --text, not both');
    }
    if (text === '') throw new UsageProblem(VALUE_PROBLEMS.text);
    if (text === undefined && positionals.length === 0) {
      throw new UsageProblem('send needs at least one file or folder, or --text');
    }
    return {
      kind: 'send',
      paths: positionals,
      ...(text === undefined ? {} : { text }),
      ...shared,
      ...(only === undefined ? {} : { only }),
      ...(reach === undefined ? {} : { reach }),
    };
  }
  const receiveValues = values as {
    out?: string;
    yes?: boolean;
    'no-report'?: boolean;
    key?: string;
    from?: string;
    listen?: boolean;
  };
  if (receiveValues.out === '') throw new UsageProblem(VALUE_PROBLEMS.out);
  // With no code, a receive named a server to wait on (docs/architecture.md, "Nearby devices on
  // the command line"); bare `ferry receive` still asks for the code.
  const serverNamed = values.server !== undefined || values.lan === true;
  if (receiveValues.listen === true || (positionals.length === 0 && serverNamed)) {
    const given = { key: receiveValues.key, from: receiveValues.from, remember };
    const refused = (['key', 'from', 'remember'] as const).find(
      (option) => given[option] !== undefined,
    );
    if (positionals.length > 0) throw new UsageProblem('receive --listen takes no code');
    if (refused !== undefined) {
      throw new UsageProblem(`--${refused} needs a code; it does not go with waiting for devices`);
    }
    return {
      kind: 'listen',
      server,
      out: receiveValues.out ?? cwd,
      yes: receiveValues.yes === true,
      report: receiveValues['no-report'] !== true,
      verify: shared.verify,
      once: receiveValues.listen !== true,
    };
  }
  const only = deviceName(receiveValues.from, 'from');
  let key: string | undefined;
  if (receiveValues.key !== undefined) {
    key = readLinkSecret(receiveValues.key);
    if (key === undefined) throw new UsageProblem(VALUE_PROBLEMS.key);
  }
  // `ferry receive plum otter cask` is read as the code `plum-otter-cask`; a whole receive link
  // gives its code and its key.
  const given = readCodeOrLink(positionals.join(' '));
  if (given === null) {
    throw new UsageProblem('that link is not a Ferry receive link, or its key is damaged');
  }
  if (given.code === '') throw new UsageProblem('receive needs the code the sender shows');
  if (given.key !== undefined && key !== undefined && given.key !== key) {
    throw new UsageProblem('the link and --key name different keys');
  }
  const linkKey = given.key ?? key;
  return {
    kind: 'receive',
    code: given.code,
    out: receiveValues.out ?? cwd,
    yes: receiveValues.yes === true,
    report: receiveValues['no-report'] !== true,
    ...shared,
    ...(only === undefined ? {} : { only }),
    ...(linkKey === undefined ? {} : { key: linkKey }),
  };
}

/**
 * `ferry devices [list] [--server URL | --lan]`, `ferry devices rename NAME NEW-NAME`,
 * `ferry devices forget NAME`.
 */
function readDevices(args: readonly string[], env: NodeJS.ProcessEnv): Command {
  const [action, ...names] = args;
  if (action === '--help' || action === '-h') return { kind: 'help' };
  if (action === undefined || action === 'list' || action.startsWith('--')) {
    const listArgs = action === 'list' ? names : args;
    const { values, positionals } = readOptions('devices', listArgs, SERVER_OPTIONS);
    if (positionals.length > 0) throw new UsageProblem('devices list takes no names');
    return { kind: 'devices', action: { kind: 'list', server: readServer(values, env) } };
  }
  if (action === 'rename' && names.length === 2) {
    const [name, newName] = names;
    const cleaned = cleanDeviceName(newName);
    if (cleaned === undefined) throw new UsageProblem('devices rename needs a new name');
    return { kind: 'devices', action: { kind: 'rename', name, newName: cleaned } };
  }
  if (action === 'forget' && names.length === 1) {
    return { kind: 'devices', action: { kind: 'forget', name: names[0] } };
  }
  throw new UsageProblem(
    'devices takes "list", "rename NAME NEW-NAME" or "forget NAME" (quote names with spaces)',
  );
}
