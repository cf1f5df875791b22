import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SessionFailure } from '../../src-shared/session/session-failure';

/** The absolute folder a batch lands in, created when missing. */
export async function prepareDestination(folder: string): Promise<string> {
  const destination = resolve(folder);
  try {
    await mkdir(destination, { recursive: true });
  } catch (error) {
    throw SessionFailure.withDetail('ERR_DISK', `${destination}: ${(error as Error).message}`);
  }
  return destination;
}
