import { describe, expect, it } from 'vitest';
import { actionText, changedFields, dayBoundary, entityName } from './audit-text';

describe('change log text', () => {
  it('says actions in words', () => {
    expect(actionText('device.create')).toBe('Lock created');
    expect(actionText('member.update')).toBe('Person changed');
    expect(actionText('access_code.set')).toBe('Access code set');
    expect(actionText('group.user.add')).toBe('Person added to a group');
    expect(actionText('group.device.remove')).toBe('Lock taken out of a group');
    expect(actionText('stay.approve')).toBe('Stay approved');
    expect(actionText('listing.ical.sync')).toBe('Calendar feed read');
    // An old entry's action that is no longer recorded is spelled out.
    expect(actionText('access.grant')).toBe('Access granted');
    expect(actionText('widget.frobnicate')).toBe('Widget frobnicate');
    expect(actionText('invite.resend')).toBe('Guest invite sent again');
    expect(actionText('rfid.update')).toBe('Card changed');
    expect(actionText('key.hand_over')).toBe('Key handed over');
    expect(actionText('device.command.unlock')).toBe('Remote unlock sent');
  });

  it('names the record and what changed', () => {
    expect(entityName({ before: null, after: { name: 'Front door' } })).toBe('Front door');
    expect(entityName({ before: { email: 'a@b.c' }, after: null })).toBe('a@b.c');
    expect(entityName({ before: null, after: null })).toBeNull();
    expect(entityName({ before: null, after: { user: 'ben@x.y', device: 'Bike room' } })).toBe(
      'Bike room · ben@x.y',
    );
    // A stay by its guest and listing, a listing by its title, a listing's picture by its listing.
    expect(
      entityName({
        before: null,
        after: { listing: 'Two rooms', guestName: 'Lena Traveller', startDate: 'x' },
      }),
    ).toBe('Lena Traveller · Two rooms');
    expect(entityName({ before: null, after: { title: 'Two rooms', description: 'Quiet' } })).toBe(
      'Two rooms',
    );
    expect(entityName({ before: null, after: { listing: 'Two rooms', imageId: 'i1', alt: 'Sofa' } })).toBe(
      'Two rooms',
    );
    expect(entityName({ before: null, after: { month: '2026-10', invoiceNumber: 'LK-2026-000001' } })).toBe(
      'LK-2026-000001',
    );
    expect(
      changedFields({
        before: { name: 'A', timeZone: 'UTC', n: 1 },
        after: { name: 'B', timeZone: 'UTC', x: 2 },
      }),
    ).toEqual(['n', 'name', 'x']);
    expect(changedFields({ before: null, after: { name: 'B' } })).toEqual([]);
  });

  it('turns a day into the instants that bound it', () => {
    const start = new Date(dayBoundary('2026-11-23', 'start')!);
    const end = new Date(dayBoundary('2026-11-23', 'end')!);
    expect([start.getFullYear(), start.getMonth(), start.getDate(), start.getHours()]).toEqual([
      2026, 10, 23, 0,
    ]);
    expect(end.getTime() - start.getTime()).toBe(24 * 3600 * 1000 - 1);
    expect(dayBoundary('', 'start')).toBeUndefined();
  });
});
