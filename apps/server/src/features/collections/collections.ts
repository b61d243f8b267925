import { accessRequestCollection } from './access-request.collection';
import { aithreadCollection } from './aithread.collection';
import { crudDevicesCollection } from './crud-devices.collection';
import { deviceCollection } from './device.collection';
import { fingerPrintCollection } from './finger-print.collection';
import { fingerPrintPeriphCollection } from './finger-print-periph.collection';
import { historyCollection } from './history.collection';
import { listingCollection } from './listing.collection';
import { listingCategoryCollection } from './listing-category.collection';
import { lockoutCollection } from './lockout.collection';
import { peripheralCollection } from './peripheral.collection';
import { rfidCollection } from './rfid.collection';
import { rfidPeriphCollection } from './rfid-periph.collection';
import { userGroupCollection } from './user-group.collection';
import { userPortalCollection } from './user-portal.collection';
import { userPeriphCollection } from './user-periph.collection';
import { lockInviteCollection } from './lock-invite.collection';
import { syncUserCollection } from './sync-user.collection';
import { zoneCollection } from './zone.collection';
import { reviewsCollection } from './reviews.collection';
import { listingAccessListCollection } from './listing-access-list.collection';
import { listingUserCollection } from './listing-user.collection';
import { calendarEventCollection } from './calendar-event.collection';
import { userImagesCollection } from './user-images.collection';
import { orderViewCollection } from './order-view.collection';
import { orderRefCollection } from './order-ref.collection';
import { productCollection } from './product.collection';
import { pricesCollection } from './prices.collection';
import { infoCollection } from './info.collection';
import { navCollection } from './nav.collection';
import { apikeysCollection } from './apikeys.collection';
import { errorCollection } from './error.collection';
import { inventoryCollection } from './inventory.collection';
import { resellerCollection } from './reseller.collection';
import type { AnyCollection } from './registry';

/**
 * Every registered collection (registry.ts says how to add one): one line each. Their routes are
 * made by collections.routes.ts; the specs and the isolation test walk this list.
 */
export const COLLECTIONS: readonly AnyCollection[] = [
  // features/devices, features/device-link
  deviceCollection,
  crudDevicesCollection,
  historyCollection,
  lockoutCollection,
  userGroupCollection,
  rfidCollection,
  fingerPrintCollection,
  userPortalCollection,
  lockInviteCollection,
  syncUserCollection,
  // features/access-requests (issue 21)
  accessRequestCollection,
  // features/support: a support request's thread (issue 21)
  aithreadCollection,
  // features/zones (issue 21, item 4)
  zoneCollection,
  // features/listings, reviews, content, shop (issue 21, item 3)
  listingCollection,
  listingCategoryCollection,
  // features/readers (issue 21, items 3 and 5)
  peripheralCollection,
  rfidPeriphCollection,
  fingerPrintPeriphCollection,
  userPeriphCollection,
  // features/listings, reviews, stays (issue 21, item 3)
  reviewsCollection,
  listingAccessListCollection,
  listingUserCollection,
  calendarEventCollection,
  userImagesCollection,
  // features/shop, subscriptions, resellers, content (issue 21, item 3)
  orderViewCollection,
  orderRefCollection,
  productCollection,
  pricesCollection,
  infoCollection,
  navCollection,
  // features/api-keys (issue 21, item 3): admins signed in as themselves; no API key
  apikeysCollection,
  // Platform collections (issue 21, item 3): the deployment's records, for platform staff alone
  errorCollection,
  inventoryCollection,
  // Account collections (issue 21, item 3): the signed-in person's own account's records, in no portal
  resellerCollection,
];
