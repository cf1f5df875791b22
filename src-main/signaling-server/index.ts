export { startSignalingServer, type RunningServer } from './start-signaling-server';
export { createSignalingService, type SignalingService } from './signaling-service';
export type { SignalingServerOptions } from './options';
export type { LogSink } from './log-sink';
export type { Clock, Every } from './schedule';
export type { RandomIndex } from './codes/code-registrar';
export { signalingOptionsFromEnv, type EnvConfig } from './env-config';
export { ConfigError, type Environment } from './env-values';
