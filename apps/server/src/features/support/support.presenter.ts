import type { SupportImage, SupportMessage, SupportRequest, SupportRequestDetail } from '@latchkey/shared';
import type { SupportImageRow } from '../../db/schema';
import { toCount, toIso } from '../../db/mappers';
import type { SupportMessageListRow, SupportRequestListRow } from './support.repository';

const nameOf = (first: string | null, last: string | null) =>
  [first, last].filter(Boolean).join(' ').trim() || 'Someone';

/** A request row (with its names and counts) as the API shows it. */
export function presentRequest(row: SupportRequestListRow): SupportRequest {
  return {
    _id: row.id,
    portal: { _id: row.portal_id, name: row.portal_name },
    type: row.type,
    description: row.description,
    navId: row.nav_id,
    status: row.status,
    requester: {
      _id: row.user_id,
      name: nameOf(row.user_first_name, row.user_last_name),
      email: row.user_email,
    },
    assignee: row.assignee_id
      ? { _id: row.assignee_id, name: nameOf(row.assignee_first_name, row.assignee_last_name) }
      : null,
    imageCount: toCount(row.image_count ?? 0),
    messageCount: toCount(row.message_count ?? 0),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function presentMessage(row: SupportMessageListRow): SupportMessage {
  return {
    _id: row.id,
    from: row.author_role,
    author: {
      _id: row.author_id ?? '',
      // Staff sign as the support team: the person sees who answered for Latchkey, not their account.
      name:
        row.author_role === 'staff'
          ? `${nameOf(row.first_name, null)} (Latchkey support)`
          : nameOf(row.first_name, row.last_name),
    },
    text: row.text,
    createdAt: toIso(row.created_at),
  };
}

export function presentImage(row: SupportImageRow): SupportImage {
  return { _id: row.id, width: row.width, height: row.height };
}

export function presentDetail(
  row: SupportRequestListRow,
  images: SupportImageRow[],
  messages: SupportMessageListRow[],
): SupportRequestDetail {
  return {
    ...presentRequest(row),
    images: images.map(presentImage),
    messages: messages.map(presentMessage),
  };
}
