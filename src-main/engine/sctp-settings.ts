import nodeDataChannel, { type SctpSettings } from 'node-datachannel';
import { LANE_SCTP_SETTINGS, NATIVE_SCTP_SETTINGS } from '../../src-shared/session/session-limits';

/**
 * node-datachannel's SCTP settings, which are process-wide and read as each association starts
 * (docs/performance.md, "What Ferry does now").
 */
export interface SctpSwitch {
  /**
   * Puts the settings every later association of the process starts with in place: the native
   * peers' own unless told otherwise. Only the first call sets them, so whoever starts the engine
   * first decides (the bench's `--sctp`), and every later call is free.
   */
  useNative(settings?: SctpSettings): void;
  /**
   * Switches to the lanes' settings while a bond's lanes are being made, and back once no bond is
   * making any: a first connection made meanwhile by another transfer of this process gets the
   * lanes' settings, which costs only speed on a LAN. Returns the function that says this bond's
   * lanes are up (or will not be).
   */
  openingLanes(): () => void;
}

/** The switch over `apply`, which hands settings to the stack. */
export function sctpSwitch(apply: (settings: SctpSettings) => void): SctpSwitch {
  let native: SctpSettings | undefined;
  /** Bonds of this process whose lanes are still being made. */
  let opening = 0;
  const useNative = (settings: SctpSettings = NATIVE_SCTP_SETTINGS): SctpSettings => {
    if (native === undefined) {
      native = { ...settings };
      apply({ ...native });
    }
    return native;
  };
  return {
    useNative: (settings) => void useNative(settings),
    openingLanes() {
      const back = useNative();
      if (opening === 0) apply({ ...LANE_SCTP_SETTINGS });
      opening += 1;
      let settled = false;
      return () => {
        if (settled) return;
        settled = true;
        opening -= 1;
        if (opening === 0) apply({ ...back });
      };
    },
  };
}

/** This process's switch: the native engine's entry (native-route.ts) turns it on. */
export const processSctp = sctpSwitch((settings) => nodeDataChannel.setSctpSettings(settings));
