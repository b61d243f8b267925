import { readerEnrollmentCollection } from './reader-enrollments';

/** `rfidPeriph`: card enrollments on the portal's readers (reader-enrollments.ts). */
export const rfidPeriphCollection = readerEnrollmentCollection('rfidPeriph', 'rfid');
