import {
  ACTIVITY_KINDS,
  initialProcessingData,
  type ProcessingData,
  withEvent,
} from '@kestrel/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ManualClock } from '../../../platform/clock.js';
import type { DemoSeedContext } from '../../../platform/module.js';
import type { DisclosureApplication } from '../../../providers/dbs-basic/provider.js';
import { stageSchedule } from '../../../providers/dbs-basic/simulator.js';
import { caseActivities } from '../../activities/activities.table.js';
import { activityTypes } from '../../bootstrap/bootstrap.table.js';
import {
  createCaseBasicDetails,
  createCaseBirthDetails,
} from '../../case-data/case-data.factories.js';
import { caseBasicDetails, caseBirthDetails } from '../../case-data/case-data.table.js';
import { cases } from '../../cases/cases.table.js';
import { subjects } from '../../subjects/subjects.table.js';
import { applicantResult, enhancedBarredLists, mapApplicationUpdate } from './kind.js';
import { dbsBasicProvider, ebulkProvider } from './providers.js';

const LEVEL = {
  'dbs-basic': 'basic',
  'dbs-standard': 'standard',
  'dbs-enhanced': 'enhanced',
} as const;
type DisclosureCode = keyof typeof LEVEL;
const CODES = Object.keys(LEVEL) as DisclosureCode[];
const HOUR = 3_600_000;

/**
 * The demo's completed criminal-record checks, given the results the engine would have written
 * for them (the seed makes them complete without running the engine): each is submitted to its
 * provider's simulator an hour after it was opened and asked again when it completed, on a
 * simulated day short enough for its stages to fit between the two, and the answers go through
 * the kind's own mapping (mapApplicationUpdate) into result_data and the provider log. A case
 * decided unsatisfactory had records held (the simulator's RECORDS applicant); the applicant
 * details are the subject's own, with the nationality and place of birth of the case's data (as
 * the kind sends them: codes, which the panel shows as 'British', 'United Kingdom'). A submitted
 * application had the person's details: a case without them gets the factories' (a British person
 * born in Leeds; no title or gender, which the subject record does not know).
 */
