#!/usr/bin/env node
// Builds the user manual, the web app and the server when they are missing or older than
// their sources, so `npm start` on a fresh clone serves the app, and a second start is
// instant. `node scripts/ensure-built.mjs server` checks only the named targets.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
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
    id: 'docs',
    name: 'user manual',
    workspace: '@merit/docs',
    output: 'docs/dist/manual.pdf',
    sources: ['docs', 'package-lock.json'],
  },
  {
    id: 'web',
    name: 'web app',
    workspace: '@merit/web',
    output: 'apps/web/dist/index.html',
    sources: ['apps/web', 'packages/domain/src', 'packages/contract/src', 'package-lock.json'],
  },
  {
    id: 'server',
    name: 'server',
    workspace: '@merit/server',
    output: 'apps/server/dist/main.js',
    sources: [
      'apps/server/src',
      'apps/server/build.mjs',
      'packages/domain/src',
      'packages/contract/src',
      'package-lock.json',
    ],
  },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((id) => !targets.some((target) => target.id === id));
if (unknown.length > 0) {
  console.error(
    `ensure-built: no target ${unknown.join(', ')}; the targets are docs, web and server.`,
  );
  process.exit(2);
}

for (const target of targets) {
  if (wanted.length > 0 && !wanted.includes(target.id)) continue;
  const output = path.join(root, target.output);
  const sourcesChanged = newest(target.sources);
  const stale = !existsSync(output) || statSync(output).mtimeMs < sourcesChanged;
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
  // A source saved while the build ran may have been read before the change. Dating the
  // output by the newest source it started from, not by when it finished, leaves such a
  // file newer than the output, so the next start builds again. A millisecond later and
  // rounded up, since the time reaches the file system as a float of seconds and may
  // land a little below the value given.
  utimesSync(output, new Date(), new Date(Math.ceil(sourcesChanged) + 1));
}
