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

/** The first part of a path: its top folder, or the file itself when it sits in none. */
function topOf(path: string): string {
  const slash = path.indexOf('/');
  return slash > 0 ? path.slice(0, slash) : path;
}

/**
 * The `.zip`'s name, from what the offer shows: its one top folder's when every file is listed
 * inside it (`album.zip`), else the first name and how many more the batch holds
 * (`holiday-photos-and-41-more.zip`): more top-level files and folders where every file is
 * listed, more files where only the first name is known. A first name that is a file loses its
 * extension (`notes-and-3-more.zip`). A name component is at most NAME_COMPONENT_MAX_BYTES, so
 * the suffix keeps it under every file system's 255.
 */
export function zipName(offer: OfferView): string {
  const first = topOf(offer.firstFileName);
  const files = offer.files;
  const listed = files !== undefined && files.length === offer.fileCount;
  const tops = listed ? new Set(files.map((file) => topOf(file.name))) : undefined;
  const inFolder = first !== offer.firstFileName;
  if (tops !== undefined && tops.size === 1 && inFolder) return `${first}.zip`;
  const dot = first.lastIndexOf('.');
  const stem = inFolder || dot <= 0 ? first : first.slice(0, dot);
  const more = tops === undefined ? offer.fileCount - 1 : tops.size - 1;
  return more > 0 ? `${stem}-and-${more}-more.zip` : `${stem}.zip`;
}
