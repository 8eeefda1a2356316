/**
 * Opens the chair's downloads as a person's spreadsheet program would: CSV with
 * papaparse, XLSX by unzipping it (fflate) and reading its
 * sheets, shared strings and properties.
 */
import { readFile } from 'node:fs/promises';
import type { Download } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import Papa from 'papaparse';

export type Cell = string | number;

export async function readCsv(download: Download): Promise<string[][]> {
  const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
  return Papa.parse<string[]>(text.trim()).data;
}

export interface Xlsx {
  /** Each sheet's rows by name; numbers are numbers, text is text. */
  sheets: Record<string, Cell[][]>;
  /** Each sheet's XML, for the filter and frozen rows. */
  xml: Record<string, string>;
  title: string | undefined;
  created: string | undefined;
  /** The number format of each number cell, by "Sheet!A1". */
  formats: Record<string, string>;
}

const unescape = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

const columnIndex = (ref: string) =>
  [...ref.replace(/\d+$/, '')].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;

export async function readXlsx(download: Download): Promise<Xlsx> {
  const zip = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  const file = (path: string) => (zip[path] ? strFromU8(zip[path]) : '');
  const shared = [...file('xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    unescape([...m[1]!.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join('')),
  );
  const styles = file('xl/styles.xml');
  const numFmts = new Map(
    [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)].map((m) => [
      m[1]!,
      unescape(m[2]!),
    ]),
  );
  const xfs = [
    ...(styles.match(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/)?.[1] ?? '').matchAll(/<xf ([^>]*)>/g),
  ].map((m) => m[1]!.match(/numFmtId="(\d+)"/)?.[1]);
  const rels = file('xl/_rels/workbook.xml.rels');
  const result: Xlsx = { sheets: {}, xml: {}, formats: {}, title: undefined, created: undefined };
  for (const sheet of file('xl/workbook.xml').matchAll(/<sheet ([^>]*)\/>/g)) {
    const name = unescape(sheet[1]!.match(/name="([^"]*)"/)![1]!);
    const rid = sheet[1]!.match(/r:id="([^"]*)"/)![1]!;
    const target =
      rels.match(new RegExp(`Id="${rid}"[^>]*Target="([^"]*)"`))?.[1] ??
      rels.match(new RegExp(`Target="([^"]*)"[^>]*Id="${rid}"`))![1]!;
    const xml = file(`xl/${target.replace(/^\/?xl\//, '')}`);
    result.xml[name] = xml;
    const rows: Cell[][] = [];
    for (const row of xml.matchAll(/<row [^>]*?r="(\d+)"[^>]*>([\s\S]*?)<\/row>/g)) {
      const cells: Cell[] = [];
      for (const c of row[2]!.matchAll(/<c ([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const attributes = c[1]!;
        const ref = attributes.match(/r="([A-Z]+\d+)"/)![1]!;
        const type = attributes.match(/t="([^"]*)"/)?.[1];
        const raw = c[2]?.match(/<v>([\s\S]*?)<\/v>/)?.[1];
        const inline = c[2]?.match(/<t[^>]*>([\s\S]*?)<\/t>/)?.[1];
        let value: Cell = '';
        if (type === 's') value = shared[Number(raw)]!;
        else if (type === 'inlineStr') value = unescape(inline ?? '');
        else if (type === 'str') value = unescape(raw ?? '');
        else if (raw !== undefined) {
          value = Number(raw);
          const style = attributes.match(/s="(\d+)"/)?.[1];
          const fmt = style === undefined ? undefined : xfs[Number(style)];
          result.formats[`${name}!${ref}`] = fmt ? (numFmts.get(fmt) ?? fmt) : 'General';
        }
        cells[columnIndex(ref)] = value;
      }
      rows[Number(row[1]) - 1] = Array.from(cells, (cell) => cell ?? '');
    }
    result.sheets[name] = rows;
  }
  const core = file('docProps/core.xml');
  result.title = core.match(/<dc:title>([\s\S]*?)<\/dc:title>/)?.[1];
  result.created = core.match(/<dcterms:created[^>]*>([\s\S]*?)<\/dcterms:created>/)?.[1];
  if (result.title) result.title = unescape(result.title);
  return result;
}
