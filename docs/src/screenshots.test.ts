import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Lexer, type Token, type Tokens } from 'marked';
import { beforeAll, describe, expect, it } from 'vitest';
import { imagePaths } from './markdown-to-pdf.js';

/*
 * The screenshot check (issue 30): the manual's pictures are files in docs/images that
 * `npm run docs:screenshots` makes (e2e/screenshots/*.shot.ts). A picture the manual
 * names but nobody made breaks the Help PDF's build; a picture made but named by
 * nothing is dead weight in the repository, or a figure someone forgot to insert.
 */

const manualPath = fileURLToPath(new URL('../manual.md', import.meta.url));
const imagesDir = fileURLToPath(new URL('../images/', import.meta.url));
const scriptsDir = fileURLToPath(new URL('../../e2e/screenshots/', import.meta.url));

/** Every picture of the markdown with its alt text, in order. */
function figures(markdown: string): Tokens.Image[] {
  const found: Tokens.Image[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'image') found.push(token as Tokens.Image);
      const children = (token as { tokens?: Token[] }).tokens;
      if (children) walk(children);
      if (token.type === 'list') for (const item of (token as Tokens.List).items) walk(item.tokens);
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
  return found;
}

describe("the manual's screenshots", () => {
  let markdown: string;
  let named: string[];
  let files: string[];

  beforeAll(async () => {
    markdown = await readFile(manualPath, 'utf8');
    named = imagePaths(markdown);
    files = (await readdir(imagesDir)).filter((name) => name.endsWith('.png'));
  });

  it('shows pictures of every role', () => {
    // Far fewer would mean the pictures were lost, not that the manual needs fewer.
    expect(named.length).toBeGreaterThanOrEqual(25);
    for (const role of ['applicant', 'collaborator', 'member', 'chair', 'admin', 'phone']) {
      expect(named.some((path) => path.startsWith(`images/${role}-`))).toBe(true);
    }
  });

  it('finds every picture the manual names in docs/images', () => {
    const missing = named.filter((path) => !files.includes(path.replace(/^images\//, '')));
    expect(missing, 'Pictures the manual names that docs/images lacks').toEqual([]);
  });

  it('names every picture of docs/images in the manual', () => {
    const unused = files.filter((name) => !named.includes(`images/${name}`));
    expect(unused, 'Pictures in docs/images that the manual never shows').toEqual([]);
  });

  it('says in words what each picture shows', () => {
    for (const image of figures(markdown)) {
      expect(image.text.trim().length, `alt text of ${image.href}`).toBeGreaterThan(10);
    }
  });

  it('shows every picture the screenshot scripts make', async () => {
    const scripts = (await readdir(scriptsDir)).filter((name) => name.endsWith('.shot.ts'));
    const made: string[] = [];
    for (const script of scripts) {
      const source = await readFile(`${scriptsDir}${script}`, 'utf8');
      for (const [, name] of source.matchAll(/\bshoot\(\s*[\w.]+,\s*'([\w-]+)'/g)) {
        made.push(`images/${name}.png`);
      }
    }
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((path) => !named.includes(path))).toEqual([]);
  });
});
