import type { LaneConnection } from './lane-connection';

/**
 * Sender, as its first lane opens (docs/protocol.md, "Lanes"): the lanes its stripe lists, in
 * order, and those it leaves out. It lists every lane the receiver answered, open or not yet; a
 * lane without an answer yet is left out, as the receiver may not have made it.
 */
export function lanesToStripe(lanes: Iterable<LaneConnection>): {
  listed: number[];
  leftOut: LaneConnection[];
} {
  const listed: number[] = [];
  const leftOut: LaneConnection[] = [];
  for (const lane of lanes) {
    if (lane.gone === undefined && lane.answered) listed.push(lane.number);
    else leftOut.push(lane);
  }
  listed.sort((x, y) => x - y);
  return { listed, leftOut };
}

/** The stripe order of both ends: the first connection, then the listed lanes. */
export function stripeOrder(listed: readonly number[]): number[] {
  return [0, ...listed];
}

/** Receiver: a lane the stripe lists that this side never made, which breaks the extension. */
export function unmadeLane(
  listed: readonly number[],
  made: ReadonlyMap<number, LaneConnection>,
): number | undefined {
  return listed.find((number) => !made.has(number));
}
