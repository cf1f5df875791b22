import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { typeScriptArgs } from '../../e2e/support/netns';
import type { PeerReport } from './bench-messages';

export interface PeerProcess {
  child: ChildProcess;
  /** The next report of `type`; rejects when the peer fails or exits first. */
  next<T extends PeerReport['type']>(type: T): Promise<Extract<PeerReport, { type: T }>>;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
}

export interface StartPeerOptions {
  /**
   * A network namespace (`ip netns`) to run the peer in. `ip netns exec` replaces itself with the
   * program, so the child's pid is the peer's own and the IPC channel (NODE_CHANNEL_FD) survives.
   */
  namespace?: string;
}

/** Starts one of the bench's peer scripts (a file beside this one) under tsx, with IPC. */
export function startPeer(
  script: string,
  args: string[],
  options: StartPeerOptions = {},
): PeerProcess {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const stdio = ['ignore', 'inherit', 'inherit', 'ipc'] as const;
  const child =
    options.namespace === undefined
      ? fork(path, args, { execArgv: ['--import', 'tsx'], stdio: [...stdio] })
      : spawn(
          'ip',
          ['netns', 'exec', options.namespace, process.execPath, ...typeScriptArgs(path, ...args)],
          { stdio: [...stdio] },
        );
  const reports: PeerReport[] = [];
  const waiters = new Set<() => void>();
  let failure: Error | undefined;
  child.on('message', (message: PeerReport) => {
    if (message.type === 'failed') failure = new Error(message.message);
    reports.push(message);
    for (const wake of waiters) wake();
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      failure ??= new Error(`${script} ${args[0]} exited early`);
      for (const wake of waiters) wake();
      resolve();
    }),
  );
  return {
    child,
    exited,
    next: (type) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const index = reports.findIndex((message) => message.type === type);
          if (index >= 0) {
            waiters.delete(check);
            resolve(reports.splice(index, 1)[0] as Extract<PeerReport, { type: typeof type }>);
          } else if (failure !== undefined) {
            waiters.delete(check);
            reject(failure);
          }
        };
        waiters.add(check);
        check();
      }),
  };
}
