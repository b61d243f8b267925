import { z } from 'zod';
import { dateInput, idSchema } from './safe-input';
import { zoneFilterParam } from './zones.schemas';

/**
 * Reports (brief `POST portal/report`, screen `deviceanduserreports`; issue 20 item 5): an admin
 * picks a report, a period and filters, and gets it as JSON for the screen, CSV or PDF; a report can
 * be mailed weekly or monthly. Every report is a table (columns + rows) so the screen, the CSV and
 * the PDF write the same thing; the entries report adds per-lock and per-person summaries.
 */

/** entries: who opened what, when and how, and the refusals; access: who can open each lock now;
 * health: battery, time offline, credential sync failures; people: without access or with expired
 * credentials. */
export const REPORT_KINDS = ['entries', 'access', 'health', 'people'] as const;
export const reportKindSchema = z.enum(REPORT_KINDS);
export type ReportKind = z.infer<typeof reportKindSchema>;

/** What each report is called, on the screen, in the PDF and in the mail. */
export const REPORT_TITLES: Record<ReportKind, string> = {
  entries: 'Entries per lock and person',
  access: 'Access matrix: who can open each lock now',
  health: 'Lock health',
  people: 'People without access or with expired credentials',
};

/** Periods by name, read on the portal's clock: weeks run Monday to Sunday. */
export const PERIOD_PRESETS = [
  'last-week',
  'this-week',
  'last-month',
  'this-month',
  'last-7-days',
  'last-30-days',
] as const;
export const periodPresetSchema = z.enum(PERIOD_PRESETS);
export type PeriodPreset = z.infer<typeof periodPresetSchema>;

export const PERIOD_PRESET_LABELS: Record<PeriodPreset, string> = {
  'last-week': 'Last week',
  'this-week': 'This week',
  'last-month': 'Last month',
  'this-month': 'This month',
  'last-7-days': 'Last 7 days',
  'last-30-days': 'Last 30 days',
};

/** The longest period a report covers (from and to included). */
export const REPORT_MAX_DAYS = 366;

/** A named period, or calendar dates from and to (both included), on the portal's clock. */
export const reportPeriodSchema = z.union([
  z.strictObject({ preset: periodPresetSchema }),
  z
    .strictObject({ from: dateInput(), to: dateInput() })
    .refine((period) => period.from <= period.to, { message: 'must not end before it starts', path: ['to'] })
    .refine((period) => Date.parse(period.to) - Date.parse(period.from) < REPORT_MAX_DAYS * 86_400_000, {
      message: `must be at most ${REPORT_MAX_DAYS} days`,
      path: ['to'],
    }),
]);
export type ReportPeriod = z.infer<typeof reportPeriodSchema>;

/**
 * Narrowing by locks, groups and people (all of the portal). A group adds its locks to the locks and
 * its people to the people; a row must match both lists where each is given. Ids of another portal
 * or of nothing are refused (404) before anything is read.
 */
export const reportFiltersSchema = z.strictObject({
  deviceIds: z.array(idSchema).max(100).default([]),
  groupIds: z.array(idSchema).max(50).default([]),
  userIds: z.array(idSchema).max(100).default([]),
  /** Only the locks of this zone and its sub-zones ('none': the locks in no zone; features/zones). */
  zoneId: zoneFilterParam.optional(),
});
export type ReportFilters = z.output<typeof reportFiltersSchema>;

export const REPORT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** POST portal/report. JSON answers one page of rows (skip, limit); CSV and PDF the whole report. */
export const reportRequestSchema = z.strictObject({
  kind: reportKindSchema,
  period: reportPeriodSchema.default({ preset: 'last-week' }),
  filters: reportFiltersSchema.default({ deviceIds: [], groupIds: [], userIds: [] }),
  format: z.enum(REPORT_FORMATS).default('json'),
  skip: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(200).default(50),
});
export type ReportRequest = z.input<typeof reportRequestSchema>;
export type ReportRequestParsed = z.output<typeof reportRequestSchema>;

const cellSchema = z.union([z.string(), z.number(), z.null()]);
export const reportColumnSchema = z.object({ key: z.string(), label: z.string() });
export type ReportColumn = z.infer<typeof reportColumnSchema>;
export type ReportCell = z.infer<typeof cellSchema>;
export type ReportRow = Record<string, ReportCell>;

/** A small table beside the main one (the entries per lock, per person). */
export const reportTableSchema = z.object({
  title: z.string(),
  columns: z.array(reportColumnSchema),
  rows: z.array(z.record(z.string(), cellSchema)),
});
export type ReportTable = z.infer<typeof reportTableSchema>;

const namedSchema = z.object({ _id: z.string(), name: z.string() });

/** A report as the screen shows it: what it covers, then one page of its rows. */
export const reportSchema = z.object({
  kind: reportKindSchema,
  title: z.string(),
  portal: namedSchema,
  period: z.object({
    /** Calendar dates, both included, on the portal's clock. */
    from: z.string(),
    to: z.string(),
    /** The portal's zone, which the period is read in. */
    timeZone: z.string(),
    /** "Nov 16, 2026 – Nov 22, 2026". */
    label: z.string(),
  }),
  /** The zones the rows' times are written in: each lock's own. */
  zones: z.array(z.string()),
  filters: z.object({
    locks: z.array(namedSchema),
    groups: z.array(namedSchema),
    people: z.array(namedSchema),
  }),
  /** What the figures were made from, where a reader could assume more (time offline). */
  notes: z.array(z.string()),
  columns: z.array(reportColumnSchema),
  rows: z.array(z.record(z.string(), cellSchema)),
  total: z.number(),
  skip: z.number(),
  limit: z.number(),
  summaries: z.array(reportTableSchema),
  charts: z.object({
    /** Entries per day of the period (entries report), on the portal's clock. */
    entriesPerDay: z.array(z.object({ day: z.string(), opened: z.number(), denied: z.number() })),
    /** Credential sync failures per lock (health report). */
    syncFailuresPerLock: z.array(z.object({ lock: z.string(), failures: z.number() })),
  }),
});
export type Report = z.infer<typeof reportSchema>;

/** Scheduled reports: mailed after each week (Monday to Sunday) or month, on the portal's clock. */
export const REPORT_FREQUENCIES = ['weekly', 'monthly'] as const;
/** The most scheduled reports a portal keeps (each is built and mailed every period). */
export const REPORT_SCHEDULES_PER_PORTAL = 20;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

/**
 * POST portal/report/schedules: recipients are the portal's admins (their addresses are confirmed
 * accounts); none named means the admin who schedules it.
 */
export const reportScheduleInputSchema = z.strictObject({
  kind: reportKindSchema,
  frequency: z.enum(REPORT_FREQUENCIES),
  filters: reportFiltersSchema.default({ deviceIds: [], groupIds: [], userIds: [] }),
  recipientIds: z.array(idSchema).max(20).default([]),
});
export type ReportScheduleInput = z.input<typeof reportScheduleInputSchema>;

export const reportScheduleSchema = z.object({
  _id: z.string(),
  kind: reportKindSchema,
  frequency: z.enum(REPORT_FREQUENCIES),
  filters: z.object({
    locks: z.array(namedSchema),
    groups: z.array(namedSchema),
    people: z.array(namedSchema),
  }),
  recipients: z.array(z.object({ _id: z.string(), name: z.string(), email: z.string() })),
  /** The last period mailed ("2026-W47", "2026-11"), null before the first. */
  lastPeriod: z.string().nullable(),
  lastSentAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;
export const reportScheduleListSchema = z.object({ items: z.array(reportScheduleSchema) });
