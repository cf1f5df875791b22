import type { DesktopSettings, SettingsChange } from '../../src-shared/ipc/contract';
import { formatBytes } from '../../src-shared/format/format-bytes';
import type { ChangeQuestion } from './desktop-ports';

/**
 * The settings changes that lower a guard, which main makes only once the person confirms them in
 * its own dialog: the window may be compromised, and these would let a stranger in unnoticed
 * (another server sees every code; a larger quick save or no word check lets more through).
 * Undefined when the change lowers none.
 */
export function settingsQuestion(
  current: DesktopSettings,
  change: SettingsChange,
): ChangeQuestion | undefined {
  const lowered: string[] = [];
  if (change.serverUrl !== undefined && change.serverUrl !== current.serverUrl) {
    lowered.push(
      `Connect through ${change.serverUrl} instead of ${current.serverUrl}. That server will see every code and could try to stand between you and the other device.`,
    );
  }
  if (change.confirmWords === false && current.confirmWords) {
    lowered.push('Let files move before you have compared the verification words.');
  }
  if (
    change.autoAcceptMaxBytes !== undefined &&
    change.autoAcceptMaxBytes > current.autoAcceptMaxBytes
  ) {
    lowered.push(
      `Accept batches of up to ${formatBytes(change.autoAcceptMaxBytes)} (now ${formatBytes(current.autoAcceptMaxBytes)}) from devices set to send without asking.`,
    );
  }
  if (lowered.length === 0) return undefined;
  return {
    message: 'Change how Ferry checks who you exchange files with?',
    detail: lowered.join('\n\n'),
    confirmLabel: 'Change',
  };
}

/** Turning on a remembered device's quick save: its batches then land without a question. */
export function autoAcceptQuestion(
  name: string,
  settings: Pick<DesktopSettings, 'autoAcceptMaxBytes' | 'downloadFolder'>,
): ChangeQuestion {
  return {
    message: `Accept files from “${name}” without asking?`,
    detail: `Batches of up to ${formatBytes(settings.autoAcceptMaxBytes)} from this device will be saved into ${settings.downloadFolder} without a question.`,
    confirmLabel: 'Accept without asking',
  };
}
