import type { AppFolder } from '../app-folder.js';

export async function devCommand(_app: AppFolder, _port: number | undefined): Promise<void> {
  throw new Error('strata dev is not implemented yet');
}
