// VAT on bills: who pays which rate, by the buyer's country and VAT number (docs/decisions.md
// "Commerce and billing"). Rates are basis points (1900 = 19 %), standard rates as of 2025-11.

/** ISO 3166-1 alpha-2 codes of every country (a billing address may be anywhere). */
export const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT ' +
  'BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ' +
  'ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID ' +
  'IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV ' +
  'LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR ' +
  'NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL ' +
  'SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC ' +
  'VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ') as readonly string[];

/**
 * Standard VAT rates of the EU member states, in basis points. Reduced rates do not apply to
 * software subscriptions. Update here when a country changes its rate; closed bills keep theirs.
 */
export const EU_VAT_RATES: Readonly<Record<string, number>> = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  CY: 1900,
  CZ: 2100,
  DE: 1900,
  DK: 2500,
  EE: 2400,
  ES: 2100,
  FI: 2550,
  FR: 2000,
  GR: 2400,
  HR: 2500,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LT: 2100,
  LU: 1700,
  LV: 2100,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SE: 2500,
  SI: 2200,
  SK: 2300,
};

/** Whether a country is an EU member state (inside the EU VAT area). */
export function isEuCountry(country: string): boolean {
  return Object.hasOwn(EU_VAT_RATES, country);
}

/** The prefix of a country's VAT numbers: the country code, except Greece's EL. */
export function vatPrefixOf(country: string): string {
  return country === 'GR' ? 'EL' : country;
}

/**
 * A VAT number as written on invoices: upper case, no spaces, dots or dashes, with its country
 * prefix ("de 123.456.789" → "DE123456789"). Checked for its form only (no VIES lookup: no network
 * at run time); the buyer answers for its validity.
 */
export function normalizeVatNumber(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, '');
}

/** Whether a normalized VAT number has the form of one from `country` (prefix, 2–12 characters). */
export function isVatNumberOf(vatNumber: string, country: string): boolean {
  const prefix = vatPrefixOf(country);
  return vatNumber.startsWith(prefix) && /^[A-Z]{2}[0-9A-Z+*]{2,12}$/.test(vatNumber);
}

/**
 * How VAT applies to a bill:
 * - domestic: the buyer is in the issuer's country: the issuer's rate.
 * - eu_consumer: an EU buyer elsewhere without a VAT number: the buyer's country's rate (OSS).
 * - reverse_charge: an EU business elsewhere with a VAT number: 0 %, the buyer accounts for it.
 * - outside_eu: a buyer outside the EU: no VAT (outside the scope of EU VAT).
 * - not_registered: the issuer is outside the EU VAT area and charges none.
 */
export const VAT_TREATMENTS = [
  'domestic',
  'eu_consumer',
  'reverse_charge',
  'outside_eu',
  'not_registered',
] as const;
export type VatTreatment = (typeof VAT_TREATMENTS)[number];

export interface VatDecision {
  treatment: VatTreatment;
  /** Basis points: 1900 = 19 %. */
  rateBp: number;
  /** The line the bill prints about it. */
  note: string;
}

/**
 * The VAT of a bill from the issuer's country and the buyer's country and VAT number. A buyer
 * without a country is taken to be in the issuer's country (domestic).
 */
export function decideVat(
  issuerCountry: string,
  buyer: { country: string | null; vatNumber: string | null },
): VatDecision {
  if (!isEuCountry(issuerCountry)) {
    return { treatment: 'not_registered', rateBp: 0, note: 'No VAT charged.' };
  }
  const country = buyer.country ?? issuerCountry;
  if (country === issuerCountry) {
    const rateBp = EU_VAT_RATES[issuerCountry]!;
    return { treatment: 'domestic', rateBp, note: `VAT ${formatRate(rateBp)} (${issuerCountry}).` };
  }
  if (!isEuCountry(country)) {
    return {
      treatment: 'outside_eu',
      rateBp: 0,
      note: 'Supply of services outside the EU: no VAT charged (outside the scope of EU VAT).',
    };
  }
  if (buyer.vatNumber) {
    return {
      treatment: 'reverse_charge',
      rateBp: 0,
      note: `Reverse charge: VAT to be accounted for by the recipient (Article 196 of Directive 2006/112/EC). Buyer VAT number ${buyer.vatNumber}.`,
    };
  }
  const rateBp = EU_VAT_RATES[country]!;
  return { treatment: 'eu_consumer', rateBp, note: `VAT ${formatRate(rateBp)} (${country}, One-Stop Shop).` };
}

/** A rate in basis points as people write it: 1900 → "19 %", 2550 → "25.5 %". */
export function formatRate(rateBp: number): string {
  return `${(rateBp / 100).toString()} %`;
}

/** Rounds a non-negative fraction num/den to the nearest whole number, halves up (integer maths). */
export function roundDiv(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** The VAT on a net amount in minor units, rounded once on the bill's total, halves up. */
export function vatOf(netMinor: number, rateBp: number): number {
  return roundDiv(netMinor * rateBp, 10_000);
}
