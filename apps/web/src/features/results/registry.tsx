import type { ComponentType } from 'react';
import { AdultFirstPanel } from './adult-first-panel';
import { type DbsPanelProps, DbsResultPanel } from './dbs-result-panel';
import { UpdateServicePanel } from './update-service-panel';

/** The result panel of each activity kind this feature shows, by activity type code. */
export const RESULT_PANEL_REGISTRY: Readonly<Record<string, ComponentType<DbsPanelProps>>> = {
  'dbs-basic': DbsResultPanel,
  'dbs-standard': DbsResultPanel,
  'dbs-enhanced': DbsResultPanel,
  'dbs-update': UpdateServicePanel,
  'adult-first': AdultFirstPanel,
};

export function hasResultPanel(code: string): boolean {
  return Object.hasOwn(RESULT_PANEL_REGISTRY, code);
}
