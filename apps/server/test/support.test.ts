import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPortalFlag } from '../src/base/feature-flags/feature-flags';
import { SUPPORT_LIMITS } from '../src/features/support/support.plugin';
import { makeMember, makeOwner, makeStaff } from './factories';
import { multipartBody } from './support-helpers';
import { TestApp } from './test-app';

// Support requests' rules (issue 20, item 4; docs/decisions.md "Support requests"): who sees a
// request and its images, what an upload keeps of a photo, staff answers by mail, the limits.

/** A JPEG as a phone writes it: a camera and a GPS position in its EXIF. */
async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#4a7' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'SecretCam', Model: 'Spy 3000', Copyright: 'Private Person' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '52/1 31/1 1234/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '13/1 24/1 5678/100',
      },
    })
    .toBuffer();
}

describe('support requests', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof makeOwner>>;
  let person: Awaited<ReturnType<typeof makeMember>>;
  let neighbour: Awaited<ReturnType<typeof makeMember>>;
  let otherOwner: Awaited<ReturnType<typeof makeOwner>>;
  let staff: Awaited<ReturnType<typeof makeStaff>>;
  let requestId: string;
  let imageId: string;
  let gpsPhoto: Buffer;

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url: `/api3${url}`, token, ...(payload && { payload }) });

  beforeAll(async () => {
    t = await TestApp.start();
    owner = await makeOwner(t, { portalName: 'Support portal A' });
    person = await makeMember(t, owner.portalId, { firstName: 'Pia' });
    neighbour = await makeMember(t, owner.portalId, { firstName: 'Nora' });
    otherOwner = await makeOwner(t, { portalName: 'Support portal B' });
    staff = await makeStaff(t);
    gpsPhoto = await jpegWithGps();
    const { payload, headers } = multipartBody(
      { type: 'lock', description: 'The lock blinks red', navId: '/user/device/abc' },
      [{ bytes: gpsPhoto, type: 'image/jpeg', name: 'door.jpg' }],
    );
    const filed = await t.request({
      method: 'POST',
      url: '/api3/portal/support',
      token: person.token,
      payload,
      headers,
    });
    expect(filed.statusCode, filed.body).toBe(201);
    requestId = filed.json()._id;
    imageId = filed.json().images[0]._id;
    expect(filed.json()).toMatchObject({
      type: 'lock',
      status: 'open',
      navId: '/user/device/abc',
      imageCount: 1,
    });
  });
  afterAll(() => t.close());

  const imageUrl = (size = 'large') => `/portal/support/${requestId}/images/${imageId}/${size}`;

  it('keeps no EXIF of an uploaded photo: no camera, no GPS position', async () => {
    const before = await sharp(gpsPhoto).metadata();
    expect(before.exif?.includes('SecretCam')).toBe(true);
    expect(
      before.exif?.includes(Buffer.from([0x88, 0x25])) || before.exif?.includes(Buffer.from([0x25, 0x88])),
    ).toBe(true); // the GPS IFD pointer is there before
    for (const size of ['large', 'thumb']) {
      const response = await call(person.token, 'GET', imageUrl(size));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      const bytes = response.rawPayload;
      const after = await sharp(bytes).metadata();
      expect(after.format).toBe('webp');
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(bytes.includes('SecretCam')).toBe(false);
      expect(bytes.includes('Private Person')).toBe(false);
    }
  });

  it('shows a request to its person and its portal admin, not to another basic user of the portal', async () => {
    expect((await call(person.token, 'GET', `/portal/support/${requestId}`)).statusCode).toBe(200);
    const asAdmin = await call(owner.token, 'GET', `/portal/support/${requestId}`);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().requester.name).toBe('Pia');
    expect((await call(owner.token, 'GET', imageUrl('thumb'))).statusCode).toBe(200);

    // Nora, a basic user of the same portal, learns nothing of Pia's request.
    expect((await call(neighbour.token, 'GET', `/portal/support/${requestId}`)).statusCode).toBe(404);
    expect((await call(neighbour.token, 'GET', imageUrl())).statusCode).toBe(404);
    expect((await call(neighbour.token, 'GET', imageUrl('thumb'))).statusCode).toBe(404);
    const reply = await call(neighbour.token, 'POST', `/portal/support/${requestId}/reply`, {
      message: 'Me too',
    });
    expect(reply.statusCode).toBe(404);
    expect((await call(neighbour.token, 'GET', '/portal/support')).json()).toEqual({ items: [], total: 0 });

    // The admin's list holds the portal's requests; the person's list their own.
    expect((await call(owner.token, 'GET', '/portal/support')).json().total).toBe(1);
    expect((await call(owner.token, 'GET', '/portal/support?mine=true')).json().total).toBe(0);
    expect((await call(person.token, 'GET', '/portal/support')).json().items[0]._id).toBe(requestId);
  });

  it("never serves one portal's request or images to another portal, whatever the ids", async () => {
    for (const url of [`/portal/support/${requestId}`, imageUrl(), imageUrl('thumb')]) {
      const response = await call(otherOwner.token, 'GET', url);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('lock blinks');
      // Naming portal A in the override header does not help either.
      const overridden = await t.request({
        method: 'GET',
        url: `/api3${url}`,
        token: otherOwner.token,
        portal: owner.portalId,
      });
      expect(overridden.statusCode).toBe(403);
    }
    // The system routes are platform staff's only.
    expect((await call(owner.token, 'GET', `/system/support/${requestId}`)).statusCode).toBe(403);
    expect(
      (await call(owner.token, 'GET', `/system/support/${requestId}/images/${imageId}/large`)).statusCode,
    ).toBe(403);
    expect((await call(owner.token, 'GET', '/system/support')).statusCode).toBe(403);
  });

  it('lets staff find, take and answer a request; the answer is mailed to the person and shown in the app', async () => {
    const inbox = await call(
      staff.token,
      'GET',
      `/system/support?status=open&type=lock&portalId=${owner.portalId}`,
    );
    expect(inbox.statusCode).toBe(200);
    expect(inbox.json().items.map((r: { _id: string }) => r._id)).toEqual([requestId]);
    expect((await call(staff.token, 'GET', '/system/support?type=billing')).json().total).toBe(0);
    expect(
      (await call(staff.token, 'GET', `/system/support/${requestId}/images/${imageId}/thumb`)).statusCode,
    ).toBe(200);

    const taken = await call(staff.token, 'POST', `/system/support/${requestId}`, {
      assigneeId: staff.userId,
    });
    expect(taken.statusCode).toBe(200);
    expect(taken.json().assignee._id).toBe(staff.userId);
    expect((await call(staff.token, 'GET', '/system/support?assignee=me')).json().total).toBe(1);
    // Only platform staff can be assigned.
    const wrong = await call(staff.token, 'POST', `/system/support/${requestId}`, {
      assigneeId: owner.userId,
    });
    expect(wrong.statusCode).toBe(400);

    const answered = await call(staff.token, 'POST', `/system/support/${requestId}/reply`, {
      message: 'We reset the lock.\nPlease try again.',
    });
    expect(answered.statusCode).toBe(201);
    expect(answered.json().status).toBe('answered');

    const mails = await t.app.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', person.email)
      .where('template', '=', 'support_reply')
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain('We reset the lock.');
    expect(mails[0]!.text_body).toContain(`/app/support/request/${requestId}`);

    const seen = (await call(person.token, 'GET', `/portal/support/${requestId}`)).json();
    expect(seen.status).toBe('answered');
    expect(seen.messages).toEqual([
      expect.objectContaining({ from: 'staff', text: 'We reset the lock.\nPlease try again.' }),
    ]);

    // The person answers back: the request waits for staff again; staff close it; both audited.
    const back = await call(person.token, 'POST', `/portal/support/${requestId}/reply`, {
      message: 'Works now',
    });
    expect(back.json().status).toBe('open');
    const closed = await call(staff.token, 'POST', `/system/support/${requestId}`, { status: 'closed' });
    expect(closed.json().status).toBe('closed');
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', owner.portalId)
      .where('entity_id', '=', requestId)
      .orderBy('created_at')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'support.request.create',
      'support.request.update',
      'support.request.answer',
      'support.request.reply',
      'support.request.update',
    ]);
  });

  it('takes a photo of a few megabytes (past the 1 MiB a JSON body may have)', async () => {
    const noise = crypto.randomBytes(1200 * 900 * 3); // noise: a PNG that does not compress
    const photo = await sharp(noise, { raw: { width: 1200, height: 900, channels: 3 } })
      .png()
      .toBuffer();
    expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
    const response = await t.request({
      method: 'POST',
      url: '/api3/portal/support',
      token: otherOwner.token,
      ...multipartBody({ type: 'other', description: 'Big photo' }, [{ bytes: photo }]),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().images[0]).toMatchObject({ width: 1200, height: 900 });
  });

  it('refuses what is not an image, too many images, and an address outside the app', async () => {
    const post = (body: ReturnType<typeof multipartBody>, token = owner.token) =>
      t.request({ method: 'POST', url: '/api3/portal/support', token, ...body });
    const notImage = await post(
      multipartBody({ type: 'other', description: 'x' }, [
        { bytes: Buffer.from('<svg onload=alert(1)>'), type: 'image/png' },
      ]),
    );
    expect(notImage.statusCode).toBe(415);
    const tiny = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const six = await post(
      multipartBody(
        { type: 'other', description: 'x' },
        Array.from({ length: 6 }, () => ({ bytes: tiny })),
      ),
    );
    expect(six.statusCode).toBe(413);
    const outside = await post(
      multipartBody({ type: 'other', description: 'x', navId: 'https://evil.example/' }),
    );
    expect(outside.statusCode).toBe(400);
    const badType = await post(multipartBody({ type: 'nonsense', description: 'x' }));
    expect(badType.statusCode).toBe(400);
    const wrongField = await post(
      multipartBody({ type: 'other', description: 'x' }, [{ bytes: tiny, field: 'file' }]),
    );
    expect(wrongField.statusCode).toBe(400);
    // Nothing of these was kept.
    expect((await call(owner.token, 'GET', '/portal/support?mine=true')).json().total).toBe(0);
  });

  it("respects the portal's support flag: switched off, nothing is filed or written, what was filed stays readable", async () => {
    await setPortalFlag(t.app.db, owner.portalId, 'support', false, staff.userId);
    try {
      const filed = await call(person.token, 'POST', '/portal/support', {
        type: 'other',
        description: 'Off?',
      });
      expect(filed.statusCode).toBe(403);
      expect(filed.json().error.code).toBe('feature_disabled');
      const reply = await call(person.token, 'POST', `/portal/support/${requestId}/reply`, {
        message: 'Hello?',
      });
      expect(reply.statusCode).toBe(403);
      expect((await call(person.token, 'GET', `/portal/support/${requestId}`)).statusCode).toBe(200);
    } finally {
      await setPortalFlag(t.app.db, owner.portalId, 'support', null, staff.userId);
    }
  });

  it('limits how many requests one person files in an hour', async () => {
    const filer = await makeMember(t, otherOwner.portalId);
    const file = () =>
      call(filer.token, 'POST', '/portal/support', { type: 'other', description: 'Again', navId: '/app' });
    for (let i = 0; i < SUPPORT_LIMITS.requestsPerPerson; i += 1) expect((await file()).statusCode).toBe(201);
    const refused = await file();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await call(filer.token, 'GET', '/portal/support')).json().total).toBe(
      SUPPORT_LIMITS.requestsPerPerson,
    );
  });
});
