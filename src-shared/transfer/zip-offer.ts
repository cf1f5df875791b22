import type { OfferView } from './transfer-view';

/**
 * From this many files on, a receiver that can only save downloads (a browser without a chosen
 * folder) offers the batch as one `.zip`: a browser asks before a page starts many downloads, and
 * a person would rather find one archive than a pile of files.
 */
export const ZIP_OFFER_FILE_COUNT = 10;

/** Whether any file of the offer sits in a folder, as far as its names are known. */
export function offerHasFolders(offer: OfferView): boolean {
  if (offer.firstFileName.includes('/')) return true;
  return offer.files?.some((file) => file.name.includes('/')) ?? false;
}

/**
 * Whether an offer saved as downloads is offered as one `.zip` that keeps its folders: it has
 * folders, which separate downloads would flatten, or many files.
 */
export function offersZip(offer: OfferView): boolean {
  return offer.fileCount >= ZIP_OFFER_FILE_COUNT || offerHasFolders(offer);
}

/**
 * The `.zip`'s name: its one top folder's when every file is listed inside it (`album.zip`),
 * else `ferry-<date>.zip` for `today`, in the receiver's own calendar.
 */
export function zipName(offer: OfferView, today: Date): string {
  const slash = offer.firstFileName.indexOf('/');
  const top = slash > 0 ? offer.firstFileName.slice(0, slash) : undefined;
  const files = offer.files;
  const allInTop =
    top !== undefined &&
    files !== undefined &&
    files.length === offer.fileCount &&
    files.every((file) => file.name.startsWith(`${top}/`));
  if (allInTop) return `${top}.zip`;
  const day = [today.getFullYear(), today.getMonth() + 1, today.getDate()]
    .map((part) => String(part).padStart(2, '0'))
    .join('-');
  return `ferry-${day}.zip`;
}
