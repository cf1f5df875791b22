import type { PlainHttpLimit } from '../ferry-backend';
import { directoryPicker } from './folder-target';

/**
 * What this page's browser lets it do, of what it grants a secure context only (https,
 * localhost): the one place a page reads it (docs/architecture.md, "Pages on plain HTTP").
 */
export interface PageAbilities {
  /** Opened over https or from localhost. */
  secureContext: boolean;
  /** `showDirectoryPicker`: saving into a folder the person chooses (Chromium on a computer). */
  chooseFolder: boolean;
  /** Service workers, through which downloads stream to disk as they arrive. */
  serviceWorker: boolean;
  /** Notifications while the page is out of sight. */
  notifications: boolean;
}

export function pageAbilities(): PageAbilities {
  return {
    secureContext: window.isSecureContext,
    chooseFolder: directoryPicker() !== undefined,
    serviceWorker: 'serviceWorker' in navigator,
    // Chromium keeps the API on a plain-HTTP page but refuses it leave to notify.
    notifications: window.isSecureContext && typeof Notification !== 'undefined',
  };
}

/**
 * What the page lacks because it was opened over plain HTTP. On a secure page nothing is: what
 * it lacks there, its browser lacks everywhere (Firefox has no folder picker), and saying
 * "plain HTTP" would send the person looking for a way out that does not exist.
 */
export function plainHttpLimits(abilities: PageAbilities): PlainHttpLimit[] {
  if (abilities.secureContext) return [];
  const lacking: [boolean, PlainHttpLimit][] = [
    [abilities.chooseFolder, 'choose-folder'],
    [abilities.serviceWorker, 'stream-downloads'],
    [abilities.notifications, 'notify'],
  ];
  return lacking.filter(([has]) => !has).map(([, limit]) => limit);
}
