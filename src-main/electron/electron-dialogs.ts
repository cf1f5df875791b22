import { dialog, type BrowserWindow } from 'electron';
import type { DesktopDialogs } from '../desktop/desktop-ports';

export function electronDialogs(window: () => BrowserWindow | undefined): DesktopDialogs {
  const open = async (
    properties: Electron.OpenDialogOptions['properties'],
    title: string,
  ): Promise<string[]> => {
    const options: Electron.OpenDialogOptions = { title, properties };
    const parent = window();
    const result = parent
      ? await dialog.showOpenDialog(parent, options)
      : await dialog.showOpenDialog(options);
    return result.canceled ? [] : result.filePaths;
  };
  return {
    pickFiles: () => open(['openFile', 'multiSelections'], 'Choose files to send'),
    pickFolder: () => open(['openDirectory', 'multiSelections'], 'Choose folders to send'),
    async pickDownloadFolder() {
      const [folder] = await open(['openDirectory', 'createDirectory'], 'Save received files in');
      return folder ?? null;
    },
    async confirmChange({ message, detail, confirmLabel }) {
      // Cancel is the default and what Escape or closing the box answers.
      const options: Electron.MessageBoxOptions = {
        type: 'question',
        message,
        detail,
        buttons: [confirmLabel, 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        noLink: true,
      };
      const parent = window();
      const { response } = parent
        ? await dialog.showMessageBox(parent, options)
        : await dialog.showMessageBox(options);
      return response === 0;
    },
  };
}
