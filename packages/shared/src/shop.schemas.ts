import { z } from 'zod';
import { listQuerySchema, pageSchema } from './list-query';
import { idSchema, lineText } from './safe-input';

// The hardware shop (issue 13 item 4): products with prices and stock, the cart (web lib/cart.ts),
// the address, shipping, and orders paid through the payment provider. Prices always come from the
// server: the client sends product ids and quantities, never an amount.

export const PRODUCT_KINDS = ['lock', 'keypad', 'card', 'fob', 'reader', 'bridge'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

/** A product of the catalogue as the shop shows it. */
export const productSchema = z.object({
  _id: z.string(),
  sku: z.string(),
  name: z.string(),
  kind: z.enum(PRODUCT_KINDS),
  summary: z.string(),
  description: z.string(),
  /** Path of its picture, served with the web app. */
  image: z.string(),
  /** Gross unit price (VAT included) in minor units of `currency`. */
  price: z.number().int(),
  currency: z.string(),
  /** Units that can be bought now (on hand less those held by unpaid checkouts). */
  available: z.number().int(),
  /** Items in one unit (a pack of 10 cards). */
  packSize: z.number().int(),
  /** A lock bought while acting in a portal appears there as "not yet connected". */
  preRegisters: z.boolean(),
});
export type Product = z.infer<typeof productSchema>;

export const productListSchema = z.array(productSchema);

/**
 * What one buyer may hold at once in unpaid checkouts (issue 16): a signed-in person and everyone
 * ordering from one address are each held to these, counted over all their open checkouts. More
 * can be ordered once a checkout is paid, canceled or has ended (docs/decisions.md "Stock holds a
 * buyer cannot hoard").
 */
export const SHOP_HOLD_LIMITS = {
  /** Units of one product. */
  unitsPerProduct: 10,
  /** Units of all products together. */
  units: 40,
  /** Unpaid checkouts open at once. */
  openCheckouts: 3,
} as const;

/** Most of one product in one order (no more can be held at once), and most lines per order. */
export const MAX_LINE_QUANTITY = SHOP_HOLD_LIMITS.unitsPerProduct;
export const MAX_ORDER_LINES = 20;

/** One line of a cart as the client sends it: which product, how many. Never a price. */
export const cartLineSchema = z.object({
  productId: idSchema,
  quantity: z.number().int().min(1, 'must be at least 1').max(MAX_LINE_QUANTITY),
});
export type CartLine = z.infer<typeof cartLineSchema>;

const cartLinesSchema = z
  .array(cartLineSchema)
  .min(1, 'The cart is empty')
  .max(MAX_ORDER_LINES)
  .refine(
    (lines) => new Set(lines.map((line) => line.productId)).size === lines.length,
    'names a product twice',
  );

/** Countries the shop ships to, with what their addresses need. */
export const SHIPPING_COUNTRIES = {
  DE: { name: 'Germany', zone: 'domestic', postalCode: /^\d{5}$/, postalExample: '10115' },
  AT: { name: 'Austria', zone: 'eu', postalCode: /^\d{4}$/, postalExample: '1010' },
  BE: { name: 'Belgium', zone: 'eu', postalCode: /^\d{4}$/, postalExample: '1000' },
  DK: { name: 'Denmark', zone: 'eu', postalCode: /^\d{4}$/, postalExample: '1050' },
  ES: { name: 'Spain', zone: 'eu', postalCode: /^\d{5}$/, postalExample: '28001' },
  FR: { name: 'France', zone: 'eu', postalCode: /^\d{5}$/, postalExample: '75001' },
  IE: {
    name: 'Ireland',
    zone: 'eu',
    postalCode: /^[AC-FHKNPRTV-Y]\d[\dW] ?[\dAC-FHKNPRTV-Y]{4}$/,
    postalExample: 'D02 X285',
  },
  IT: { name: 'Italy', zone: 'eu', postalCode: /^\d{5}$/, postalExample: '00184' },
  NL: { name: 'Netherlands', zone: 'eu', postalCode: /^\d{4} ?[A-Z]{2}$/, postalExample: '1012 AB' },
  PL: { name: 'Poland', zone: 'eu', postalCode: /^\d{2}-\d{3}$/, postalExample: '00-950' },
  PT: { name: 'Portugal', zone: 'eu', postalCode: /^\d{4}-\d{3}$/, postalExample: '1100-148' },
  SE: { name: 'Sweden', zone: 'eu', postalCode: /^\d{3} ?\d{2}$/, postalExample: '111 22' },
  CH: { name: 'Switzerland', zone: 'world', postalCode: /^\d{4}$/, postalExample: '8001' },
  GB: {
    name: 'United Kingdom',
    zone: 'world',
    postalCode: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/,
    postalExample: 'SW1A 1AA',
  },
  US: { name: 'United States', zone: 'world', postalCode: /^\d{5}(-\d{4})?$/, postalExample: '10001' },
  CA: { name: 'Canada', zone: 'world', postalCode: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/, postalExample: 'K1A 0B1' },
} as const satisfies Record<
  string,
  { name: string; zone: ShippingZone; postalCode: RegExp; postalExample: string }
>;
export type ShippingCountry = keyof typeof SHIPPING_COUNTRIES;
export const SHIPPING_COUNTRY_CODES = Object.keys(SHIPPING_COUNTRIES) as [
  ShippingCountry,
  ...ShippingCountry[],
];

/** States and provinces, for the countries whose addresses need one. */
export const REGIONS: Partial<Record<ShippingCountry, readonly string[]>> = {
  US: [
    'AL',
    'AK',
    'AZ',
    'AR',
    'CA',
    'CO',
    'CT',
    'DE',
    'DC',
    'FL',
    'GA',
    'HI',
    'ID',
    'IL',
    'IN',
    'IA',
    'KS',
    'KY',
    'LA',
    'ME',
    'MD',
    'MA',
    'MI',
    'MN',
    'MS',
    'MO',
    'MT',
    'NE',
    'NV',
    'NH',
    'NJ',
    'NM',
    'NY',
    'NC',
    'ND',
    'OH',
    'OK',
    'OR',
    'PA',
    'RI',
    'SC',
    'SD',
    'TN',
    'TX',
    'UT',
    'VT',
    'VA',
    'WA',
    'WV',
    'WI',
    'WY',
  ],
  CA: ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT'],
};

export type ShippingZone = 'domestic' | 'eu' | 'world';

/** Postal codes as people type them: upper case, single spaces. */
export function normalizePostalCode(value: string): string {
  return value.trim().toUpperCase().replace(/\s+/g, ' ');
}

/** The delivery address, checked against its country's postal code and region rules. */
export const addressSchema = z
  .object({
    name: lineText().min(1, 'is required').max(100),
    company: lineText().max(100).default(''),
    line1: lineText().min(1, 'is required').max(100),
    line2: lineText().max(100).default(''),
    postalCode: lineText().min(1, 'is required').max(12).overwrite(normalizePostalCode),
    city: lineText().min(1, 'is required').max(80),
    region: lineText()
      .max(40)
      .default('')
      .overwrite((value) => value.toUpperCase()),
    country: z.enum(SHIPPING_COUNTRY_CODES, 'is not a country we ship to'),
    phone: lineText()
      .max(30)
      .regex(/^$|^\+?[\d ()./-]{6,30}$/, 'must be a phone number')
      .default(''),
  })
  .superRefine((address, context) => {
    const country = SHIPPING_COUNTRIES[address.country];
    if (!country.postalCode.test(address.postalCode)) {
      context.addIssue({
        code: 'custom',
        path: ['postalCode'],
        message: `must be a ${country.name} postal code, such as ${country.postalExample}`,
      });
    }
    const regions = REGIONS[address.country];
    if (regions && !regions.includes(address.region)) {
      context.addIssue({
        code: 'custom',
        path: ['region'],
        message: `must be a ${address.country === 'US' ? 'state' : 'province'} code, such as ${regions[4]}`,
      });
    }
  });
export type Address = z.output<typeof addressSchema>;
export type AddressInput = z.input<typeof addressSchema>;

export const SHIPPING_OPTION_IDS = ['standard', 'express', 'pickup'] as const;
export type ShippingOptionId = (typeof SHIPPING_OPTION_IDS)[number];

/** Shipping from the warehouse in Berlin: price (gross, minor units) and days by zone; null: not offered. */
export const SHIPPING_RATES: Record<
  ShippingOptionId,
  { name: string; rates: Record<ShippingZone, { price: number; minDays: number; maxDays: number } | null> }
> = {
  standard: {
    name: 'Standard delivery',
    rates: {
      domestic: { price: 490, minDays: 2, maxDays: 3 },
      eu: { price: 990, minDays: 3, maxDays: 6 },
      world: { price: 1990, minDays: 5, maxDays: 10 },
    },
  },
  express: {
    name: 'Express delivery',
    rates: {
      domestic: { price: 1290, minDays: 1, maxDays: 1 },
      eu: { price: 2490, minDays: 1, maxDays: 2 },
      world: { price: 3990, minDays: 2, maxDays: 4 },
    },
  },
  pickup: {
    name: 'Pick up in Berlin',
    rates: { domestic: { price: 0, minDays: 1, maxDays: 1 }, eu: null, world: null },
  },
};

/** A way to ship to a country, with its price and delivery estimate. */
export const shippingOptionSchema = z.object({
  id: z.enum(SHIPPING_OPTION_IDS),
  name: z.string(),
  price: z.number().int(),
  currency: z.string(),
  minDays: z.number().int(),
  maxDays: z.number().int(),
});
export type ShippingOption = z.infer<typeof shippingOptionSchema>;

/** The shipping options for a country, cheapest first. */
export function shippingOptionsFor(country: ShippingCountry, currency: string): ShippingOption[] {
  const zone = SHIPPING_COUNTRIES[country].zone;
  return SHIPPING_OPTION_IDS.flatMap((id) => {
    const rate = SHIPPING_RATES[id].rates[zone];
    return rate ? [{ id, name: SHIPPING_RATES[id].name, currency, ...rate }] : [];
  }).sort((a, b) => a.price - b.price);
}

/** POST shop/quote: the cart priced by the server, with shipping options once a country is known. */
export const quoteInputSchema = z.object({
  items: cartLinesSchema,
  country: z.enum(SHIPPING_COUNTRY_CODES, 'is not a country we ship to').optional(),
  shippingOption: z.enum(SHIPPING_OPTION_IDS).optional(),
});
export type QuoteInput = z.input<typeof quoteInputSchema>;

/** A priced line: the server's unit price times the quantity. */
export const orderLineSchema = z.object({
  productId: z.string(),
  sku: z.string(),
  name: z.string(),
  image: z.string(),
  unitPrice: z.number().int(),
  quantity: z.number().int(),
  lineTotal: z.number().int(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const quoteSchema = z.object({
  lines: z.array(
    orderLineSchema.extend({
      /** Units that can be bought now; fewer than the quantity: the line cannot be ordered. */
      available: z.number().int(),
    }),
  ),
  /** Cart entries naming no product on sale (dropped from the cart by the client). */
  unknownProductIds: z.array(z.string()),
  subtotal: z.number().int(),
  currency: z.string(),
  /** For the country asked about; empty without one. */
  shippingOptions: z.array(shippingOptionSchema),
  /** The chosen option's price, when one was chosen and is offered. */
  shipping: z.number().int().nullable(),
  total: z.number().int(),
});
export type Quote = z.infer<typeof quoteSchema>;

/** POST stripe/order: the order from the server's own prices, then the provider's checkout. */
export const orderInputSchema = z.object({
  items: cartLinesSchema,
  email: z
    .email('must be an email address')
    .max(254)
    .transform((email) => email.trim().toLowerCase()),
  address: addressSchema,
  shippingOption: z.enum(SHIPPING_OPTION_IDS),
  /**
   * The buyer means to buy again what this email paid for in the last day (exactly the same items):
   * without it, such an order is refused with 409 `already_paid` (a cart paid twice by mistake).
   */
  again: z.boolean().optional(),
});
export type OrderInput = z.input<typeof orderInputSchema>;

/** How far back an order of exactly the same items by the same email counts as the same cart. */
export const REPEAT_ORDER_WINDOW_HOURS = 24;

export const orderCreatedSchema = z.object({
  orderRef: z.string(),
  checkoutId: z.string(),
  /** The token that lets this browser read the checkout's outcome (success and canceled pages). */
  token: z.string(),
  /** The provider's hosted checkout page. */
  url: z.string(),
});
export type OrderCreated = z.infer<typeof orderCreatedSchema>;

export const ORDER_STATUSES = ['pending', 'paid', 'canceled', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An order as its buyer and platform staff see it. */
export const orderViewSchema = z.object({
  _id: z.string(),
  ref: z.string(),
  status: z.enum(ORDER_STATUSES),
  email: z.string(),
  address: z.object({
    name: z.string(),
    company: z.string(),
    line1: z.string(),
    line2: z.string(),
    postalCode: z.string(),
    city: z.string(),
    region: z.string(),
    country: z.string(),
    phone: z.string(),
  }),
  shipping: shippingOptionSchema,
  lines: z.array(orderLineSchema),
  subtotal: z.number().int(),
  total: z.number().int(),
  currency: z.string(),
  /** The portal its locks were pre-registered in (when bought while acting in one). */
  portal: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** Locks made in that portal, "not yet connected" until they first report. */
  preRegisteredLocks: z.number().int(),
  createdAt: z.iso.datetime(),
  paidAt: z.iso.datetime().nullable(),
  /**
   * While it awaits payment: until when its units are held for it (then it lapses and they go back
   * on sale). Null once paid, canceled or lapsed.
   */
  holdUntil: z.iso.datetime().nullable(),
});
export type OrderView = z.infer<typeof orderViewSchema>;

export const orderListSchema = z.array(orderViewSchema);

/** GET system/orders: every order, for platform staff. */
export const staffOrdersQuerySchema = listQuerySchema({
  sortBy: ['createdAt', 'total', 'ref'],
  filterBy: ['status'],
});
export type StaffOrdersQuery = z.output<typeof staffOrdersQuerySchema>;
export const staffOrdersPageSchema = pageSchema(orderViewSchema);

/** An order reference as printed on mail and screens: LK- and eight letters or digits. */
export const orderRefSchema = z.string().regex(/^LK-[A-Z0-9]{8}$/, 'is not an order reference');

/** GET product/{id}: one product by its id (a readable slug). */
export const productParamsSchema = z.object({ id: idSchema });

/** POST system/inventory/{id}: platform staff set the units on hand after a delivery or a count. */
export const stockAdjustmentSchema = z.object({
  onHand: z.number().int().min(0).max(1_000_000),
  reason: lineText().min(1, 'is required').max(200),
});
export type StockAdjustment = z.infer<typeof stockAdjustmentSchema>;

/** A product with its stock as platform staff manage it. */
export const inventoryItemSchema = z.object({
  _id: z.string(),
  sku: z.string(),
  name: z.string(),
  onHand: z.number().int(),
  reserved: z.number().int(),
  available: z.number().int(),
});
export type InventoryItem = z.infer<typeof inventoryItemSchema>;
export const inventoryListSchema = z.array(inventoryItemSchema);
