import { useId } from 'react';
import { useStore } from 'zustand';
import { formatBytes } from '../../src-shared/format/format-bytes';
import { flagCounts, offerFileFlags } from '../../src-shared/transfer/offer-files';
import type { OfferFileView, TransferView } from '../../src-shared/transfer/transfer-view';
import { useFerryStores } from '../stores/stores-context';
import { countOf } from '../../src-shared/format/count-of';
import { FileTreeList } from './file-tree-list';
import { OfferAnswer } from './offer-answer';
import { OfferFrom } from './offer-from';
import { StepHeading } from './step-heading';
import { ZipChoice } from './zip-choice';
import { TextOffer } from './text-offer';
import { WordsQuestion } from './words-question';
import { plainHttpSentence, SAVING_LIMITS } from '../wording/plain-http';

type AwaitingAcceptance = Extract<TransferView, { phase: 'awaiting-acceptance' }>;

/** What the sender offers and where it would go; nothing is written until Accept. */
export function AcceptPrompt({ view }: { view: AwaitingAcceptance }) {
  const { backend, transfer } = useFerryStores();
  const chosen = useStore(transfer, (state) => state.destination);
  const packing = useStore(transfer, (state) => state.packing);
  const changeDestination = useStore(transfer, (state) => state.changeDestination);
  const headingId = useId();
  const { offer } = view;
  // A text message is shown, not saved: there is nowhere to choose (docs/protocol.md, "Text messages").
  if (offer.textMessage === true) {
    return <TextOffer offer={offer} wordsAsked={view.wordsAsked === true} />;
  }
  const others = offer.fileCount - 1;
  const { chooseDestination, defaultDestinationResumes } = backend.capabilities;
  // Said where the choice is made: a download cut short cannot be picked up again.
  const startsOver = !defaultDestinationResumes && chosen === null;
  // A chosen folder keeps the folders; only the downloads need the choice.
  const zip = chosen === null ? view.zip : undefined;
  const zipped = zip !== undefined && packing === 'zip';
  const plainHttp = plainHttpSentence(
    backend.capabilities.plainHttpLimits.filter((limit) => SAVING_LIMITS.includes(limit)),
  );
  const change = chooseDestination
    ? '; a folder chosen with Change picks up where it left off'
    : '';

  return (
    <section className="step" aria-labelledby={headingId}>
      <StepHeading id={headingId}>Incoming files</StepHeading>
      <OfferFrom offer={offer} />
      <p className="offer-name">
        <span className="file-name">{offer.firstFileName}</span>
        {others > 0 && ` and ${countOf(others, 'more file')}`}
      </p>
      {offer.files === undefined ? (
        others > 0 && (
          <p className="hint">
            Only the first name is known: the sending device did not list its files.
          </p>
        )
      ) : (
        <OfferedFiles files={offer.files} fileCount={offer.fileCount} />
      )}
      <dl className="facts">
        <div>
          <dt>Files</dt>
          <dd>{offer.fileCount.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Total size</dt>
          <dd>{formatBytes(offer.totalBytes)}</dd>
        </div>
        <div>
          <dt>Save to</dt>
          <dd className="field-row">
            <span className="path">{chosen ?? view.destination}</span>
            {chooseDestination && (
              <button type="button" className="button" onClick={() => void changeDestination()}>
                Change
              </button>
            )}
          </dd>
        </div>
      </dl>
      {zip !== undefined && <ZipChoice offer={offer} zipName={zip.name} />}
      {startsOver && (
        <p className="hint">
          {zipped
            ? `The .zip starts over if the connection drops: the browser deletes an unfinished one${change}.`
            : `Downloads start over if the connection drops${change}.`}
        </p>
      )}
      {plainHttp !== undefined && (
        <p className="hint" data-testid="plain-http-limits">
          {plainHttp}
        </p>
      )}
      {view.wordsAsked === true && <WordsQuestion />}
      <OfferAnswer wordsAsked={view.wordsAsked === true} />
    </section>
  );
}

/**
 * Every listed file, as a tree of its folders, in a list that scrolls and takes the keyboard's focus, so each name can be
 * read before accepting; hidden files and programs are flagged.
 */
function OfferedFiles({ files, fileCount }: { files: OfferFileView[]; fileCount: number }) {
  const unlisted = fileCount - files.length;
  // Said above the list: a flagged file may sit far down it.
  const flagged = flagCounts(files);
  return (
    <>
      {flagged.length > 0 && (
        <p className="hint">{`Look before accepting: ${flagged.join(' and ')}.`}</p>
      )}
      <FileTreeList
        files={files}
        label="Offered files"
        leaf={(file, name) => (
          <>
            <span className="file-name">{name}</span>
            {offerFileFlags(file).map((flag) => (
              <span key={flag} className="file-flag">
                {flag}
              </span>
            ))}
            <span className="file-size">{formatBytes(file.size)}</span>
          </>
        )}
      />
      {unlisted > 0 && (
        <p className="hint">
          {`The sending device did not list ${countOf(unlisted, 'more file')}.`}
        </p>
      )}
    </>
  );
}
