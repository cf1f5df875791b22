import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createInterface } from 'node:readline';

export interface TurnServer {
  /** The loopback address it listens on, port 3478 (the port the signaling server announces). */
  host: string;
  secret: string;
  stop(): Promise<void>;
}

/**
 * coturn on its own loopback address (127.0.0.x, so it cannot collide with another test's), with
 * the `use-auth-secret` scheme the signaling server's TURN_SECRET mints credentials for. Resolves
 * once it reports its UDP listener open. `binary` is `findTool('coturn')`
 * (test-support/required-tools.ts).
 */
export async function startTurnServer(binary: string, workFolder: string): Promise<TurnServer> {
  const host = `127.0.${randomInt(1, 255)}.${randomInt(2, 255)}`;
  const secret = `secret-${randomInt(1e9)}`;
  const child = spawn(
    binary,
    [
      '-n',
      '-v',
      '--listening-ip',
      host,
      '--relay-ip',
      host,
      '--listening-port',
      '3478',
      '--use-auth-secret',
      '--static-auth-secret',
      secret,
      '--realm',
      'ferry.test',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--allow-loopback-peers',
      '--log-file',
      'stdout',
      '--simple-log',
      '--pidfile',
      `${workFolder}/turnserver.pid`,
      '--userdb',
      `${workFolder}/turndb`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await listenerOpen(child, host);
  return {
    host,
    secret,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function listenerOpen(child: ChildProcess, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const lines: string[] = [];
    const stdout = createInterface({ input: child.stdout! });
    stdout.on('line', (line) => {
      lines.push(line);
      if (line.includes(`UDP listener opened on: ${host}:3478`)) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`turnserver exited (${code}) before listening:\n${lines.join('\n')}`)),
    );
  });
}
