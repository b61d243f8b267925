import type { Schedule } from '@latchkey/shared';
import type { DeviceInviteRow } from '../../db/schema';

// A guest invite's window, as stored and as the access engine evaluates it. Access reads it to put
// invite codes in each lock's credential set; the invites feature writes it.

/** The guest's window as stored: the API's fields, evaluated as one weekly window with dates. */
export interface InviteWindow {
  days: number[];
  start: string;
  end: string;
  startDate: string;
  endDate: string;
}

export function inviteWindowOf(row: DeviceInviteRow): InviteWindow {
  return JSON.parse(row.schedule_json) as InviteWindow;
}

/** An invite's window as an engine schedule. */
export function inviteSchedule(window: InviteWindow): Schedule {
  return {
    windows: [{ days: window.days, start: window.start, end: window.end }],
    startDate: window.startDate,
    endDate: window.endDate,
  };
}
