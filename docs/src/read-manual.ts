import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { imagePaths } from './markdown-to-pdf.js';

/**
 * The manual's markdown and the pictures it shows (screenshots in docs/images, made by
 * `npm run docs:screenshots`), as markdownToPdf takes them: each picture by the path the
 * markdown gives, relative to the manual, as a data URL.
 */
export async function readManual(
  manualPath: string,
): Promise<{ markdown: string; images: Record<string, string> }> {
  const markdown = await readFile(manualPath, 'utf8');
  const entries = await Promise.all(
    imagePaths(markdown).map(async (path) => {
      if (!path.endsWith('.png')) throw new Error(`The manual's pictures are PNG files: ${path}`);
      const bytes = await readFile(join(dirname(manualPath), path));
      return [path, `data:image/png;base64,${bytes.toString('base64')}`] as const;
    }),
  );
  return { markdown, images: Object.fromEntries(entries) };
}
