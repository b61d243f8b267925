import { readerEnrollmentCollection } from './reader-enrollments';

/** `fingerPrintPeriph`: fingerprint enrollments on the portal's readers (reader-enrollments.ts). */
export const fingerPrintPeriphCollection = readerEnrollmentCollection('fingerPrintPeriph', 'fingerprint');
