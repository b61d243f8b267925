export * from './constants';
export * from './errors';
export * from './list-query';
export * from './roles';
export * from './seal';
export * from './auth.schemas';
export * from './portal.schemas';
export * from './access';
