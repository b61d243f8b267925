// Feature flags (issue 20, item 1): the registry is packages/shared (FEATURE_FLAGS); a value per
// deployment and per portal lives in the database (migration 0032), a portal's override winning
// over the deployment's, which wins over the registry's default. Any feature asks
// `assertFeatureEnabled(db, portalId, flag)` before it starts something; the values are cached for
// a few seconds per server (a switch reaches other servers within FLAG_CACHE_MS, this one at once).
import { FEATURE_FLAGS, FEATURE_FLAG_IDS, type FeatureFlag, type FeatureFlagState } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { AppError } from '../http/errors';

/** How long a server keeps flag values before reading them again. */
export const FLAG_CACHE_MS = 5_000;

type Values = Partial<Record<FeatureFlag, boolean>>;

interface Cached {
  values: Values;
  at: number;
}

// Keyed by database, so test apps sharing a process never see each other's values.
const deploymentCache = new WeakMap<Database, Cached>();
const portalCache = new WeakMap<Database, Map<string, Cached>>();

const isFlag = (flag: string): flag is FeatureFlag => Object.hasOwn(FEATURE_FLAGS, flag);

function toValues(rows: { flag: string; enabled: number | string }[]): Values {
  const values: Values = {};
  for (const row of rows) if (isFlag(row.flag)) values[row.flag] = Number(row.enabled) === 1;
  return values;
}

async function deploymentValues(db: Database): Promise<Values> {
  const cached = deploymentCache.get(db);
  if (cached && Date.now() - cached.at < FLAG_CACHE_MS) return cached.values;
  const values = toValues(
    await db.selectFrom('deployment_feature_flags').select(['flag', 'enabled']).execute(),
  );
  deploymentCache.set(db, { values, at: Date.now() });
  return values;
}

async function portalValues(db: Database, portalId: string): Promise<Values> {
  let byPortal = portalCache.get(db);
  if (!byPortal) portalCache.set(db, (byPortal = new Map()));
  const cached = byPortal.get(portalId);
  if (cached && Date.now() - cached.at < FLAG_CACHE_MS) return cached.values;
  const values = toValues(
    await db
      .selectFrom('portal_feature_flags')
      .select(['flag', 'enabled'])
      .where('portal_id', '=', portalId)
      .execute(),
  );
  // A bounded cache: a deployment with many portals keeps the recent ones.
  if (byPortal.size > 5_000) byPortal.clear();
  byPortal.set(portalId, { values, at: Date.now() });
  return values;
}

/** Every flag as it stands for a portal (or, with null, for the deployment). */
export async function featureFlagStates(db: Database, portalId: string | null): Promise<FeatureFlagState[]> {
  const [deployment, portal] = await Promise.all([
    deploymentValues(db),
    portalId ? portalValues(db, portalId) : Promise.resolve<Values>({}),
  ]);
  return FEATURE_FLAG_IDS.map((id) => {
    const entry = FEATURE_FLAGS[id];
    const deploymentValue = deployment[id] ?? null;
    const portalValue = portal[id] ?? null;
    const source = portalValue !== null ? 'portal' : deploymentValue !== null ? 'deployment' : 'default';
    return {
      id,
      label: entry.label,
      description: entry.description,
      defaultEnabled: entry.default,
      deployment: deploymentValue,
      portal: portalValue,
      enabled: portalValue ?? deploymentValue ?? entry.default,
      source,
    };
  });
}

/** Whether a feature is on for a portal (its override, else the deployment's value, else the default). */
export async function isFeatureEnabled(
  db: Database,
  portalId: string | null,
  flag: FeatureFlag,
): Promise<boolean> {
  const portal = portalId ? (await portalValues(db, portalId))[flag] : undefined;
  if (portal !== undefined) return portal;
  return (await deploymentValues(db))[flag] ?? FEATURE_FLAGS[flag].default;
}

/** A 403 `feature_disabled` unless the feature is on for the portal: call it before starting something. */
export async function assertFeatureEnabled(
  db: Database,
  portalId: string | null,
  flag: FeatureFlag,
): Promise<void> {
  if (await isFeatureEnabled(db, portalId, flag)) return;
  throw new AppError(
    'feature_disabled',
    `${FEATURE_FLAGS[flag].label} is switched off${portalId ? ' for this portal' : ''}. Platform staff can switch it on again.`,
    403,
  );
}

/** Sets (or, with null, drops) the deployment's value of a flag. */
export async function setDeploymentFlag(
  db: Database,
  flag: FeatureFlag,
  enabled: boolean | null,
  actorUserId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('deployment_feature_flags').where('flag', '=', flag).execute();
    if (enabled === null) return;
    await trx
      .insertInto('deployment_feature_flags')
      .values({ flag, enabled: enabled ? 1 : 0, updated_by: actorUserId, updated_at: nowIso() })
      .execute();
  });
  deploymentCache.delete(db);
}

/** Sets (or, with null, drops) a portal's override of a flag. */
export async function setPortalFlag(
  db: Database,
  portalId: string,
  flag: FeatureFlag,
  enabled: boolean | null,
  actorUserId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('portal_feature_flags')
      .where('portal_id', '=', portalId)
      .where('flag', '=', flag)
      .execute();
    if (enabled === null) return;
    await trx
      .insertInto('portal_feature_flags')
      .values({
        portal_id: portalId,
        flag,
        enabled: enabled ? 1 : 0,
        updated_by: actorUserId,
        updated_at: nowIso(),
      })
      .execute();
  });
  portalCache.get(db)?.delete(portalId);
}
