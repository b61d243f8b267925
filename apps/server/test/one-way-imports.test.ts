import { CHECKOUT_KINDS } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { folderGraphOf, importGraphOf } from '../../../scripts/eslint-import-cycles.js';
import { PaymentHandlers, type Payments } from '../src/features/payments/payments-context';
import { TestApp } from './test-app';

// Issue 17 ("one-way layers"): the server had two import circles, devices → subscriptions →
// payments → shop → devices (payments, the lowest commerce layer, imported the shop's and the
// subscriptions' webhook appliers and upkeep) and stays.service ↔ reviews (reviews borrowed the
// StayDeps type from stays.service, which imported reviews for the public page). On the main of
// that day every `it` of the first describe failed. Lint holds the same rule
// (latchkey/no-import-cycle in eslint.config.js); this reads the same graph.

describe('imports run one way', () => {
  const server = importGraphOf('apps/server');
  const importsOf = (prefix: string) =>
    [...server.imports]
      .filter(([file]) => file.startsWith(prefix))
      .flatMap(([file, to]) => to.map((target) => `${file} → ${target}`));

  it('leaves no import circle in the server, type-only imports included', () => {
    expect(server.imports.size).toBeGreaterThan(100); // the graph was read
    expect(server.circles).toEqual([]);
  });

  it('leaves no import circle in the web app', () => {
    expect(importGraphOf('apps/web').circles).toEqual([]);
  });

  it('payments imports nothing of the shop or the subscriptions: they register handlers', () => {
    expect(
      importsOf('features/payments/').filter((edge) => /→ features\/(shop|subscriptions)\//.test(edge)),
    ).toEqual([]);
  });

  it('reviews import nothing of stays.service (their context type is the rental features’ own)', () => {
    expect(
      importsOf('features/').filter((edge) => edge.endsWith('→ features/stays/stays.service.ts')),
    ).toEqual(expect.not.arrayContaining([expect.stringMatching(/^features\/reviews\//)]));
    expect(importsOf('features/stays/stays.service.ts').filter((edge) => edge.includes('reviews/'))).toEqual(
      [],
    );
  });
});

// Issue 17, one level up: on the main of that day 17 pairs of server folders imported each other
// (portals ↔ alerts, auth ↔ http, listings ↔ stays…). The base (tenancy, identity, audit, rate
// limits, mail, access changes, events, HTTP, jobs) now imports no feature, and the feature folders
// form no circle; latchkey/one-way-features holds it in lint.
describe('folders depend one way', () => {
  const folders = folderGraphOf('apps/server');
  const importsOfFolder = (folder: string) => folders.get(folder) ?? [];

  it('the base and db import no feature, demo or app', () => {
    expect(folders.size).toBeGreaterThan(20); // the graph was read
    expect(importsOfFolder('base').filter((to) => !['db', 'config.ts'].includes(to))).toEqual([]);
    expect(importsOfFolder('db').filter((to) => to !== 'config.ts')).toEqual([]);
  });

  it('no two server feature folders reach each other, however long the way', () => {
    const features = [...folders.keys()].filter((folder) => folder.startsWith('features/'));
    const reaches = (from: string, to: string) => {
      const seen = new Set([from]);
      const queue = [from];
      while (queue.length > 0)
        for (const next of importsOfFolder(queue.shift()!)) {
          if (next === to) return true;
          if (seen.has(next)) continue;
          seen.add(next);
          queue.push(next);
        }
      return false;
    };
    const mutual = features.flatMap((a) =>
      importsOfFolder(a)
        .filter((b) => b.startsWith('features/') && reaches(b, a))
        .map((b) => `${a} → ${b}`),
    );
    expect(mutual).toEqual([]);
  });

  it('docs/ARCHITECTURE.md names every feature folder, each below the ones it imports', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../../docs/ARCHITECTURE.md'), 'utf8');
    const table = doc.slice(doc.indexOf('### The feature folders'));
    const named = [...table.matchAll(/^\| ([a-z-]+) \| /gm)]
      .map((m) => `features/${m[1]}`)
      .filter((folder) => folder !== 'features/folder'); // the header row
    const features = [...folders.keys()].filter((folder) => folder.startsWith('features/'));
    expect([...named].sort()).toEqual([...features].sort());
    const importsFromAbove = named.flatMap((folder, at) =>
      importsOfFolder(folder)
        .filter((to) => named.indexOf(to) > at)
        .map((to) => `${folder} → ${to}`),
    );
    expect(importsFromAbove).toEqual([]);
  });

  it('no two web feature folders import each other', () => {
    const web = folderGraphOf('apps/web');
    const pairs = [...web].flatMap(([a, targets]) =>
      targets
        .filter((b) => a.startsWith('features/') && b.startsWith('features/') && web.get(b)?.includes(a))
        .map((b) => `${a} ↔ ${b}`),
    );
    expect(pairs).toEqual([]);
  });

  it('lint refuses a feature reaching back into one that stands on it, the base reaching a feature, and the web’s shared parts reaching a feature', async () => {
    const eslint = new ESLint({ cwd: path.resolve(__dirname, '../../..') });
    const source = path.resolve(__dirname, '../src');
    const ruleIds = async (text: string, file: string) =>
      (await eslint.lintText(text, { filePath: path.join(source, file) }))[0]!.messages.map((m) => m.ruleId);
    // Stays stand on listings: a listing module must not import the stays.
    expect(
      await ruleIds(
        "import { listCurrentStays } from '../stays/stays.repository';\nexport const reach = listCurrentStays;\n",
        'features/listings/a-new-reach.ts',
      ),
    ).toContain('latchkey/one-way-features');
    expect(
      await ruleIds(
        "import { insertDefaultAlertRules } from '../../features/alerts/alerts.repository';\nexport const reach = insertDefaultAlertRules;\n",
        'base/tenancy/a-new-reach.ts',
      ),
    ).toContain('latchkey/one-way-features');
    // The way down stays open.
    expect(
      await ruleIds(
        "import { findListing } from '../listings/listings.repository';\nexport const down = findListing;\n",
        'features/stays/a-new-use.ts',
      ),
    ).not.toContain('latchkey/one-way-features');
    // The web's shared components and lib import no feature; a feature's screen may.
    const web = path.resolve(__dirname, '../../web/src');
    const webRuleIds = async (text: string, file: string) =>
      (await eslint.lintText(text, { filePath: path.join(web, file) }))[0]!.messages.map((m) => m.ruleId);
    const reach =
      "import { useDevice } from '@/features/devices/api/get-device';\nexport const reach = useDevice;\n";
    expect(await webRuleIds(reach, 'components/a-new-part.tsx')).toContain('latchkey/one-way-features');
    expect(await webRuleIds(reach, 'lib/a-new-helper.ts')).toContain('latchkey/one-way-features');
    expect(await webRuleIds(reach, 'features/keys/components/a-new-part.tsx')).not.toContain(
      'latchkey/one-way-features',
    );
  }, 60_000); // loading the lint configuration takes seconds on a busy machine
});

describe('PaymentHandlers', () => {
  const noop = async () => {};

  it('gives each checkout kind its one handler, and refuses a second or a missing one', () => {
    const handlers = new PaymentHandlers();
    const order = { paid: noop };
    handlers.handleCheckouts('order', order);
    handlers.handleCheckouts(['subscription', 'prepaid'], { paid: noop });
    expect(handlers.forKind('order')).toBe(order);
    expect(() => handlers.handleCheckouts('prepaid', { paid: noop })).toThrow(/already have a handler/);
    expect(() => new PaymentHandlers().forKind('order')).toThrow(/No handler for checkouts of kind order/);
  });

  it('calls an event’s listeners in the order they registered; a throw stops the rest', async () => {
    const handlers = new PaymentHandlers();
    const heard: string[] = [];
    const payments = {} as Payments;
    handlers.on('Sweep', async () => void heard.push('first'));
    handlers.on('WebhookCommitted', async (_db, _payments, type) => void heard.push(type));
    handlers.on('Sweep', async () => void heard.push('second'));
    await handlers.emit('Sweep', {} as never, payments);
    await handlers.emit('WebhookCommitted', {} as never, payments, 'invoice.paid');
    await handlers.emit('InvoiceSettled', {} as never, {} as never, {} as never, true); // nobody listens
    expect(heard).toEqual(['first', 'second', 'invoice.paid']);

    handlers.on('Sweep', async () => {
      throw new Error('provider down');
    });
    handlers.on('Sweep', async () => void heard.push('after the throw'));
    await expect(handlers.emit('Sweep', {} as never, payments)).rejects.toThrow('provider down');
    expect(heard).not.toContain('after the throw');
  });
});

describe('the app wires every checkout kind to its seller', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a handler for each kind; orders release their stock when they end unpaid', () => {
    for (const kind of CHECKOUT_KINDS)
      expect(t.app.payments.handlers.forKind(kind).paid).toBeTypeOf('function');
    expect(t.app.payments.handlers.forKind('order').ended).toBeTypeOf('function');
  });
});
