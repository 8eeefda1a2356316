import { createRequire } from 'node:module';
import type { TFontDictionary } from 'pdfmake/interfaces';
import { MONO_FONT, type ManualDocDefinition } from './markdown-to-pdf.js';

/**
 * The server-side face of pdfmake 0.3: a configured singleton. @types/pdfmake describes
 * 0.2's `PdfPrinter` class instead, so the part we use is typed here.
 */
interface PdfMake {
  setFonts(fonts: TFontDictionary): void;
  setUrlAccessPolicy(allow: (url: string) => boolean): void;
  setLocalAccessPolicy(allow: (path: string) => boolean): void;
  createPdf(definition: ManualDocDefinition): { getBuffer(): Promise<Buffer> };
}

const require = createRequire(import.meta.url);
const pdfmake = require('pdfmake') as PdfMake;

/**
 * pdfmake ships Roboto; Roboto Mono comes from @expo-google-fonts/roboto-mono because
 * pdfkit embeds TrueType, and the fontsource packages carry only woff/woff2.
 * pdfmake's own convention: Medium stands in for bold.
 */
const fonts = {
  Roboto: {
    normal: require.resolve('pdfmake/build/fonts/Roboto/Roboto-Regular.ttf'),
    bold: require.resolve('pdfmake/build/fonts/Roboto/Roboto-Medium.ttf'),
    italics: require.resolve('pdfmake/build/fonts/Roboto/Roboto-Italic.ttf'),
    bolditalics: require.resolve('pdfmake/build/fonts/Roboto/Roboto-MediumItalic.ttf'),
  },
  [MONO_FONT]: {
    normal: require.resolve('@expo-google-fonts/roboto-mono/400Regular/RobotoMono_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/roboto-mono/700Bold/RobotoMono_700Bold.ttf'),
    italics:
      require.resolve('@expo-google-fonts/roboto-mono/400Regular_Italic/RobotoMono_400Regular_Italic.ttf'),
    bolditalics:
      require.resolve('@expo-google-fonts/roboto-mono/700Bold_Italic/RobotoMono_700Bold_Italic.ttf'),
  },
} satisfies TFontDictionary;

const fontFiles = new Set(Object.values(fonts).flatMap((family) => Object.values(family)));

/** Renders a document definition to PDF bytes, reading nothing but the font files. */
export async function renderPdf(definition: ManualDocDefinition): Promise<Buffer> {
  pdfmake.setFonts(fonts);
  // The manual is built from our own text: it never needs to fetch a URL, and the only
  // local files it may read are the fonts above.
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((path) => fontFiles.has(path));
  return pdfmake.createPdf(definition).getBuffer();
}
