// `npm run server`: the standalone signaling server, configured from the environment.
import { signalingOptionsFromEnv } from './env-config';
import { consoleLogSink } from './log-sink';
import { runProgram } from './run-program';
import { startSignalingServer } from './start-signaling-server';

await runProgram({
  name: 'signaling server',
  configure: () => signalingOptionsFromEnv(process.env),
  start: (options) => startSignalingServer({ ...options, log: consoleLogSink }),
});
