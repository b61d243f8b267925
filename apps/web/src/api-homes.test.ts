import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * One home per endpoint (issue 17, item 6). Every call of the API client (`api.get('portal/…')`,
 * `api.post(…)`, `api.put(…)`, `api.delete(…)`, `api.request('PATCH', …)`) is read from the
 * sources, its method and path noted, and each method + path may be called from one module only:
 * the feature's `api/` file that owns the endpoint. A second wrapper (another feature's copy, a
 * lib/ helper) fails here, naming both files, so screens import the one home instead.
 *
 * A path is either written in the call (a string or template literal) or named by a const of the
 * same file (`const keyPath = (id: string) => \`keys/${…}\``, `const path = \`…\``). Template
 * parts become `{}`, and the query string is left out.
 */

const SRC = import.meta.dirname;
const CLIENT = path.join(SRC, 'lib', 'api-client.ts');

interface EndpointCall {
  endpoint: string;
  file: string;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(full);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
    })
    .sort();
}

/**
 * Finds what a name of a file stands for: a const of the file (the last one declared before
 * `before`, when given), or a const it imports from `./…`.
 */
type Resolve = (name: string, before?: number) => string[] | null;

function resolverFor(
  file: string,
  text = fs.readFileSync(file, 'utf8'),
  seen: ReadonlySet<string> = new Set(),
): Resolve {
  return (name, before = text.length) => {
    const key = `${file}#${name}`;
    if (seen.has(key)) return null;
    const inner = new Set([...seen, key]);
    const declaration = new RegExp(
      `\\bconst ${name}\\s*(?::[^=]+)?=\\s*(?:\\([^)]*\\)\\s*(?::[^=]+)?=>\\s*)?`,
      'g',
    );
    const matches = [...text.matchAll(declaration)];
    const match = matches.filter((m) => m.index < before).at(-1) ?? matches[0];
    if (match) return valuesOf(text, match.index + match[0].length, resolverFor(file, text, inner));
    const imported = new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*'(\\.{1,2}/[^']+)'`).exec(
      text,
    );
    if (!imported) return null;
    const base = path.resolve(path.dirname(file), imported[1]!);
    const target = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
    return target ? resolverFor(target, undefined, inner)(name) : null;
  };
}

/** Reads the string or template literal starting at `start`; returns its text and where it ends. */
function readLiteral(text: string, start: number, resolve: Resolve): { value: string; end: number } | null {
  const quote = text[start];
  if (quote !== "'" && quote !== '"' && quote !== '`') return null;
  let value = '';
  let index = start + 1;
  while (index < text.length && text[index] !== quote) {
    if (text[index] === '\\') {
      value += text[index + 1];
      index += 2;
    } else if (quote === '`' && text.startsWith('${', index)) {
      // A template part: skip to its closing brace (nested braces and literals counted). A part
      // that is a path helper (`${groupPath(id)}/user/…`) is written out, anything else is `{}`.
      let depth = 1;
      const partStart = index + 2;
      index = partStart;
      while (depth > 0 && index < text.length) {
        const nested = readLiteral(text, index, () => null);
        if (nested) {
          index = nested.end;
          continue;
        }
        if (text[index] === '{') depth += 1;
        if (text[index] === '}') depth -= 1;
        index += 1;
      }
      const part = /^\s*([A-Za-z_$][\w$]*)\s*(?:\(.*\))?\s*$/s.exec(text.slice(partStart, index - 1));
      const values = part ? resolve(part[1]!, start) : null;
      value += values?.length === 1 ? values[0] : '{}';
    } else {
      value += text[index];
      index += 1;
    }
  }
  return { value, end: index + 1 };
}

/**
 * The paths an expression starting at `start` can be: its literals and the helpers it calls, up
 * to the end of the argument or statement (`cond ? \`a/${id}\` : 'a'` is both).
 */
function valuesOf(text: string, start: number, resolve: Resolve): string[] | null {
  const values: string[] = [];
  let depth = 0;
  let index = start;
  while (index < text.length) {
    const char = text[index]!;
    if (depth === 0 && (char === ',' || char === ';' || char === ')' || char === '}')) break;
    const literal = readLiteral(text, index, resolve);
    if (literal) {
      if (depth === 0) values.push(literal.value);
      index = literal.end;
      continue;
    }
    const name = depth === 0 ? /^[A-Za-z_$][\w$]*/.exec(text.slice(index))?.[0] : undefined;
    if (name && !/[\w$.]/.test(text[index - 1] ?? '')) {
      const resolved = resolve(name, start);
      if (resolved) values.push(...resolved);
      index += name.length;
      continue;
    }
    if (char === '(' || char === '[' || char === '{') depth += 1;
    if (char === ')' || char === ']' || char === '}') depth -= 1;
    index += 1;
  }
  return values.length > 0 ? values : null;
}

function normalise(apiPath: string): string {
  if (apiPath === '?') return apiPath;
  return apiPath.replace(/^\/+/, '').replace(/\?.*$/, '');
}

