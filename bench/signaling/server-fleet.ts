import { ServerProcess } from '../../src-main/signaling-server/test-support/server-process';

/** The servers one measurement drives: their URLs, and their memory when this bench runs them. */
export interface ServerFleet {
  urls: string[];
  /** Resident memory of every server together; undefined for servers running elsewhere. */
  rssBytes(): number | undefined;
  stop(): Promise<void>;
}

/** Servers someone else runs (--servers): driven, not measured for memory. */
export function externalFleet(urls: string[]): ServerFleet {
  return { urls, rssBytes: () => undefined, stop: async () => undefined };
}

/** `count` copies of `script` in their own processes, started one after another. */
export async function processFleet(
  script: string,
  count: number,
  env: Record<string, string>,
): Promise<ServerFleet> {
  const servers: ServerProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    for (let i = 0; i < count; i += 1) servers.push(await ServerProcess.start(script, env));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    urls: servers.map((server) => server.url),
    rssBytes: () => servers.reduce((sum, server) => sum + server.rssBytes(), 0),
    stop,
  };
}
