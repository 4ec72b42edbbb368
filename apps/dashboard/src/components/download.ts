import { useState } from 'react';

/** Saves a blob as a file, the way a download link does. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  Object.assign(document.createElement('a'), { href: url, download: filename }).click();
  // Revoked a moment later: the download may still read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An export button's action: fetch the file, save it; the error is kept to be shown. */
export function useExport(): { error: unknown; run: (filename: string, fetchBlob: () => Promise<Blob>) => Promise<void> } {
  const [error, setError] = useState<unknown>(null);
  const run = async (filename: string, fetchBlob: () => Promise<Blob>) => {
    setError(null);
    try {
      saveBlob(await fetchBlob(), filename);
    } catch (err) {
      setError(err);
    }
  };
  return { error, run };
}