/** Every API client call of one file, as `METHOD path`; a path it cannot read is `METHOD ?`. */
function endpointsOf(text: string, resolve: Resolve): string[] {
  const endpoints: string[] = [];
  const call = /\bapi\.(get|post|put|delete|request)\b/g;
  for (let match = call.exec(text); match; match = call.exec(text)) {
    let index = match.index + match[0].length;
    // Skip a type argument (`api.post<{ status: unknown }>(`).
    if (text[index] === '<') {
      let depth = 0;
      do {
        if (text[index] === '<') depth += 1;
        if (text[index] === '>') depth -= 1;
        index += 1;
      } while (depth > 0 && index < text.length);
    }
    if (text[index] !== '(') continue;
    index += 1;
    while (/\s/.test(text[index] ?? '')) index += 1;
    let method = match[1]!.toUpperCase();
    if (method === 'REQUEST') {
      const literal = readLiteral(text, index, resolve);
      method = literal ? literal.value.toUpperCase() : '?';
      index = text.indexOf(',', index) + 1;
    }
    const paths = valuesOf(text, index, resolve) ?? ['?'];
    endpoints.push(...paths.map((apiPath) => `${method} ${normalise(apiPath)}`));
  }
  return endpoints;
}

function allCalls(): EndpointCall[] {
  return sourceFiles(SRC)
    .filter((file) => file !== CLIENT)
    .flatMap((file) => {
      const relative = path.relative(SRC, file).split(path.sep).join('/');
      const endpoints = endpointsOf(fs.readFileSync(file, 'utf8'), resolverFor(file));
      return [...new Set(endpoints)].map((endpoint) => ({ endpoint, file: relative }));
    });
}

describe('one home per endpoint', () => {
  it('reads method and path from the ways this app calls its client', () => {
    const source = [
      'const keyPath = (keyId: string) => `keys/${encodeURIComponent(keyId)}`;',
      'await api.get<unknown>(keyPath(id));',
      'await api.put<unknown>(`${keyPath(keyId)}/user/${encodeURIComponent(userId)}`);',
      "await api.post<{ status: unknown }>(\n  `portal/user/portal/${id}/${accept ? 'accept' : 'decline'}`,\n);",
      "const path = ruleId ? `portal/alerts/rules/${ruleId}` : 'portal/alerts/rules';",
      'await api.post<unknown>(path, draft);',
      "await api.get('/portal/devices?limit=5', { query });",
      "await api.request('PATCH', `portal/x/${id}`);",
      'await api.delete(somewhere);',
    ].join('\n');
    const file = path.join(SRC, 'features', 'example', 'api', 'example.ts');
    expect(endpointsOf(source, resolverFor(file, source))).toEqual([
      'GET keys/{}',
      'PUT keys/{}/user/{}',
      'POST portal/user/portal/{}/{}',
      'POST portal/alerts/rules/{}',
      'POST portal/alerts/rules',
      'GET portal/devices',
      'PATCH portal/x/{}',
      'DELETE ?',
    ]);
  });

  it('finds the calls of the app', () => {
    // A guard against a regex that silently matches nothing.
    expect(allCalls().length).toBeGreaterThan(100);
  });

  it('reads every path (written in the call, or a const of the same file)', () => {
    const unreadable = allCalls().filter((call) => call.endpoint.endsWith(' ?'));
    expect(unreadable.map((call) => `${call.file}: ${call.endpoint}`)).toEqual([]);
  });

  it('calls each method and path from one module only', () => {
    const homes = new Map<string, string[]>();
    for (const call of allCalls()) homes.set(call.endpoint, [...(homes.get(call.endpoint) ?? []), call.file]);
    const twice = [...homes]
      .filter(([, files]) => files.length > 1)
      .map(([endpoint, files]) => `${endpoint} is called from ${files.join(' and ')}`);
    expect(twice).toEqual([]);
  });

  it('keeps endpoint modules out of lib/ (lib holds the client and infrastructure)', () => {
    // The session every guard loads (GET auth) is the one call infrastructure makes itself.
    const inLib = allCalls().filter((call) => call.file.startsWith('lib/') && call.file !== 'lib/session.ts');
    expect(inLib.map((call) => `${call.file}: ${call.endpoint}`)).toEqual([]);
  });
  it('keeps the layers one-way: lib/ imports no feature or UI, an api/ file no screen or part', () => {
    const crossings = sourceFiles(SRC).flatMap((file) => {
      const relative = path.relative(SRC, file).split(path.sep).join('/');
      const imports = [...fs.readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)].map(
        (m) => m[1]!,
      );
      const wrong = relative.startsWith('lib/')
        ? imports.filter((spec) => /^@\/(features|components|app)\//.test(spec))
        : /^features\/[^/]+\/api\//.test(relative)
          ? imports.filter((spec) => /^@\/(components|app)\/|\/components\/|^\.\.\//.test(spec))
          : [];
      return wrong.map((spec) => `${relative} imports ${spec}`);
    });
    expect(crossings).toEqual([]);
  });
});
