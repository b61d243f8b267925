import { z } from 'zod';
import { integerParam, idSchema, lineText, multilineText, searchTextSchema } from './safe-input';

/**
 * Support requests (issue 20, item 4; brief "Support request: type, description, images, navId"):
 * a person files one from the screen they were on, platform staff answer it in their inbox, and the
 * thread (the person, their portal's admins, staff) is shown in the app and staff replies mailed.
 */
export const SUPPORT_TYPES = ['lock', 'access', 'billing', 'account', 'other'] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number];

/** What each type is called on screens and in mails. */
export const SUPPORT_TYPE_LABELS: Record<SupportType, string> = {
  lock: 'Lock problem',
  access: 'Access problem',
  billing: 'Billing',
  account: 'Account',
  other: 'Something else',
};

/** open: waiting for staff; answered: staff replied last; closed: done (a new message reopens it). */
export const SUPPORT_STATUSES = ['open', 'answered', 'closed'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

/** Images one request may carry, and the longest description and message. */
export const SUPPORT_MAX_IMAGES = 5;
export const SUPPORT_TEXT_MAX = 4000;

/**
 * The screen the person was on: an address inside the app (a path, maybe with its query), never
 * another site. Kept as text for staff to open; at most 300 characters.
 */
export const navIdSchema = lineText()
  .max(300)
  // One leading slash, no spaces, no backslash (browsers read `/\\host` as `//host`: another site).
  .regex(/^(\/(?![/\\])[^\s\\]*)?$/, 'must be an address inside the app (starting with one /)');

/** True for text navIdSchema takes: the web app drops anything else it finds in an address. */
export function isAppAddress(value: string): boolean {
  return value.length <= 300 && /^\/(?![/\\])[^\s\\]*$/.test(value);
}

/** POST portal/support: the text fields (as JSON, or as the fields of a multipart form with images). */
export const supportRequestInputSchema = z.object({
  type: z.enum(SUPPORT_TYPES),
  description: multilineText().min(1, 'is required').max(SUPPORT_TEXT_MAX),
  navId: navIdSchema.default(''),
});
export type SupportRequestInput = z.input<typeof supportRequestInputSchema>;

/** POST portal/support/{id}/reply and POST system/support/{id}/reply. */
export const supportReplyInputSchema = z.object({
  message: multilineText().min(1, 'is required').max(SUPPORT_TEXT_MAX),
});
export type SupportReplyInput = z.infer<typeof supportReplyInputSchema>;

/** POST system/support/{id}: assign (to a staff member, or nobody) and/or change the status. */
export const supportUpdateSchema = z
  .object({
    assigneeId: idSchema.nullable().optional(),
    status: z.enum(SUPPORT_STATUSES).optional(),
  })
  .refine((value) => value.assigneeId !== undefined || value.status !== undefined, {
    message: 'name an assignee or a status',
    path: ['status'],
  });
export type SupportUpdate = z.infer<typeof supportUpdateSchema>;

const personRef = z.object({ _id: z.string(), name: z.string() });

export const supportImageSchema = z.object({
  _id: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type SupportImage = z.infer<typeof supportImageSchema>;

/** Who wrote a message: the person who filed the request, an admin of its portal, or platform staff. */
export const SUPPORT_AUTHOR_ROLES = ['requester', 'portal', 'staff'] as const;

export const supportMessageSchema = z.object({
  _id: z.string(),
  from: z.enum(SUPPORT_AUTHOR_ROLES),
  author: personRef,
  text: z.string(),
  createdAt: z.iso.datetime(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

export const supportRequestSchema = z.object({
  _id: z.string(),
  portal: personRef,
  type: z.enum(SUPPORT_TYPES),
  description: z.string(),
  navId: z.string(),
  status: z.enum(SUPPORT_STATUSES),
  requester: personRef.extend({ email: z.string() }),
  assignee: personRef.nullable(),
  imageCount: z.number().int(),
  messageCount: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SupportRequest = z.infer<typeof supportRequestSchema>;

/** One request with its images and its thread, oldest message first. */
export const supportRequestDetailSchema = supportRequestSchema.extend({
  images: z.array(supportImageSchema),
  messages: z.array(supportMessageSchema),
});
export type SupportRequestDetail = z.infer<typeof supportRequestDetailSchema>;

export const supportPageSchema = z.object({
  items: z.array(supportRequestSchema),
  total: z.number().int(),
});
export type SupportPage = z.infer<typeof supportPageSchema>;

const pageFields = {
  skip: integerParam({ min: 0, max: 1_000_000 }).default(0),
  limit: integerParam({ min: 1, max: 100 }).default(25),
  status: z.enum(SUPPORT_STATUSES).optional(),
  type: z.enum(SUPPORT_TYPES).optional(),
};

/** GET portal/support: the newest first; a portal admin may ask for only their own (`mine`). */
export const supportListQuerySchema = z.object({
  ...pageFields,
  mine: z.enum(['true', 'false']).optional(),
});
export type SupportListQuery = z.input<typeof supportListQuerySchema>;

/** GET system/support (staff inbox): filters by status, type, portal, assignee and a search. */
export const supportInboxQuerySchema = z.object({
  ...pageFields,
  portalId: idSchema.optional(),
  /** `me`: assigned to the caller; `none`: to nobody. */
  assignee: z.enum(['me', 'none']).optional(),
  /** Part of the description, the person's name or email, or the portal's name. */
  search: searchTextSchema.optional(),
});
export type SupportInboxQuery = z.input<typeof supportInboxQuerySchema>;
