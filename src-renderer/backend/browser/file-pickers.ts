import { foldersFromRelativePaths, singleFileItem, type SourceItem } from './source-files';

/**
 * Opens the browser's file chooser through a hidden input. It must be called straight from the
 * click that asked for it (browsers open pickers only on a user gesture), so nothing is awaited
 * before `click()`. Resolves with nothing when the person closes the chooser.
 */
function choose(configure: (input: HTMLInputElement) => void): Promise<File[]> {
  const input = document.createElement('input');
  input.type = 'file';
  input.hidden = true;
  configure(input);
  document.body.append(input);
  return new Promise((resolve) => {
    const finish = (files: File[]): void => {
      input.remove();
      resolve(files);
    };
    input.addEventListener('change', () => finish(Array.from(input.files ?? [])), { once: true });
    input.addEventListener('cancel', () => finish([]), { once: true });
    input.click();
  });
}

export async function pickFiles(): Promise<SourceItem[]> {
  const files = await choose((input) => {
    input.multiple = true;
  });
  return files.map(singleFileItem);
}

export async function pickFolder(): Promise<SourceItem[]> {
  const files = await choose((input) => {
    input.webkitdirectory = true;
  });
  return foldersFromRelativePaths(files);
}
