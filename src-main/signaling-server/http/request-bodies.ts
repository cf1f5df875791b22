import * as v from 'valibot';
import type { CodeRequest, StatsReport } from '../../../src-shared/signaling/http-api';
import { isRoomId } from '../../../src-shared/signaling/room-id';

// The JSON bodies the server reads. Keys beyond the named ones are ignored, as they always were.

/** POST /api/code: `roomId` a UUID of any version, in either case. */
export const CodeRequestSchema = v.object({
  roomId: v.custom<string>(isRoomId, 'not a room id'),
}) satisfies v.GenericSchema<unknown, CodeRequest>;

/** POST /api/stats/report: `bytes` a positive integer no larger than the server's cap. */
export function statsReportSchema(maxReportBytes: number) {
  return v.object({
    bytes: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(maxReportBytes)),
  }) satisfies v.GenericSchema<unknown, StatsReport>;
}
