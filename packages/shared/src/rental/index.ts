export * from './stay-window';
export * from './listings.schemas';
export * from './stays.schemas';
export * from './sharelock.schemas';
export * from './calendar.schemas';
export * from './reviews.schemas';
export * from './rental-center.schemas';
export * from './stay-price';
