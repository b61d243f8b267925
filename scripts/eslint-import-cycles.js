// latchkey/no-import-cycle: no import circle in the server or the web app, type-only imports
// included (docs/ARCHITECTURE.md, "One-way imports"). eslint-plugin-import-x's no-cycle skips
// `import type`, so a circle made of types (a context type one feature borrows from another that
// imports it back) passes it; this rule reads every import the TypeScript compiler sees
// (ts.preProcessFile: import, import type, export … from, import()), resolves it with the app's
// tsconfig (the web's `@/` paths too) and finds the circles once per ESLint run (Tarjan's strongly
// connected components). Each import that stays inside a circle is reported with the circle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const APPS = ['apps/server', 'apps/web'].map((app) => ({
  src: path.join(root, app, 'src') + path.sep,
  tsconfig: path.join(root, app, 'tsconfig.json'),
}));

function sourceFiles(dir) {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

function compilerOptionsOf(tsconfig) {
  const read = ts.readConfigFile(tsconfig, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(tsconfig)).options;
}

/** One app's import graph (its src only) and the circles in it. */
function analyse(app) {
  const options = compilerOptionsOf(app.tsconfig);
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  /** file → specifier → imported file (inside src) */
  const imports = new Map();
  for (const file of sourceFiles(app.src)) {
    const targets = new Map();
    const text = fs.readFileSync(file, 'utf8');
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, ts.sys, cache).resolvedModule;
      const target = resolved && path.resolve(resolved.resolvedFileName);
      if (target && target.startsWith(app.src) && !target.includes(`${path.sep}node_modules${path.sep}`))
        targets.set(fileName, target);
    }
    imports.set(file, targets);
  }

  // Tarjan's strongly connected components, iteratively (no recursion limit on long chains).
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const component = new Map(); // file → its circle's id, for files in a circle
  let counter = 0;
  let circles = 0;
  for (const start of imports.keys()) {
    if (index.has(start)) continue;
    const work = [{ file: start, next: [...new Set(imports.get(start).values())], at: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.at < frame.next.length) {
        const to = frame.next[frame.at++];
        if (!imports.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, next: [...new Set(imports.get(to).values())], at: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.file, Math.min(low.get(frame.file), index.get(to)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].file;
        low.set(parent, Math.min(low.get(parent), low.get(frame.file)));
      }
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const members = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.file);
      const selfImport = [...imports.get(frame.file).values()].includes(frame.file);
      if (members.length > 1 || selfImport) {
        circles++;
        for (const m of members) component.set(m, circles);
      }
    }
  }
  /** Resolves an import the graph does not hold (a file being edited, or linted as text). */
  const resolve = (fileName, file) => {
    const resolved = ts.resolveModuleName(fileName, file, options, ts.sys, cache).resolvedModule;
    const target = resolved && path.resolve(resolved.resolvedFileName);
    return target && target.startsWith(app.src) && !target.includes(`${path.sep}node_modules${path.sep}`)
      ? target
      : undefined;
  };
  return { imports, component, resolve };
}

/**
 * The import circles of one app ('apps/server' or 'apps/web'), each as its files relative to the
 * app's src, sorted; and the imports of each file (relative paths too). For tests.
 */
export function importGraphOf(appDir) {
  const app = APPS.find((candidate) => candidate.src === path.join(root, appDir, 'src') + path.sep);
  if (!app) throw new Error(`Not an app: ${appDir}`);
  const { imports, component } = analyse(app);
  const short = (file) => path.relative(app.src, file).split(path.sep).join('/');
  const circles = new Map();
  for (const [file, id] of component) circles.set(id, [...(circles.get(id) ?? []), short(file)]);
  return {
    circles: [...circles.values()].map((files) => files.sort()),
    imports: new Map(
      [...imports].map(([file, targets]) => [short(file), [...new Set(targets.values())].map(short).sort()]),
    ),
  };
}

const analysed = new Map();
function graphFor(file) {
  const app = APPS.find((candidate) => file.startsWith(candidate.src));
  if (!app) return null;
  if (!analysed.has(app.src)) analysed.set(app.src, analyse(app));
  return { app, ...analysed.get(app.src) };
}

/** The shortest way back from `from` to `to` inside their circle. */
function wayBack(graph, from, to) {
  const circle = graph.component.get(to);
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === to) break;
    for (const next of graph.imports.get(file)?.values() ?? []) {
      if (previous.has(next) || graph.component.get(next) !== circle) continue;
      previous.set(next, file);
      queue.push(next);
    }
  }
  const way = [];
  for (let file = to; file !== null && file !== undefined; file = previous.get(file)) way.unshift(file);
  return way;
}

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import circles, type-only imports included' },
    schema: [],
    messages: {
      circle:
        'Import circle (type imports count): {{way}}. Move what both need to a module that imports neither, or let the lower one announce an event the other registers for.',
    },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    const graph = graphFor(file);
    const circle = graph?.component.get(file);
    if (!circle) return {};
    const short = (f) => path.relative(graph.app.src, f);
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const target = graph.imports.get(file)?.get(source.value);
      if (!target || graph.component.get(target) !== circle) return;
      const way = [file, ...wayBack(graph, target, file)].map(short).join(' → ');
      context.report({ node, messageId: 'circle', data: { way } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument),
    };
  },
};

