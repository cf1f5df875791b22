import { useId } from 'react';
import { useStore } from 'zustand';
import { offerHasFolders } from '../../src-shared/transfer/zip-offer';
import type { OfferView } from '../../src-shared/transfer/transfer-view';
import { useFerryStores } from '../stores/stores-context';

/**
 * Where the files go to the browser's downloads, which hold no folders: one `.zip` that keeps
 * them (the default), or one download per file, with what that costs said plainly.
 */
export function ZipChoice({ offer, zipName }: { offer: OfferView; zipName: string }) {
  const { transfer } = useFerryStores();
  const packing = useStore(transfer, (state) => state.packing);
  const choosePacking = useStore(transfer, (state) => state.choosePacking);
  const name = useId();
  const folders = offerHasFolders(offer);
  const example = [offer.firstFileName, ...(offer.files ?? []).map((file) => file.name)].find(
    (path) => path.includes('/'),
  );

  return (
    <>
      <fieldset className="zip-choice">
        <legend>Save as</legend>
        <label className="check">
          <input
            type="radio"
            name={name}
            checked={packing === 'zip'}
            onChange={() => choosePacking('zip')}
          />
          <span>
            One .zip, folders kept <span className="path">{zipName}</span>
          </span>
        </label>
        <label className="check">
          <input
            type="radio"
            name={name}
            checked={packing === 'separate-files'}
            onChange={() => choosePacking('separate-files')}
          />
          {folders ? 'Separate files (folders flattened)' : 'Separate files, one download each'}
        </label>
      </fieldset>
      {packing === 'separate-files' && (
        <p className="hint" role="note">
          {folders
            ? `Warning: the folders are not kept. Each file is saved on its own with its folders in its name${
                // The browser backend's flattening (save-target.ts, downloadName).
                example === undefined ? '' : ` (${example} becomes ${example.split('/').join('_')})`
              }, and the browser may ask before this page saves many files.`
            : 'The browser may ask before this page saves many files.'}
        </p>
      )}
    </>
  );
}
