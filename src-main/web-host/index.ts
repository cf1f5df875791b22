export { startWebHost, DEFAULT_WEB_HOST_PORT, type WebHostOptions } from './start-web-host';
export { webHostOptionsFromEnv } from './env-config';
