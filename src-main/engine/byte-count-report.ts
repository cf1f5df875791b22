import { STATS_REPORT_PATH } from '../../src-shared/signaling/endpoints';
import { requestJson } from './http-json';

/**
 * POST /api/stats/report after a completed batch: the anonymous all-time counter. Best effort by
 * design; whatever happens here never touches the received files or the outcome.
 */
export async function reportReceivedBytes(
  serverUrl: string,
  bytes: number,
  timeoutMs: number,
): Promise<void> {
  // The server accepts only a positive count; an all-empty batch has nothing to add.
  if (bytes <= 0) return;
  await requestJson(new URL(STATS_REPORT_PATH, serverUrl).toString(), {
    method: 'POST',
    body: { bytes },
    timeoutMs,
  });
}
