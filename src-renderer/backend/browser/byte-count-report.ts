import { BYTE_COUNT_REPORT_TIMEOUT_MS } from '../../../src-shared/protocol/limits';
import { STATS_REPORT_PATH } from '../../../src-shared/signaling/endpoints';
import { requestJson } from './http-json';

/**
 * Adds a completed receive to the server's anonymous byte counter. Best effort: abandoned after
 * 5 s, and whatever happens never touches the files.
 */
export async function reportReceivedBytes(signalingAddress: string, bytes: number): Promise<void> {
  if (!Number.isSafeInteger(bytes) || bytes <= 0) return;
  await requestJson(`${signalingAddress}${STATS_REPORT_PATH}`, {
    method: 'POST',
    body: { bytes },
    timeoutMs: BYTE_COUNT_REPORT_TIMEOUT_MS,
  });
}
