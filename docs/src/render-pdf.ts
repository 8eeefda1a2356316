import { createRequire } from 'node:module';
import { pdfRenderer, robotoFonts } from '@merit/pdf';
import type { TFontDictionary } from 'pdfmake/interfaces';
import { MONO_FONT, type ManualDocDefinition } from './markdown-to-pdf.js';

const require = createRequire(import.meta.url);

/**
 * Roboto Mono comes from @expo-google-fonts/roboto-mono because pdfkit embeds TrueType,
 * and the fontsource packages carry only woff/woff2.
 */
const fonts = {
  ...robotoFonts,
  [MONO_FONT]: {
    normal: require.resolve('@expo-google-fonts/roboto-mono/400Regular/RobotoMono_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/roboto-mono/700Bold/RobotoMono_700Bold.ttf'),
    italics:
      require.resolve('@expo-google-fonts/roboto-mono/400Regular_Italic/RobotoMono_400Regular_Italic.ttf'),
    bolditalics:
      require.resolve('@expo-google-fonts/roboto-mono/700Bold_Italic/RobotoMono_700Bold_Italic.ttf'),
  },
} satisfies TFontDictionary;

/** Renders the manual's document definition to PDF bytes, reading nothing but the font files. */
export const renderPdf = pdfRenderer<ManualDocDefinition>(fonts);
