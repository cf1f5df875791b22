import nodeDataChannel from 'node-datachannel';
import { LANE_SCTP_SETTINGS, NATIVE_SCTP_SETTINGS } from '../../src-shared/session/session-limits';

// node-datachannel's SCTP settings are process-wide and read when each association starts, so the
// native peers' own are put in place when this module loads, which peer-link.ts makes happen
// before any connection (docs/performance.md, "What Ferry does now").
nodeDataChannel.setSctpSettings({ ...NATIVE_SCTP_SETTINGS });

/** Bonds of this process whose lanes are still being made. */
let opening = 0;

/**
 * Switches node-datachannel's process-wide SCTP settings to the lanes' while lanes are being made
 * (libdatachannel reads them when each association starts, once its DTLS is up), and back to the
 * native peers' own once no bond is making any: a first connection made meanwhile by another
 * transfer of this process gets the lanes' settings, which costs only speed on a LAN. Returns the
 * function that says this bond's lanes are up (or will not be).
 */
export function openingLanes(): () => void {
  if (opening === 0) nodeDataChannel.setSctpSettings({ ...LANE_SCTP_SETTINGS });
  opening += 1;
  let settled = false;
  return () => {
    if (settled) return;
    settled = true;
    opening -= 1;
    if (opening === 0) nodeDataChannel.setSctpSettings({ ...NATIVE_SCTP_SETTINGS });
  };
}
