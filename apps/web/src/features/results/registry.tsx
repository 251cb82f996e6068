/*
 * The web's result-panel registry: ONE entry per activity kind, keyed by the domain's activity
 * type code (ACTIVITY_KINDS in @kestrel/domain, packages/domain/src/activity-kinds.ts). The
 * domain entry says who sees the kind's panel (`audiences`: customer, subject, ops) and whether
 * operations have a form for it (`opsForm`); this file gives the components. Nothing else in the
 * web names a kind to pick its panel, its subject view or its ops form: the case pages
 * (activity-card, ActivityResult), the subject's case page (features/subject/result-slot) and
 * the ops detail page all go through `resultPanelFor` and `opsFormFor`.
 *
 * An entry (KindPanels):
 *   panel    the panel the customer's staff and operations see; it gets `audience` and may show
 *            operations more;
 *   subject  the subject's restricted view: 'same' (the panel itself, rendered with audience
 *            'subject', leaves out what the subject may not see) or a component of its own.
 *            Required when the domain's `audiences` name 'subject', absent otherwise;
 *   opsForm  operations' form under the panel (gets the activity). Required when the domain's
 *            `opsForm` is true, absent otherwise.
 *
 * Adding a kind's panel (the kind's own files plus one line here):
 *   1. write its panel in features/results/<kind>-panel.tsx, a ComponentType<ResultPanelProps>
 *      (panel-kit.tsx has the frame, sections, facts and tables), and its ops form, if any, in
 *      features/results/<kind>-form.tsx, a ComponentType<OpsFormProps>;
 *   2. add its line below, e.g.
 *        'licence-check': { panel: LicenceCheckPanel, subject: 'same', opsForm: DavisEmailForm },
 *   3. delete its code from PENDING_PANELS in registry.test.tsx (the list only shrinks).
 * registry.test.tsx fails when a kind of the domain has no entry and is not pending, when an
 * entry lacks the subject view or ops form the domain says it has (or has one it does not), and
 * when the shared case-page and portal files name a kind.
 */
import {
  type ActivityKindCode,
  hasResultAudience,
  isActivityKindCode,
  type ResultAudience,
} from '@kestrel/domain';
import type { ComponentType } from 'react';
import { AddressHistoryPanel } from './address-history-panel';
import { AdultFirstForm } from './adult-first-form';
import { AdultFirstPanel } from './adult-first-panel';
import { BasicDetailsPanel } from './basic-details-panel';
import { DbsResultPanel } from './dbs-result-panel';
import { DocumentCollectionPanel } from './document-collection-panel';
import { DriverDataPanel } from './driver-data-panel';
import { KnowledgeTestForm } from './knowledge-test-form';
import { KnowledgeTestPanel } from './knowledge-test-panel';
import { DavisEmailForm } from './licence-check-form';
import { LicenceCheckPanel } from './licence-check-panel';
import { IdvApprovalForm } from './online-idv-form';
import { OnlineIdvPanel } from './online-idv-panel';
import type { PanelActivity } from './panel-kit';
import { ProviderConfigForm } from './provider-config-form';
import type { DbsDetails } from './results-api';
import { RtwCheckForm } from './rtw-form';
import { RtwPanel } from './rtw-panel';
import { TrustToRidePanel } from './trust-to-ride-panel';
import { UpdateServicePanel } from './update-service-panel';

/** What every result panel gets. */
export interface ResultPanelProps {
  activity: PanelActivity;
  audience: ResultAudience;
  /** The case's DBS details (the criminal-record kinds' verification); null while there are none. */
  dbsDetails?: DbsDetails | null;
}

/** What an operations form under a panel gets. */
export interface OpsFormProps {
  activity: PanelActivity;
}

export interface KindPanels {
  panel: ComponentType<ResultPanelProps>;
  subject?: 'same' | ComponentType<ResultPanelProps>;
  opsForm?: ComponentType<OpsFormProps>;
}

const DbsEnhancedProviderForm = ({ activity }: OpsFormProps) => (
  <ProviderConfigForm
    activityId={activity.id}
    saved={activity.processing_data?.provider_configuration}
  />
);
const AdultFirstOpsForm = ({ activity }: OpsFormProps) => (
  <AdultFirstForm activityId={activity.id} />
);

/** The panels of each activity kind, by activity type code (one line per kind). */
export const RESULT_PANELS_BY_KIND: { readonly [K in ActivityKindCode]?: KindPanels } = {
  'address-history': { panel: AddressHistoryPanel, subject: 'same' },
  'basic-details': { panel: BasicDetailsPanel, subject: 'same' },
  'document-collection': { panel: DocumentCollectionPanel, subject: 'same' },
  'dbs-basic': { panel: DbsResultPanel, subject: 'same' },
  'dbs-standard': { panel: DbsResultPanel, subject: 'same' },
  'dbs-enhanced': { panel: DbsResultPanel, subject: 'same', opsForm: DbsEnhancedProviderForm },
  'dbs-update': { panel: UpdateServicePanel, subject: 'same' },
  'knowledge-test': { panel: KnowledgeTestPanel, subject: 'same', opsForm: KnowledgeTestForm },
  'trust-to-ride': { panel: TrustToRidePanel, subject: 'same' },
  'licence-check': { panel: LicenceCheckPanel, subject: 'same', opsForm: DavisEmailForm },
  'driver-data': { panel: DriverDataPanel, subject: 'same' },
  'adult-first': { panel: AdultFirstPanel, subject: 'same', opsForm: AdultFirstOpsForm },
  'online-idv': { panel: OnlineIdvPanel, subject: 'same', opsForm: IdvApprovalForm },
  rtw: { panel: RtwPanel, subject: 'same', opsForm: RtwCheckForm },
};

/** The kind's entry, or null for a code without one. */
export function panelsOf(code: string): KindPanels | null {
  return isActivityKindCode(code) ? (RESULT_PANELS_BY_KIND[code] ?? null) : null;
}

/**
 * The panel the audience sees for an activity of this code, or null: the domain says whether
 * the audience sees the kind at all; the subject gets the entry's restricted view.
 */
export function resultPanelFor(
  code: string,
  audience: ResultAudience,
): ComponentType<ResultPanelProps> | null {
  const entry = panelsOf(code);
  if (!entry || !hasResultAudience(code, audience)) return null;
  if (audience !== 'subject') return entry.panel;
  if (entry.subject === undefined) return null;
  return entry.subject === 'same' ? entry.panel : entry.subject;
}

/** Whether the audience sees a result panel for activities of this code. */
export function hasResultPanel(code: string, audience: ResultAudience = 'customer'): boolean {
  return resultPanelFor(code, audience) !== null;
}

/** Operations' form under the kind's panel, or null. */
export function opsFormFor(code: string): ComponentType<OpsFormProps> | null {
  return panelsOf(code)?.opsForm ?? null;
}
