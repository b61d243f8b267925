import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BRANDS,
  type Bill,
  type ContentPage,
  type ContentVersionList,
  type InfoIndex,
  type InfoPage,
} from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMail } from '../src/base/mail/send-mail';
import { absoluteMailImages, deviceInvitationMail } from '../src/base/mail/mail.templates';
import { billPdf } from '../src/features/billing/bill-pdf';
import { DEFAULT_PAGES } from '../src/features/content/default-pages';
import { TestApp } from './test-app';

// Content pages (issue 20, item 6): the defaults written at first start, saves as versions,
// restores, drafts that stay private, platform-only edits, the navigation's hidden entries and the
// brand a reseller chooses for its customers.

let t: TestApp;
let staff: string;
let admin: { token: string; portalId: string };
beforeAll(async () => {
  t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000', SIGNUP_LIMIT_PER_IP: '1000' });
  staff = (await t.createSuperAdmin()).token;
  admin = await t.signUp();
});
afterAll(() => t.close());

type Method = 'GET' | 'PUT' | 'POST';
const call = (method: Method, url: string, token?: string, payload?: object) =>
  t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });

const page = (body: string, published = true) => ({
  title: 'Privacy notice',
  section: 'legal',
  body,
  published,
});

describe('default pages', () => {
  it('a fresh deployment publishes terms, privacy, imprint and the help topics', async () => {
    const index = (await call('GET', 'info')).json<InfoIndex>();
    const topics = index.pages.map((p) => p.topic).sort();
    expect(topics).toEqual(Object.keys(DEFAULT_PAGES).sort());
    expect(index.pages.find((p) => p.topic === 'terms')).toMatchObject({ section: 'legal', version: 1 });
    const terms = await call('GET', 'info/terms');
    expect(terms.statusCode).toBe(200);
    expect(terms.json<InfoPage>().body).toContain('# Terms of use');
  });

  it('a second start leaves the pages as staff edited them', async () => {
    const { ensureDefaultPages } = await import('../src/features/content/default-pages');
    await call('PUT', 'content/pages/imprint', staff, { ...page('# Our imprint'), title: 'Imprint' });
    await ensureDefaultPages(t.app.db);
    expect((await call('GET', 'info/imprint')).json<InfoPage>().body).toBe('# Our imprint');
  });
});

