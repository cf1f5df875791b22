// `npm run web`: the standalone web-client host, configured from the environment (env-config.ts).
import { consoleLogSink, runProgram } from '../signaling-server';
import { webHostOptionsFromEnv } from './env-config';
import { startWebHost } from './start-web-host';

await runProgram({
  name: 'web client',
  configure: () => webHostOptionsFromEnv(process.env),
  start: (options) => startWebHost({ ...options, log: consoleLogSink }),
});
