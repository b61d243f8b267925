import crypto from 'node:crypto';
import type { SupportStatus, SupportType } from '@latchkey/shared';
import type { Database } from '../db/database';
import { findUserByEmail } from '../base/identity/users.repository';
import { appendAuditEntry } from '../base/audit/audit.repository';
import { storeImage } from '../features/listings/image-processing';
import type { ImageStore } from '../features/listings/image-store';
import { insertImage, insertMessage, insertRequest } from '../features/support/support.repository';

/** A drawn photo of a lock's keypad blinking red (the demo ships no photos): an SVG rendered to PNG. */
async function blinkingLockPicture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480" viewBox="0 0 640 480"><rect width="640" height="480" fill="#d9d2c5"/><rect x="230" y="60" width="180" height="360" rx="24" fill="#2b2f36"/><circle cx="320" cy="120" r="16" fill="#e03131"/><circle cx="320" cy="120" r="30" fill="none" stroke="#ff8787" stroke-width="6"/>${[
    0, 1, 2, 3,
  ]
    .flatMap((row) =>
      [0, 1, 2].map(
        (col) =>
          `<rect x="${254 + col * 46}" y="${180 + row * 52}" width="38" height="40" rx="8" fill="#495057"/>`,
      ),
    )
    .join('')}<rect x="420" y="230" width="120" height="24" rx="12" fill="#adb5bd"/></svg>`;
  // Loaded only when the demo is created: sharp costs about 0.15 s of CPU at every start.
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/**
 * The support demo (issue 20, item 4) in Demo Apartments: Sam's lock problem with a photo, filed
 * from the Main entrance's page and answered by Stella of the support staff; Dana's open billing
 * question; an access problem Sam filed earlier, closed. Without an image store (tests that seed
 * the demo alone) the photo is left out.
 */
export async function seedDemoSupport(
  db: Database,
  accounts: { admin: string; user: string; staff: string },
  images?: ImageStore,
): Promise<void> {
  const [dana, sam, stella] = await Promise.all([
    findUserByEmail(db, accounts.admin),
    findUserByEmail(db, accounts.user),
    findUserByEmail(db, accounts.staff),
  ]);
  if (!dana || !sam || !stella) return;
  const portal = await db
    .selectFrom('portals')
    .select('id')
    .where('owner_user_id', '=', dana.id)
    .executeTakeFirst();
  if (!portal) return;
  const mainEntrance = await db
    .selectFrom('devices')
    .select('id')
    .where('portal_id', '=', portal.id)
    .where('name', '=', 'Main entrance')
    .executeTakeFirst();

  const file = async (request: {
    user: string;
    type: SupportType;
    description: string;
    navId: string;
    status: SupportStatus;
    assignee: string | null;
    filedMinutesAgo: number;
    messages: { author: string; role: 'requester' | 'portal' | 'staff'; text: string; minutesAgo: number }[];
    picture?: Buffer;
  }) => {
    const id = crypto.randomUUID();
    const last = Math.min(request.filedMinutesAgo, ...request.messages.map((m) => m.minutesAgo));
    await insertRequest(db, {
      id,
      portal_id: portal.id,
      user_id: request.user,
      type: request.type,
      description: request.description,
      nav_id: request.navId,
      status: request.status,
      assignee_id: request.assignee,
      created_at: minutesAgo(request.filedMinutesAgo),
      updated_at: minutesAgo(last),
    });
    await appendAuditEntry(db, portal.id, {
      actorUserId: request.user,
      action: 'support.request.create',
      entityType: 'support_request',
      entityId: id,
      after: { type: request.type, navId: request.navId, images: request.picture ? 1 : 0 },
    });
    if (request.picture && images) {
      const imageId = crypto.randomUUID();
      const stored = await storeImage(images, imageId, request.picture);
      await insertImage(db, {
        id: imageId,
        portal_id: portal.id,
        request_id: id,
        width: stored.width,
        height: stored.height,
        bytes: stored.bytes,
        position: 0,
        created_at: minutesAgo(request.filedMinutesAgo),
      });
    }
    for (const message of request.messages) {
      await insertMessage(db, {
        id: crypto.randomUUID(),
        portal_id: portal.id,
        request_id: id,
        author_id: message.author,
        author_role: message.role,
        text: message.text,
        created_at: minutesAgo(message.minutesAgo),
      });
    }
  };

  await file({
    user: sam.id,
    type: 'access',
    description: 'My code stopped working at the bike room on Saturday night.',
    navId: '/user',
    status: 'closed',
    assignee: stella.id,
    filedMinutesAgo: 9 * 24 * 60,
    messages: [
      {
        author: stella.id,
        role: 'staff',
        text: 'Your weekend schedule at the bike room ends at midnight, so the lock refused the code at 00:40. Dana can extend it if you need later hours.',
        minutesAgo: 9 * 24 * 60 - 90,
      },
      { author: sam.id, role: 'requester', text: 'Understood, thanks!', minutesAgo: 9 * 24 * 60 - 120 },
    ],
  });
  await file({
    user: sam.id,
    type: 'lock',
    description:
      'The Main entrance keypad blinks red three times when I enter my code, and the door stays shut. The app button works. Photo attached.',
    navId: mainEntrance ? `/user/locks/${mainEntrance.id}` : '/user',
    status: 'answered',
    assignee: stella.id,
    filedMinutesAgo: 26 * 60,
    picture: await blinkingLockPicture(),
    messages: [
      {
        author: stella.id,
        role: 'staff',
        text: 'Thanks for the photo, Sam. Three red blinks mean the lock has not taken your new code yet: it was offline for a while last night. It synced this morning; please try your code again and tell us if it still blinks.',
        minutesAgo: 20 * 60,
      },
    ],
  });
  await file({
    user: dana.id,
    type: 'billing',
    description:
      'Our invoice for last month lists Flat 1.2 from the 11th; can we get the VAT number of our company on it?',
    navId: '/app/billing',
    status: 'open',
    assignee: null,
    filedMinutesAgo: 3 * 60,
    messages: [],
  });
}
