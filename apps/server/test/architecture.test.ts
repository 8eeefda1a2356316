import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layout docs/architecture.md describes, held by checks that fail: no file of the
 * server or the web app imports itself round a circle, and `npm run lint` refuses an
 * import that runs up the server's layers or into another module past its face.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative import names: `./x.js` is `./x.ts` (or .tsx), `./x` also a folder's index. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx|mjs)$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/**
 * Each file's imports of files of the same tree: static, type-only and dynamic alike,
 * read by TypeScript's own scanner (so an import-shaped line in a string is not one).
 */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolveImport(file, name))
      .filter((target): target is string => target !== undefined && target.startsWith(root));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one file, or of one that imports itself. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found.map((component) => component.map((file) => path.relative(repoRoot, file)));
}

describe('import circles', () => {
  it.each(['apps/server/src', 'apps/web/src'])('%s has none', (tree) => {
    const graph = importGraph(path.join(repoRoot, tree));
    expect(graph.size).toBeGreaterThan(50);
    expect(circles(graph)).toEqual([]);
  });

  it('finds one where there is one', () => {
    const [a, b, c] = ['/t/a.ts', '/t/b.ts', '/t/c.ts'];
    const graph = new Map([
      [a, [b]],
      [b, [c]],
      [c, [a]],
    ]);
    expect(circles(graph)).toHaveLength(1);
    expect(circles(new Map([[a, [b]]]))).toEqual([]);
  });
});

describe('the layers, as npm run lint enforces them', () => {
  const eslint = new ESLint({ cwd: repoRoot });
  /** The import-rule messages ESLint gives `code` as if it were the file `file`. */
  async function refusals(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
    return result!.messages
      .filter((message) => message.ruleId === 'no-restricted-imports')
      .map((message) => message.message);
  }

  it.each([
    ['apps/server/src/config/x.ts', "import type { Db } from '../db/client.js';"],
    ['apps/server/src/config/x.ts', "import type { App } from '../platform/http/app-types.js';"],
    ['apps/server/src/db/x.ts', "import { audit } from '../platform/data/audit.js';"],
    ['apps/server/src/platform/io/x.ts', "import { alerts } from '../../ops/alerts.js';"],
    [
      'apps/server/src/platform/http/x.ts',
      "import type { UserRow } from '../../modules/users/users.queries.js';",
    ],
    [
      'apps/server/src/ops/x.ts',
      "import { logSecurityEvent } from '../modules/auth/auth-access.js';",
    ],
    ['apps/server/src/modules/calls/x.ts', "import { buildApp } from '../../app.js';"],
    [
      'apps/server/src/modules/calls/x.ts',
      "import { createRole } from '../roles/roles.service.js';",
    ],
    [
      'apps/server/src/modules/calls/x.ts',
      "import { proposalsRoutes } from '../proposals/proposals.routes.js';",
    ],
  ])('refuses, in %s: %s', async (file, code) => {
    expect(await refusals(file, `${code}\nexport {};\n`)).toHaveLength(1);
  });

  it.each([
    ['apps/server/src/db/x.ts', "import type { Config } from '../config/config.js';"],
    ['apps/server/src/platform/data/x.ts', "import type { Tx } from '../../db/client.js';"],
    ['apps/server/src/platform/data/x.ts', "import { enqueueMail } from '../io/mail-job.js';"],
    ['apps/server/src/ops/x.ts', "import { enqueueMail } from '../platform/io/mail-job.js';"],
    [
      'apps/server/src/modules/calls/x.ts',
      "import { loadFor } from '../proposals/proposal-access.js';",
    ],
    [
      'apps/server/src/modules/calls/x.ts',
      "import { findUserById } from '../users/users.queries.js';",
    ],
    [
      'apps/server/src/modules/calls/x.ts',
      "import { presentRole } from '../users/users.presenter.js';",
    ],
    [
      'apps/server/src/modules/calls/x.ts',
      "import { decisionAvailableMail } from '../proposals/proposals.mails.js';",
    ],
    ['apps/server/src/modules/calls/x.ts', "import { saveCall } from './calls.service.js';"],
    [
      'apps/server/src/modules/calls/x.test.ts',
      "import { createRole } from '../roles/roles.service.js';",
    ],
    [
      'apps/server/src/app.ts',
      "import { proposalsRoutes } from './modules/proposals/proposals.routes.js';",
    ],
    [
      'apps/server/src/cli/x.ts',
      "import { upsertAdmin } from '../modules/users/users.service.js';",
    ],
  ])('lets, in %s: %s', async (file, code) => {
    expect(await refusals(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});
