// `npm start`, once scripts/build.mjs has built everything (this file too, as dist/start.js):
// launches the app in Electron; where no Electron runtime can be had (an offline machine), serves
// the same UI as the web client with its own signaling server.
import { spawn } from 'node:child_process';
import { startWebHost, DEFAULT_WEB_HOST_PORT } from '../src-main/web-host';
import { downloadElectronBinary, findElectronBinary } from './electron-runtime';

const electron =
  findElectronBinary() ?? (downloadElectronBinary() ? findElectronBinary() : undefined);

if (electron) {
  const app = spawn(electron, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.kill(signal));
  app.on('exit', (code) => process.exit(code ?? 0));
} else {
  const port = Number(process.env.PORT ?? DEFAULT_WEB_HOST_PORT);
  const host = process.env.HOST ?? '127.0.0.1';
  const web = await startWebHost({ port, host, signaling: {} });
  console.log(
    `Electron's runtime is not available on this machine (offline?), so Ferry runs as the web client at http://localhost:${web.port} instead.`,
  );
  const stop = (): void => void web.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
