import { createStore, get, set, type UseStore } from 'idb-keyval';
import { withDeadline } from '../../../src-shared/session/with-deadline';
import { browserClock } from './browser-clock';
import {
  readStoredDevices,
  type RememberedDevice,
} from '../../../src-shared/devices/remembered-devices';
import {
  BROWSER_CERTIFICATE_VALID_DAYS,
  BROWSER_STORAGE_WAIT_MS,
} from '../../../src-shared/protocol/limits';
import { DAY_MS } from '../../../src-shared/time-units';

const DATABASE = 'ferry';
const OBJECT_STORE = 'identity';
const CERTIFICATE_KEY = 'certificate';
const DEVICES_KEY = 'remembered-devices';

let storage: UseStore | null | undefined;

/** The page's IndexedDB store, or null where the browser has none or refuses it. */
function store(): UseStore | null {
  if (storage !== undefined) return storage;
  try {
    storage = typeof indexedDB === 'undefined' ? null : createStore(DATABASE, OBJECT_STORE);
  } catch {
    storage = null;
  }
  return storage;
}

/**
 * What `work` resolves to, or a rejection when IndexedDB fails or does not answer in time. The
 * page keeps everything it stores in this one store (browser-history.ts too).
 */
export function withStore<T>(work: (db: UseStore) => Promise<T>): Promise<T> {
  const db = store();
  if (db === null) return Promise.reject(new Error('IndexedDB is unavailable'));
  return withDeadline(browserClock, work(db), BROWSER_STORAGE_WAIT_MS, 'IndexedDB did not answer');
}

const generate = (): Promise<RTCCertificate> =>
  RTCPeerConnection.generateCertificate({
    name: 'ECDSA',
    namedCurve: 'P-256',
    expires: BROWSER_CERTIFICATE_VALID_DAYS * DAY_MS,
  } as EcKeyGenParams & { expires: number });

const isCertificate = (stored: unknown): stored is RTCCertificate =>
  typeof RTCCertificate !== 'undefined' && stored instanceof RTCCertificate;

/**
 * The certificate kept in IndexedDB while it is valid, else a new one stored in its place. When
 * IndexedDB is unavailable or fails, a certificate for this page's lifetime: peers then see a
 * new device after a reload, and nothing else changes.
 */
async function keptCertificate(): Promise<RTCCertificate> {
  try {
    const stored = await withStore((db) => get<unknown>(CERTIFICATE_KEY, db));
    if (isCertificate(stored) && stored.expires > Date.now()) return stored;
  } catch {
    return generate();
  }
  const fresh = await generate();
  try {
    await withStore((db) => set(CERTIFICATE_KEY, fresh, db));
  } catch {
    // Kept for the page's lifetime only.
  }
  return fresh;
}

let certificate: Promise<RTCCertificate | undefined> | undefined;

/**
 * The one certificate every RTCPeerConnection of this page uses, so that the other device sees
 * the same fingerprint on every connection, a reconnect included, and after a reload. Undefined
 * only where the browser cannot make one; each connection then makes its own. Never rejects.
 */
export function pageCertificate(): Promise<RTCCertificate | undefined> {
  certificate ??= keptCertificate().catch((error: unknown) => {
    console.warn(`Ferry: no certificate for this page (${String(error)})`);
    return undefined;
  });
  return certificate;
}

/**
 * The devices this browser remembers, as stored (an empty list when none are); undefined when
 * IndexedDB is unavailable.
 */
export async function loadRememberedDevices(): Promise<RememberedDevice[] | undefined> {
  try {
    return readStoredDevices(await withStore((db) => get<unknown>(DEVICES_KEY, db)));
  } catch {
    return undefined;
  }
}

/** Stores the list; false when IndexedDB is unavailable, and the list lasts for this page only. */
export async function saveRememberedDevices(
  devices: readonly RememberedDevice[],
): Promise<boolean> {
  try {
    await withStore((db) => set(DEVICES_KEY, devices, db));
    return true;
  } catch {
    return false;
  }
}
