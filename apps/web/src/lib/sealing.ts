/**
 * What sealing a request body needs (brief §7): NaCl box and the server key's schema. The API
 * client imports this module on demand, so tweetnacl is not part of any page's first load.
 */
export { decodeBase64, newBoxKeyPair, sealKeyResponseSchema, sealPayload } from '@latchkey/shared';