export async function seedDisclosureResults(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const rows = await tx
    .select({
      id: caseActivities.id,
      customerId: caseActivities.customerId,
      caseId: caseActivities.caseId,
      code: activityTypes.code,
      config: caseActivities.config,
      createdAt: caseActivities.createdAt,
      completedAt: caseActivities.completedAt,
      decision: cases.decision,
      subject: {
        firstName: subjects.firstName,
        middlename: subjects.middlename,
        lastName: subjects.lastName,
        dob: subjects.dob,
        email: subjects.email,
      },
      nationality: caseBasicDetails.nationality,
      birthTown: caseBirthDetails.town,
      birthTownDbs: caseBirthDetails.townDbs,
      birthCountry: caseBirthDetails.country,
      birthCountryDbs: caseBirthDetails.countryDbs,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(cases, eq(cases.id, caseActivities.caseId))
    .innerJoin(subjects, eq(subjects.id, cases.subjectId))
    .leftJoin(
      caseBasicDetails,
      and(
        eq(caseBasicDetails.customerId, caseActivities.customerId),
        eq(caseBasicDetails.caseId, caseActivities.caseId),
      ),
    )
    .leftJoin(
      caseBirthDetails,
      and(
        eq(caseBirthDetails.customerId, caseActivities.customerId),
        eq(caseBirthDetails.caseId, caseActivities.caseId),
      ),
    )
    .where(
      and(
        eq(caseActivities.state, 'ca-complete'),
        inArray(activityTypes.code, CODES),
        sql`${caseActivities.resultData} = '{}'::jsonb`,
      ),
    );
  // the person's details per case (a case may have several checks)
  const given = new Map<
    string,
    { nationality: string | null; birthTown: string | null; birthCountry: string | null }
  >();
  for (const r of rows) {
    const code = CODES.find((c) => c === r.code);
    if (!code || !r.completedAt) continue;
    const level = LEVEL[code];
    const provider = level === 'basic' ? dbsBasicProvider : ebulkProvider;
    const lists = level === 'enhanced' ? enhancedBarredLists(r.config) : [];
    // sent within the hour after the activity opened, answered when it completed (a factory's
    // activity may complete the moment it opens: its stages then take a millisecond each)
    const opened = r.createdAt.getTime();
    const completed = Math.max(opened, r.completedAt.getTime());
    const submittedAt = opened + Math.min(HOUR, Math.floor((completed - opened) / 10));
    const days = stageSchedule(level, lists.length > 0)[5] ?? 1;
    const dayMs = Math.max(1, Math.floor((completed - submittedAt) / days));
    const answeredAt = Math.max(completed, submittedAt + days * dayMs);
    const clock = new ManualClock(new Date(submittedAt));
    const simulator = provider.simulator({
      clock,
      signingClock: clock,
      callbackSecret: 'demo-seed',
      dayMs,
    });
    const s = r.subject;
    const key = { customerId: r.customerId, caseId: r.caseId };
    const caseKey = `${r.customerId}:${r.caseId}`;
    let person = given.get(caseKey) ?? {
      nationality: r.nationality,
      birthTown: r.birthTownDbs || r.birthTown,
      birthCountry: r.birthCountryDbs || r.birthCountry,
    };
    if (person.nationality === null) {
      const basic = await createCaseBasicDetails(
        tx,
        key,
        { forename: s.firstName, middlename: s.middlename, surname: s.lastName, dob: s.dob ?? '' },
        { title: '', gender: '', dob: s.dob },
      );
      person = { ...person, nationality: basic?.nationality ?? '' };
    }
    if (person.birthCountry === null && person.birthTown === null) {
      await createCaseBirthDetails(tx, key);
      person = { ...person, birthTown: 'Leeds', birthCountry: 'GBR' };
    }
    given.set(caseKey, person);
    const application: DisclosureApplication = {
      idempotency_key: `kestrel-ca-${r.id}`,
      level,
      callback_url: '',
      applicant: {
        title: '',
        forename: s.firstName,
        middlename: s.middlename,
        // the simulator's test data: the outcome follows the surname (providers/dbs-basic/README.md)
        surname: r.decision === 'unsatisfactory' ? `RECORDS ${s.lastName}` : s.lastName,
        dob: s.dob ?? '',
        gender: '',
        email: s.email,
        phone_number: '',
        nin: '',
        nationality: person.nationality ?? '',
        birth_town: person.birthTown ?? '',
        birth_country: person.birthCountry ?? '',
        current_address: '',
      },
      workforce: r.config.workforce ?? null,
      barred_lists: lists,
      purpose: r.config.purpose ?? null,
      position: r.config.position ?? null,
      top_up_payment: null,
      identity_verification:
        level === 'basic'
          ? null
          : {
              basis: 'documents',
              route: 1,
              verified_by: 'Alex Admin',
              verified_at: new Date(submittedAt - HOUR / 2).toISOString(),
              countersigned_by: 'Alex Admin',
              countersigned_at: new Date(submittedAt - HOUR / 4).toISOString(),
            },
      provider_configuration: null,
    };
    const signal = new AbortController().signal;
    const answer = await simulator.submit(application, signal);
    clock.set(new Date(answeredAt));
    const update = await simulator.status(answer.reference, signal);
    const mapped = mapApplicationUpdate(
      update,
      { applicant: applicantResult({ ...application.applicant, surname: s.lastName }) },
      null,
    );
    let processing: ProcessingData = {
      ...initialProcessingData(provider.name, application.idempotency_key),
      reference: update.reference,
      stage: update.stage,
    };
    const at = (d: number) => new Date(d).toISOString();
    processing = withEvent(processing, {
      at: at(submittedAt),
      type: 'request',
      body: { level, applicant: { surname: application.applicant.surname } },
    });
    processing = withEvent(processing, {
      at: at(submittedAt),
      type: 'answer',
      body: { ...answer },
    });
    processing = withEvent(processing, {
      at: at(answeredAt),
      type: 'poll',
      body: { ...update },
    });
    await tx
      .update(caseActivities)
      .set({
        resultData: ACTIVITY_KINDS[code].result.parse(mapped.resultData),
        processingData: processing,
      })
      .where(eq(caseActivities.id, r.id));
  }
}
