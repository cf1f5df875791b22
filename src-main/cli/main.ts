// `ferry` / `npm run cli --`: the command-line peer, a thin shell over the transfer engine.
import { createInterface } from 'node:readline/promises';
import packageJson from '../../package.json' with { type: 'json' };
import type { CliIo } from './cli-io';
import { EXIT, type ExitCode } from './exit-codes';
import { HELP_TEXT } from './help-text';
import { parseArgs } from './parse-args';
import { EXIT_GUARD_MS } from '../../src-shared/app/app-limits';

const processIo: CliIo = {
  out: {
    write: (text) => void process.stdout.write(text),
    isTTY: process.stdout.isTTY === true,
    columns: process.stdout.columns ?? 80,
  },
  error: (line) => void process.stderr.write(`${line}\n`),
  async ask(question) {
    const reader = createInterface({ input: process.stdin, output: process.stdout });
    try {
      const closed = new Promise<null>((done) => reader.once('close', () => done(null)));
      return await Promise.race([reader.question(question), closed]);
    } finally {
      reader.close();
    }
  },
  async readInput() {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  onInterrupt(onInterrupt) {
    let interrupted = false;
    const handler = (): void => {
      // A second Ctrl-C means "now": the first one is already closing the channel.
      if (interrupted) process.exit(EXIT.interrupted);
      interrupted = true;
      onInterrupt();
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  },
};

async function main(argv: readonly string[]): Promise<ExitCode> {
  const parsed = parseArgs(argv, process.env, process.cwd());
  if (!parsed.ok) {
    processIo.error(`Error: ${parsed.problem}. Run "ferry --help" for usage.`);
    return EXIT.usage;
  }
  const { command } = parsed;
  switch (command.kind) {
    case 'help':
      process.stdout.write(HELP_TEXT);
      return EXIT.ok;
    case 'version':
      process.stdout.write(`${packageJson.version}\n`);
      return EXIT.ok;
    // Loaded on demand, so `--help` and `--version` start without WebRTC (`npm run bench:startup`).
    case 'send': {
      const { runSend } = await import('./run-send');
      return runSend(command, processIo, packageJson.version, process.env);
    }
    case 'receive': {
      const { runReceive } = await import('./run-receive');
      return runReceive(command, processIo, packageJson.version, process.env);
    }
    case 'listen': {
      const { runListen } = await import('./run-listen');
      return runListen(command, processIo, packageJson.version, process.env);
    }
    case 'devices': {
      const { runDevices } = await import('./cli-devices');
      return runDevices(command.action, processIo, process.env);
    }
  }
}

process.exitCode = await main(process.argv.slice(2));
setTimeout(() => process.exit(process.exitCode), EXIT_GUARD_MS).unref();
