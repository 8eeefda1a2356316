/**
 * Builds the Help PDF: docs/manual.md -> docs/dist/manual.pdf.
 * Run with `npm run build -w @merit/docs`.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownToPdf } from './src/markdown-to-pdf.js';
import { readManual } from './src/read-manual.js';
import { renderPdf } from './src/render-pdf.js';

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, 'manual.md');
const target = join(here, 'dist', 'manual.pdf');

/**
 * The manual's date, which also fixes the PDF's creation date so that rebuilding the same
 * text gives the same bytes: SOURCE_DATE_EPOCH when set (the reproducible-builds
 * convention), else the last commit of manual.md when the file has no uncommitted
 * changes, else the file's modification time.
 */
async function manualDate(file: string): Promise<Date> {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch && /^\d+$/.test(epoch)) return new Date(Number(epoch) * 1000);
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: here,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    const changed = git('status', '--porcelain', '--', file);
    const committed = git('log', '-1', '--format=%cI', '--', file);
    if (!changed && committed) return new Date(committed);
  } catch (_error) {
    // Not a git checkout (an unpacked release, say): the file's own time will do.
  }
  return (await stat(file)).mtime;
}

const started = performance.now();
const { markdown, images } = await readManual(source);
const date = await manualDate(source);
const pdf = await renderPdf(markdownToPdf(markdown, { date, images }));
await mkdir(dirname(target), { recursive: true });
await writeFile(target, pdf);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `${relative(process.cwd(), target)}: ${(pdf.length / 1024).toFixed(0)} KiB, dated ${date.toISOString()}, built in ${seconds} s`,
);
