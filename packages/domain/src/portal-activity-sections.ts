/** Portal sections in the case portal's order (spec point 2), without Welcome/Review/Done. */
export const PORTAL_ACTIVITY_SECTIONS = [
  'online-idv',
  'basic-details',
  'address-history',
  'document-collection',
  'dbs-enhanced',
  'dbs-standard',
  'dbs-basic',
  'dbs-update',
  'driver-data',
  'rtw',
] as const;
export type PortalActivitySection = (typeof PORTAL_ACTIVITY_SECTIONS)[number];
