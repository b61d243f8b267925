import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The app loads Mantine's styles per component (mantine-styles.css) instead of all of
// @mantine/core/styles.css: a component whose styles are missing would show unstyled. This follows
// every Mantine component the app imports, and what those components import in turn, to the
// stylesheets they need.

const require = createRequire(import.meta.url);
const WEB_SRC = path.join(import.meta.dirname, '..');
// The packages' main entries (their package.json is not exported): <package>/cjs/index.cjs.
const packageRoot = (name: string) => path.resolve(path.dirname(require.resolve(name)), '..');
const MANTINE = packageRoot('@mantine/core');
const ESM = path.join(MANTINE, 'esm');
const STYLES = path.join(MANTINE, 'styles');
const NOTIFICATIONS_ESM = path.join(packageRoot('@mantine/notifications'), 'esm');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The names a file imports from @mantine/core as values (type-only imports need no styles). */
function mantineImports(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]@mantine\/core['"]/g)) {
    if (match[1]) continue;
    for (const part of match[2]!.split(',')) {
      const name = part.trim();
      if (name && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0]!.trim());
    }
  }
  return names;
}

/**
 * @mantine/core's index: exported name → the module that defines it (null for what it passes on
 * from another package, such as react-remove-scroll, which has no Mantine styles).
 */
function exportedModules(): Map<string, string | null> {
  const index = fs.readFileSync(path.join(ESM, 'index.mjs'), 'utf8');
  const modules = new Map<string, string | null>();
  for (const match of index.matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    for (const name of match[1]!.split(',')) {
      const local = match[2]!.startsWith('.') ? path.join(ESM, match[2]!) : null;
      modules.set(
        name
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
        local,
      );
    }
  }
  return modules;
}

/** Every component folder reached from `start` through relative imports inside @mantine/core. */
function componentsReached(start: string[]): Set<string> {
  const seen = new Set<string>();
  const components = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const folder = path.relative(ESM, file).match(/^components[\\/]([^\\/]+)/);
    if (folder) components.add(folder[1]!);
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(/from\s*"(\.[^"]+\.mjs)"/g)) {
      queue.push(path.resolve(path.dirname(file), match[1]!));
    }
  }
  return components;
}

/** The stylesheets mantine-styles.css imports, in order. */
function importedStylesheets(): string[] {
  const css = fs.readFileSync(path.join(import.meta.dirname, 'mantine-styles.css'), 'utf8');
  return [...css.matchAll(/@import\s+'@mantine\/core\/styles\/([^']+)\.css'/g)].map((m) => m[1]!);
}

describe("the app's Mantine stylesheet", () => {
  const modules = exportedModules();
  const names = new Set(
    sourceFiles(WEB_SRC).flatMap((file) => mantineImports(fs.readFileSync(file, 'utf8'))),
  );
  // The notifications layer (@mantine/notifications) renders @mantine/core components too.
  for (const file of fs.readdirSync(NOTIFICATIONS_ESM).filter((f) => f.endsWith('.mjs'))) {
    mantineImports(fs.readFileSync(path.join(NOTIFICATIONS_ESM, file), 'utf8')).forEach((n) => names.add(n));
  }
  const unknown = [...names].filter((name) => !modules.has(name));
  const needed = [...componentsReached([...names].flatMap((name) => modules.get(name) ?? []))]
    .filter((component) => fs.existsSync(path.join(STYLES, `${component}.css`)))
    .sort();

  it('knows every name the app imports from @mantine/core', () => {
    expect(unknown).toEqual([]);
  });

  it('imports the styles of every component the app reaches', () => {
    const imported = new Set(importedStylesheets());
    expect(needed.filter((component) => !imported.has(component))).toEqual([]);
  });

  it("keeps Mantine's own order (baseline, variables, global, then components as in styles.css)", () => {
    const full = fs.readFileSync(path.join(MANTINE, 'styles.css'), 'utf8');
    const sheets = importedStylesheets();
    expect(sheets.slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
    const positions = sheets.map((sheet) => {
      const head = fs
        .readFileSync(path.join(STYLES, `${sheet}.css`), 'utf8')
        .trim()
        .slice(0, 200);
      return full.indexOf(head);
    });
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});
