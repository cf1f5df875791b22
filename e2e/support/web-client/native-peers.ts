import { CLI_UPDATE_COMMAND } from '../../../src-shared/protocol';
import { ChildProgram } from './child-program';

/** What a native peer printed and how it ended. */
export interface NativeOutcome {
  exitCode: number | null;
  output: string;
}

export interface NativeSending {
  readonly code: string;
  /** The secret its receive link carries (docs/protocol.md, "Secret link"), when it printed one. */
  readonly key?: string;
  /** Resolves once bytes are moving. */
  transferring(): Promise<void>;
  finished(): Promise<NativeOutcome>;
  /** What a person does to stop it mid-way (Ctrl-C for the CLI). */
  cancel(): Promise<void>;
}

export interface NativeReceiving {
  /** Resolves once the native peer is asking its person about the offer. */
  offered(): Promise<void>;
  answer(accept: boolean): void;
  transferring(): Promise<void>;
  finished(): Promise<NativeOutcome>;
  cancel(): Promise<void>;
}

/**
 * A native Ferry peer the web client must interoperate with, driven the way its person would.
 * The command line is one; the desktop app's controller is another kind with the same shape.
 */
export interface NativePeerKind {
  readonly name: string;
  /** What this surface tells its person to do when the other device is newer. */
  readonly updateRemedy: string;
  send(serverUrl: string, paths: readonly string[]): Promise<NativeSending>;
  receive(
    serverUrl: string,
    code: string,
    options: { destination: string; ask: boolean },
  ): NativeReceiving;
}

const CLI = 'src-main/cli/main.ts';
const CODE_LINE = /^Code: ([a-z]+(?:-[a-z]+){2,3})$/;
const RUN_LINE = /^On the other device run: ferry receive \S+(?: --key=([A-Za-z0-9_-]{22}))?$/;
const STEP_TIMEOUT_MS = 60_000;

async function outcome(program: ChildProgram): Promise<NativeOutcome> {
  const exitCode = await program.waitForExit(STEP_TIMEOUT_MS * 2);
  return { exitCode, output: program.output };
}

async function stop(program: ChildProgram): Promise<void> {
  // SIGINT is Ctrl-C: the CLI closes the channel so the other side sees the transfer end.
  await program.stop('SIGINT');
}

/** `npm run cli -- send|receive`, as a real process speaking /ws and node-datachannel. */
export const commandLine: NativePeerKind = {
  name: 'CLI',
  updateRemedy: CLI_UPDATE_COMMAND,

  async send(serverUrl, paths) {
    const program = new ChildProgram(CLI, ['send', '--server', serverUrl, ...paths]);
    const [, code] = await program.waitForLine(CODE_LINE, STEP_TIMEOUT_MS);
    const [, key] = await program.waitForLine(RUN_LINE, STEP_TIMEOUT_MS);
    return {
      code,
      ...(key === undefined ? {} : { key }),
      transferring: async () => void (await program.waitForLine(/^Sending /, STEP_TIMEOUT_MS)),
      finished: () => outcome(program),
      cancel: () => stop(program),
    };
  },

  receive(serverUrl, code, { destination, ask }) {
    const args = ['receive', '--server', serverUrl, '--out', destination, '--no-report'];
    const program = new ChildProgram(CLI, [...args, ...(ask ? [] : ['--yes']), code]);
    return {
      offered: async () => void (await program.waitForLine(/^Incoming: /, STEP_TIMEOUT_MS)),
      answer: (accept) => program.type(accept ? 'y' : 'n'),
      transferring: async () => void (await program.waitForLine(/^Receiving /, STEP_TIMEOUT_MS)),
      finished: () => outcome(program),
      cancel: () => stop(program),
    };
  },
};

/** A sender script of this folder run on the engine, once it printed its code like the CLI. */
async function startScriptedSender(
  script: string,
  serverUrl: string,
  paths: readonly string[],
): Promise<{ program: ChildProgram; code: string }> {
  const program = new ChildProgram(`e2e/support/web-client/${script}`, [serverUrl, ...paths]);
  const [, code] = await program.waitForLine(CODE_LINE, STEP_TIMEOUT_MS);
  return { program, code };
}

/**
 * The native engine (what the CLI runs) advertising protocol 2 only, through its
 * `protocolVersion` option: the one way to show a browser a peer newer than itself.
 */
export async function sendFromNewerNativePeer(
  serverUrl: string,
  paths: readonly string[],
): Promise<NativeSending> {
  const { program, code } = await startScriptedSender('newer-native-sender.ts', serverUrl, paths);
  return {
    code,
    transferring: async () => void (await program.waitForLine(/^Sending /, STEP_TIMEOUT_MS)),
    finished: () => outcome(program),
    cancel: () => stop(program),
  };
}

export interface StripingSending {
  readonly code: string;
  /** The lanes its stripe message listed, once it went (e.g. "1,2,3"). */
  striped(): Promise<string>;
  finished(): Promise<NativeOutcome>;
}

/** A native sender that opens four lanes even over loopback (striping-native-sender.ts). */
export async function sendStriped(
  serverUrl: string,
  paths: readonly string[],
): Promise<StripingSending> {
  const { program, code } = await startScriptedSender(
    'striping-native-sender.ts',
    serverUrl,
    paths,
  );
  return {
    code,
    striped: async () =>
      (await program.waitForLine(/^Striped over lanes (\S+)$/, STEP_TIMEOUT_MS))[1],
    finished: () => outcome(program),
  };
}
