import { createRequire } from 'node:module';
import type { TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces';

/**
 * pdfmake 0.3 set up once for every PDF Merit makes (the user manual, the proposal
 * extract): its fonts, and access policies that let it read nothing but them.
 *
 * The server bundles this module into apps/server/dist (build.mjs bundles workspace
 * packages), so the font files are found by resolving them from wherever this code
 * runs, never by a path relative to the source tree.
 */

/**
 * The server-side face of pdfmake 0.3: a configured singleton. @types/pdfmake describes
 * 0.2's `PdfPrinter` class instead, so the part we use is typed here.
 */
interface PdfMake {
  setFonts(fonts: TFontDictionary): void;
  setUrlAccessPolicy(allow: (url: string) => boolean): void;
  setLocalAccessPolicy(allow: (path: string) => boolean): void;
  createPdf(definition: object): { getBuffer(): Promise<Buffer> };
}

const require = createRequire(import.meta.url);
const pdfmake = require('pdfmake') as PdfMake;

/**
 * Roboto, which pdfmake ships (TrueType, as pdfkit embeds it); pdfmake's own convention
 * has Medium stand in for bold. Documents that name no font get this one.
 */
export const robotoFonts = {
  Roboto: {
    normal: require.resolve('pdfmake/build/fonts/Roboto/Roboto-Regular.ttf'),
    bold: require.resolve('pdfmake/build/fonts/Roboto/Roboto-Medium.ttf'),
    italics: require.resolve('pdfmake/build/fonts/Roboto/Roboto-Italic.ttf'),
    bolditalics: require.resolve('pdfmake/build/fonts/Roboto/Roboto-MediumItalic.ttf'),
  },
} satisfies TFontDictionary;

/**
 * A function that renders document definitions to PDF bytes with `fonts`, reading nothing
 * but those font files. The documents are built from our own data: they never need to
 * fetch a URL, and a file path in one (an image, say) is refused, not read.
 *
 * `Definition` is the shape the caller builds, when it needs pdfmake 0.3 features that
 * @types/pdfmake 0.2 lacks.
 */
export function pdfRenderer<Definition extends object = TDocumentDefinitions>(
  fonts: TFontDictionary,
): (definition: Definition) => Promise<Buffer> {
  const fontFiles = new Set(
    Object.values(fonts).flatMap((family) => Object.values(family) as unknown[]),
  );
  return (definition) => {
    // pdfmake is one shared object: these take effect at createPdf, which reads them
    // synchronously, so renderers with other fonts never see each other's settings.
    pdfmake.setFonts(fonts);
    pdfmake.setUrlAccessPolicy(() => false);
    pdfmake.setLocalAccessPolicy((path) => fontFiles.has(path));
    return pdfmake.createPdf(definition).getBuffer();
  };
}
