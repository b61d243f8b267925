import { formatCalendarDate, formatRange } from '@latchkey/shared';
import { describe, expect, it } from 'vitest';
import { deviceInvitationMail } from '../src/base/mail/mail.templates';
import { accessReadyMail, requestReceivedMail } from '../src/features/stays/stays.mail';

// Mails write dates and times as the screens do (issue 19, item 4): the shared format, a 24-hour
// clock, a lock's times on the lock's clock with its zone named. The stay page shows the same
// access line (stay-page.test.tsx reads it from the same formatRange call).

const stay = {
  guestName: 'Marco Visitor',
  listingTitle: 'Bright two rooms',
  startDate: '2026-12-17',
  endDate: '2026-12-19',
};

describe('dates and times in mail', () => {
  it("says a stay's access on the locks' clock, with the zone, in the screens' words", () => {
    const mail = accessReadyMail({
      ...stay,
      code: '482916',
      // 15:00 and 11:00 in Rome (UTC+1 in December), whatever zone the server runs in.
      accessFrom: '2026-12-17T14:00:00.000Z',
      accessUntil: '2026-12-19T10:00:00.000Z',
      timeZone: 'Europe/Rome',
      link: 'http://127.0.0.1:3000/stay/x',
      changed: false,
    });
    const line = 'It works Thu, Dec 17, 2026, 15:00 – Sat, Dec 19, 2026, 11:00 Europe/Rome.';
    expect(mail.text).toContain(line);
    expect(mail.html).toContain(line);
    expect(line).toContain(
      formatRange('2026-12-17T14:00:00.000Z', '2026-12-19T10:00:00.000Z', 'Europe/Rome', {
        weekday: true,
        zone: true,
      }),
    );
    expect(mail.text).not.toMatch(/\b[AP]M\b|2026-12-/);
  });

  it('writes the nights of a stay as calendar dates', () => {
    const mail = requestReceivedMail({ ...stay, approved: true });
    expect(mail.text).toContain('from Dec 17, 2026 to Dec 19, 2026 is booked');
    expect(formatCalendarDate(stay.startDate)).toBe('Dec 17, 2026');
  });

  it("writes a guest invitation's hours and days with the lock's zone", () => {
    const mail = deviceInvitationMail({
      guestName: 'Grace Guest',
      portalName: 'Demo Apartments',
      lockName: 'Flat 1.2',
      code: '2580',
      when: 'Mon, Tue 09:00–17:00',
      startDate: '2026-12-17',
      endDate: '2026-12-19',
      timeZone: 'America/New_York',
    });
    expect(mail.text).toContain(
      'It works Mon, Tue 09:00–17:00 America/New_York, from Dec 17, 2026 to Dec 19, 2026.',
    );
  });
});
