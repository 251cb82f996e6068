/**
 * e-bulk (standard and enhanced checks, barred-list searches per workforce): the same interface
 * as the basic-disclosure provider (applications, receipts, results, signed callbacks).
 */
export type {
  DisclosureApplication as EbulkApplication,
  DisclosureProvider as EbulkProvider,
} from '../dbs-basic/provider.js';
