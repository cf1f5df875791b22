import * as v from 'valibot';
import {
  CODE_OUTCOMES,
  type CodeRelease,
  type CodeRequest,
  type StatsReport,
} from '../../../src-shared/signaling/http-api';
import { isRoomId } from '../../../src-shared/signaling/room-id';

// The JSON bodies the server reads. Keys beyond the named ones are ignored, as they always were.

/** POST /api/code: `roomId` a UUID of any version, in either case. */
export const CodeRequestSchema = v.object({
  roomId: v.custom<string>(isRoomId, 'not a room id'),
}) satisfies v.GenericSchema<unknown, CodeRequest>;

/** POST /api/code/:code/release (Ferry's extension): the room, and how the code ended. */
export const CodeReleaseSchema = v.object({
  roomId: v.custom<string>(isRoomId, 'not a room id'),
  outcome: v.picklist(CODE_OUTCOMES),
}) satisfies v.GenericSchema<unknown, CodeRelease>;

/** POST /api/stats/report: `bytes` a positive integer no larger than the server's cap. */
export function statsReportSchema(maxReportBytes: number) {
  return v.object({
    bytes: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(maxReportBytes)),
  }) satisfies v.GenericSchema<unknown, StatsReport>;
}
