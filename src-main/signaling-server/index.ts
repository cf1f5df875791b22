// The signaling server's public entry: what the rest of src-main (the web host, the desktop app)
// may use. ESLint keeps the web host from reaching past it.
export { startSignalingServer, type RunningServer } from './start-signaling-server';
export { createSignalingService, type SignalingService } from './signaling-service';
export { DEFAULT_HOST, type SignalingServerOptions } from './options';
export { consoleLogSink, type LogSink } from './log-sink';
export type { Clock, Every } from './schedule';
export type { RandomIndex } from './codes/code-registrar';
export { signalingOptionsFromEnv, type EnvConfig } from './env-config';
export { ConfigError, envFlag, envText, envUrl, envWhole, type Environment } from './env-values';
export { closeHttpServer, listen, type ListeningAddress } from './http-listener';
export { finalErrorHandler } from './http/final-error-handler';
export { rejectUpgrade } from './transports/reject-upgrade';
export { runProgram, type Program } from './run-program';