// latchkey/one-way-features (docs/ARCHITECTURE.md, "Layers"): the import rule one level up, between
// folders. In the server, db/ and base/ import no feature (and db/ nothing of base/), and feature
// folders (src/features/<name>) never import each other, directly or round a longer loop: the
// folders' own graph has no circle. In the web app no two feature folders import each other, and
// the shared layers (src/components, src/lib) import no feature: a shared part takes its data and
// mutations as props from the screen, or moves into a feature. A feature that needs another's
// outcome uses the lower one's exports, or an event the lower one announces
// (base/events/domain-events.ts).

/** The folder a file belongs to, for the folder graph: features/<name>, base, db, or the file. */
function folderOf(app, file) {
  const parts = path.relative(app.src, file).split(path.sep);
  if (parts[0] === 'features' && parts.length > 2) return `features/${parts[1]}`;
  return parts[0];
}

const folderGraphs = new Map();
function folderGraphFor(file) {
  const graph = graphFor(file);
  if (!graph) return null;
  if (!folderGraphs.has(graph.app.src)) {
    const edges = new Map();
    for (const [from, targets] of graph.imports) {
      // Tests stand on top of what they test (a hook's test renders the app's providers).
      if (/\.test\.tsx?$/.test(from)) continue;
      const a = folderOf(graph.app, from);
      for (const to of targets.values()) {
        const b = folderOf(graph.app, to);
        if (a === b) continue;
        if (!edges.has(a)) edges.set(a, new Set());
        edges.get(a).add(b);
      }
    }
    folderGraphs.set(graph.app.src, edges);
  }
  return { ...graph, folders: folderGraphs.get(graph.app.src) };
}

/** The shortest way from one folder to another in the folder graph, or null. */
function folderWay(edges, from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const folder = queue.shift();
    if (folder === to) {
      const way = [];
      for (let f = to; f !== null; f = previous.get(f)) way.unshift(f);
      return way;
    }
    for (const next of edges.get(folder) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, folder);
      queue.push(next);
    }
  }
  return null;
}

const ABOVE = ['features', 'demo', 'app.ts', 'main.ts'];
const LOWER_LAYERS = { db: ['base', ...ABOVE], base: ABOVE };
/** The web app's shared layers, below every feature (its tests stand on top, like the server's). */
const WEB_SHARED = ['components', 'lib'];

const oneWayFeatures = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Feature folders never import each other; the base and db (server), components and lib (web) import no feature',
    },
    schema: [],
    messages: {
      layer:
        '{{from}} is below {{to}}: it imports nothing of it. Let {{to}} register for an event {{from}} announces (base/events/domain-events.ts), or move what both need down.',
      features:
        'Feature folders would import each other: {{way}}. Move what both need to the lower one (or the base), or let the lower one announce an event the other listens to.',
      shared:
        'src/{{from}} is shared by the features and imports none of them ({{to}}). Let the screen pass the data or mutation as props, or move this part into the feature that owns its endpoint (or a feature folder of its own).',
    },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    const graph = folderGraphFor(file);
    if (!graph) return {};
    const from = folderOf(graph.app, file);
    const isServer = graph.app.src.includes(`${path.sep}server${path.sep}`);
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const target = graph.imports.get(file)?.get(source.value) ?? graph.resolve(source.value, file);
      if (!target) return;
      const to = folderOf(graph.app, target);
      if (to === from) return;
      const top = to.split('/')[0];
      if (isServer && LOWER_LAYERS[from]?.includes(top)) {
        context.report({ node, messageId: 'layer', data: { from, to } });
        return;
      }
      if (!isServer && WEB_SHARED.includes(from) && top === 'features' && !/\.test\.tsx?$/.test(file)) {
        context.report({ node, messageId: 'shared', data: { from, to } });
        return;
      }
      if (!from.startsWith('features/') || !to.startsWith('features/')) return;
      // The server's feature folders have no circle at all; the web's no two features importing
      // each other (its screens use other features' endpoints, which import only lib/).
      const back = isServer
        ? folderWay(graph.folders, to, from)
        : graph.folders.get(to)?.has(from)
          ? [to, from]
          : null;
      if (back) context.report({ node, messageId: 'features', data: { way: [from, ...back].join(' → ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument),
    };
  },
};

/**
 * The folder graph of one app: for each folder (features/<name>, base, db, or a top-level file),
 * the folders it imports. For tests.
 */
export function folderGraphOf(appDir) {
  const app = APPS.find((candidate) => candidate.src === path.join(root, appDir, 'src') + path.sep);
  if (!app) throw new Error(`Not an app: ${appDir}`);
  const graph = folderGraphFor(path.join(app.src, 'x.ts'));
  return new Map([...graph.folders].map(([folder, targets]) => [folder, [...targets].sort()]));
}

export default { rules: { 'no-import-cycle': noImportCycle, 'one-way-features': oneWayFeatures } };
