import { ConfigError } from './env-values';
import { consoleLogSink } from './log-sink';
import type { RunningServer } from './start-signaling-server';
import { errorMessage } from '../../src-shared/format/error-message';

export interface Program<Options> {
  /** Says what listens, as in "Ferry signaling server listening on <url>". */
  name: string;
  /** Reads the configuration; throws ConfigError on a bad value. */
  configure(): { options: Options; warnings: string[] };
  start(options: Options): Promise<RunningServer>;
}

function exitWith(message: string): never {
  consoleLogSink.error(message);
  process.exit(1);
}

/**
 * Runs a server as a process: a bad setting or a failed start ends it with one line on stderr
 * and a non-zero code, a running server logs one line with its URL (and, serving HTTPS, its
 * certificate's fingerprint), SIGTERM and SIGINT close it.
 */
export async function runProgram<Options>(program: Program<Options>): Promise<void> {
  let config: { options: Options; warnings: string[] };
  try {
    config = program.configure();
  } catch (error) {
    if (error instanceof ConfigError) exitWith(`Invalid configuration: ${error.message}`);
    throw error;
  }
  for (const warning of config.warnings) consoleLogSink.error(`Warning: ${warning}`);

  let server: RunningServer;
  try {
    server = await program.start(config.options);
  } catch (error) {
    exitWith(`Cannot start the ${program.name}: ${errorMessage(error)}`);
  }
  const fingerprint = server.certificateFingerprint;
  consoleLogSink.info(
    `Ferry ${program.name} listening on ${server.url}` +
      (fingerprint === undefined ? '' : ` (certificate SHA-256 ${fingerprint})`),
  );

  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      server.close().then(
        () => process.exit(0),
        (error: unknown) => exitWith(`Shutdown failed: ${String(error)}`),
      );
    });
  }
}