describe('saving and versions', () => {
  it('every save is a new version with who saved it and when', async () => {
    const first = await call('PUT', 'content/pages/privacy', staff, page('# Privacy\n\nSecond text.'));
    expect(first.statusCode).toBe(200);
    expect(first.json<ContentPage>()).toMatchObject({ version: 2, updatedBy: 'Staff', published: true });
    await call('PUT', 'content/pages/privacy', staff, page('# Privacy\n\nThird text.'));
    const versions = (await call('GET', 'content/pages/privacy/versions', staff)).json<ContentVersionList>();
    expect(versions.versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(versions.versions[0]).toMatchObject({ savedBy: 'Staff', body: '# Privacy\n\nThird text.' });
    // Version 1 is the default page, saved by no one.
    expect(versions.versions[2]).toMatchObject({ savedBy: null, restoredFrom: null });
    expect((await call('GET', 'info/privacy')).json<InfoPage>().body).toBe('# Privacy\n\nThird text.');
  });

  it('restoring a version makes it the next version; the history keeps everything', async () => {
    const restored = await call('POST', 'content/pages/privacy/restore', staff, { version: 2 });
    expect(restored.statusCode).toBe(200);
    expect(restored.json<ContentPage>()).toMatchObject({ version: 4, body: '# Privacy\n\nSecond text.' });
    const versions = (await call('GET', 'content/pages/privacy/versions', staff)).json<ContentVersionList>();
    expect(versions.versions[0]).toMatchObject({ version: 4, restoredFrom: 2 });
    expect(versions.versions).toHaveLength(4);
    expect((await call('GET', 'info/privacy')).json<InfoPage>().body).toBe('# Privacy\n\nSecond text.');
  });

  it('restoring a version the page never had is a 404 and changes nothing', async () => {
    expect((await call('POST', 'content/pages/privacy/restore', staff, { version: 99 })).statusCode).toBe(
      404,
    );
    expect(
      (await call('GET', 'content/pages/privacy/versions', staff)).json<ContentVersionList>().versions,
    ).toHaveLength(4);
  });

  it('a draft is not public until it is published', async () => {
    const draft = await call('PUT', 'content/pages/help-locks-abroad', staff, {
      title: 'Locks abroad',
      section: 'help',
      body: 'Draft.',
      published: false,
    });
    expect(draft.statusCode).toBe(200);
    expect((await call('GET', 'info/help-locks-abroad')).statusCode).toBe(404);
    const index = (await call('GET', 'info')).json<InfoIndex>();
    expect(index.pages.some((p) => p.topic === 'help-locks-abroad')).toBe(false);
    const all = (await call('GET', 'content/pages', staff)).json<{ pages: ContentPage[] }>();
    expect(all.pages.find((p) => p.topic === 'help-locks-abroad')).toMatchObject({ published: false });
    await call('PUT', 'content/pages/help-locks-abroad', staff, {
      title: 'Locks abroad',
      section: 'help',
      body: 'Now live.',
      published: true,
    });
    expect((await call('GET', 'info/help-locks-abroad')).json<InfoPage>().body).toBe('Now live.');
  });

  it('unpublishing takes a page down', async () => {
    await call('PUT', 'content/pages/help-locks-abroad', staff, {
      title: 'Locks abroad',
      section: 'help',
      body: 'Withdrawn.',
      published: false,
    });
    expect((await call('GET', 'info/help-locks-abroad')).statusCode).toBe(404);
  });
});

describe('who may edit', () => {
  it('a portal admin, a stranger and bad input change nothing', async () => {
    const before = (await call('GET', 'info/terms')).json<InfoPage>();
    expect((await call('PUT', 'content/pages/terms', admin.token, page('Hacked'))).statusCode).toBe(403);
    expect((await call('PUT', 'content/pages/terms', undefined, page('Hacked'))).statusCode).toBe(401);
    expect((await call('POST', 'content/pages/terms/restore', admin.token, { version: 1 })).statusCode).toBe(
      403,
    );
    expect((await call('GET', 'content/pages/terms/versions', admin.token)).statusCode).toBe(403);
    expect((await call('PUT', 'content/pages/Bad%20Topic', staff, page('x'))).statusCode).toBe(400);
    expect((await call('PUT', 'content/pages/terms', staff, { ...page('x'), title: '' })).statusCode).toBe(
      400,
    );
    expect(
      (await call('PUT', 'content/pages/terms', staff, { ...page('x'), section: 'secret' })).statusCode,
    ).toBe(400);
    expect((await call('GET', 'info/terms')).json<InfoPage>()).toEqual(before);
  });

  it('stores the Markdown as written: the web app sanitises what it renders', async () => {
    const hostile = '<script>window.pwned = 1</script>\n\n<img src=x onerror="window.pwned = 2">';
    await call('PUT', 'content/pages/help-hostile', staff, { ...page(hostile), section: 'help' });
    expect((await call('GET', 'info/help-hostile')).json<InfoPage>().body).toBe(hostile);
  });
});

describe('navigation visibility', () => {
  it('staff hide and show an entry for everyone; the app reads it without signing in', async () => {
    expect((await call('GET', 'content/nav')).json()).toEqual({ hidden: [] });
    const hidden = await call('PUT', 'content/nav', staff, { to: '/app/lockout', hidden: true });
    expect(hidden.json()).toEqual({ hidden: ['/app/lockout'] });
    await call('PUT', 'content/nav', staff, { to: '/app/keys', hidden: true });
    expect((await call('GET', 'content/nav')).json()).toEqual({ hidden: ['/app/keys', '/app/lockout'] });
    await call('PUT', 'content/nav', staff, { to: '/app/lockout', hidden: false });
    expect((await call('GET', 'content/nav')).json()).toEqual({ hidden: ['/app/keys'] });
  });

  it('only staff change it, and only screen addresses', async () => {
    expect(
      (await call('PUT', 'content/nav', admin.token, { to: '/app/keys', hidden: false })).statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', 'content/nav', staff, { to: 'javascript:alert(1)', hidden: true })).statusCode,
    ).toBe(400);
    expect((await call('GET', 'content/nav')).json()).toEqual({ hidden: ['/app/keys'] });
  });
});

describe('brands', () => {
  it("a reseller's customers see the brand the reseller chose", async () => {
    const reseller = await t.signUp();
    const created = await call('POST', 'reseller/new', reseller.token, {
      companyName: 'Harbor Partners',
      country: 'DE',
    });
    expect(created.statusCode).toBe(201);
    const customer = await t.signUp();
    expect((await call('GET', 'content/brand', customer.token)).json()).toEqual({ brand: null });
    const linked = await call('POST', 'portal/reseller', customer.token, { code: created.json().linkCode });
    expect(linked.statusCode).toBeLessThan(300);
    expect((await call('PUT', 'reseller/brand', reseller.token, { brand: 'harbor' })).json()).toEqual({
      brand: 'harbor',
    });
    expect((await call('GET', 'content/brand', customer.token)).json()).toEqual({ brand: 'harbor' });
    expect((await call('GET', 'reseller', reseller.token)).json().reseller.brand).toBe('harbor');
    // Another portal is untouched; someone without a reseller account cannot choose one.
    expect((await call('GET', 'content/brand', admin.token)).json()).toEqual({ brand: null });
    expect((await call('PUT', 'reseller/brand', admin.token, { brand: 'harbor' })).statusCode).toBe(404);
    expect((await call('PUT', 'reseller/brand', reseller.token, { brand: 'acme' })).statusCode).toBe(400);
  });

  it("mails about a reseller's customer come in the reseller's brand, others in Latchkey's", async () => {
    const reseller = await t.signUp();
    const created = await call('POST', 'reseller/new', reseller.token, {
      companyName: 'Keystone Partners',
      country: 'DE',
    });
    const customer = await t.signUp();
    await call('POST', 'portal/reseller', customer.token, { code: created.json().linkCode });
    await call('PUT', 'reseller/brand', reseller.token, { brand: 'keystone' });
    const rendered = deviceInvitationMail({
      guestName: 'Guest',
      portalName: 'Customer',
      lockName: 'Front door',
      code: '123456',
      when: 'at any time',
      startDate: '2030-01-01',
      endDate: '2030-01-02',
      timeZone: 'Europe/Berlin',
    });
    const mail = (portalId: string | null, to: string) =>
      sendMail(t.app.db, 'system', {
        portalId,
        template: 'brand-check',
        to,
        ...rendered,
        text: rendered.text,
      });
    const branded = await mail(customer.portalId, 'branded@example.com');
    const plain = await mail(admin.portalId, 'plain@example.com');
    const html = async (id: string) =>
      (
        await t.app.db
          .selectFrom('mail_outbox')
          .select('html_body')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).html_body;
    const brandedHtml = await html(branded);
    expect(brandedHtml).toContain('<img src="/brands/keystone-light.png" alt="Keystone Access"');
    expect(brandedHtml).toContain('Sent by Keystone Access.');
    expect(await html(plain)).toContain('Sent by Latchkey.');
    // On its way out, the logo's address is made absolute for the mail client.
    expect(absoluteMailImages(brandedHtml, 'https://portal.example.com/')).toContain(
      'src="https://portal.example.com/brands/keystone-light.png"',
    );
  });

  it("an invoice carries the brand's name above its seller", async () => {
    const now = new Date();
    const answer = await call(
      'GET',
      `portal/billing/${now.getUTCFullYear()}/${now.getUTCMonth() + 1}`,
      admin.token,
    );
    expect(answer.statusCode).toBe(200);
    const text = pdfText(await billPdf(answer.json<Bill>(), BRANDS.harbor));
    if (text === null) return; // pdftotext (poppler-utils) not installed here; CI installs it
    expect(text.trimStart().startsWith('Harbor Locks')).toBe(true);
    const plain = pdfText(await billPdf(answer.json<Bill>()));
    expect(plain?.trimStart().startsWith('Latchkey')).toBe(true);
  });
});

/** The text of a PDF through pdftotext (poppler-utils), or null when it is not installed. */
function pdfText(pdf: Buffer): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-brand-'));
  try {
    const file = path.join(dir, 'bill.pdf');
    fs.writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
