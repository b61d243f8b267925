import { CHECKOUT_KINDS } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importGraphOf } from '../../../scripts/eslint-import-cycles.js';
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
