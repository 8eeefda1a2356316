#!/usr/bin/env node
// Builds the web app and the user manual when they are missing or older than their
// sources, so `npm start` on a fresh clone serves the app, and a second start is instant.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Newest modification time under the given paths (files or folders), skipping outputs. */
function newest(paths) {
  let latest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const info = statSync(p);
    if (info.isDirectory()) {
      for (const name of readdirSync(p)) {
        if (name === 'node_modules' || name === 'dist') continue;
        visit(path.join(p, name));
      }
    } else {
      latest = Math.max(latest, info.mtimeMs);
    }
  };
  for (const p of paths) visit(path.join(root, p));
  return latest;
}

const targets = [
  {
    name: 'user manual',
    workspace: '@merit/docs',
    output: 'docs/dist/manual.pdf',
    sources: ['docs', 'package-lock.json'],
  },
  {
    name: 'web app',
    workspace: '@merit/web',
    output: 'apps/web/dist/index.html',
    sources: ['apps/web', 'packages/domain/src', 'packages/contract/src', 'package-lock.json'],
  },
];

for (const target of targets) {
  const output = path.join(root, target.output);
  const stale = !existsSync(output) || statSync(output).mtimeMs < newest(target.sources);
  if (!stale) continue;
  console.log(`Building the ${target.name}...`);
  const result = spawnSync('npm', ['run', 'build', '--workspace', target.workspace], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`Building the ${target.name} failed; see the output above.`);
    process.exit(result.status ?? 1);
  }
}
