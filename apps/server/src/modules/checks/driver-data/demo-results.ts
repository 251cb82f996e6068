import {
  ACTIVITY_KINDS,
  type CaseActivityState,
  deriveCaseState,
  initialProcessingData,
  type ProcessingData,
  withEvent,
} from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
import { createCase, createProcess, createSubjectUser } from '../../../db/factories.js';
import { ManualClock } from '../../../platform/clock.js';
import type { DemoSeedContext } from '../../../platform/module.js';
import { createDavisSimulator } from '../../../providers/davis/simulator.js';
import { createDvlaSimulator } from '../../../providers/dvla/simulator.js';
import { caseActivities } from '../../activities/activities.table.js';
import { activityTypes } from '../../bootstrap/bootstrap.table.js';
import {
  createCaseBasicDetails,
  createCaseDrivingLicence,
} from '../../case-data/case-data.factories.js';
import { cases } from '../../cases/cases.table.js';
import { maskIdentifier } from '../../encryption/mask.js';
import { subjectConsents } from '../../portal/consents.table.js';
import { mapCheck } from '../licence-check/check.js';
import { maskedDavis } from '../licence-check/providers.js';
import { mapEnquiry } from './kind.js';
import { maskedDvla } from './providers.js';

/*
 * The demo's driving licence checks, for both customers: a case per special answer of the
 * simulators (their READMEs: the surname chooses), each asking for driver data (CPCs and tacho
 * cards included) and a licence check, recorded from a run of the simulators through the kinds'
 * own mappings (mapEnquiry, mapCheck): complete with a clean record, with endorsements (one code
 * unrecognised), a disqualified driver, DQ3, AwaitingCheck, ENQ018, ENQ037; and one case still
 * waiting for the subject's licence details. Each licence number is the one the holder's surname,
 * date of birth and gender give (createCaseDrivingLicence: a woman's month + 50).
 */

const DAY = 86_400_000;
const SCENARIOS = [
  'Morgan',
  'Endorsed',
  'Disqualified',
  'Manual',
  'Awaiting',
  'Norecord',
  'Suppressed',
];

export async function seedDrivingLicenceResults(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const now = ctx.clock.now().getTime();
  const signal = new AbortController().signal;
  const types = await tx
    .select({ id: activityTypes.id, code: activityTypes.code })
    .from(activityTypes);
  const typeOf = (id: number) => types.find((t) => t.id === id)?.code;
  for (const [ci, customerId] of Object.values(ctx.customers).entries()) {
    const process = await createProcess(tx, {
      customerId,
      name: 'Driver licence checks',
      description: 'The DVLA driver record and a licence check, re-checked by risk.',
      requirements: [
        { code: 'driver-data', config: { include_cpc: true, include_tacho: true } },
        'licence-check',
      ],
    });
    const waiting = await createSubjectUser(tx, {
      customerId,
      email: `pat.waiting${ci}@example.com`,
      firstName: 'Pat',
      lastName: 'Waiting',
      password: null,
    });
    await createCase(tx, { customerId, processId: process.id, subjectId: waiting.id });
    for (const [i, surname] of SCENARIOS.entries()) {
      const startedAt = now - (3 + i) * DAY;
      const clock = new ManualClock(new Date(startedAt));
      // the answers' licence numbers masked, as the engine's providers have them (providers.ts)
      const dvla = maskedDvla(createDvlaSimulator({ clock, dayMs: DAY }));
      const davis = maskedDavis(createDavisSimulator({ clock, dayMs: DAY }));
      // every other driver a woman: the licence number is derived from the surname, date of
      // birth and gender (her month + 50), so the DVLA's record reads her as one
      const gender: 'female' | 'male' = i % 2 === 0 ? 'female' : 'male';
      const person = { forename: 'Sam', surname, dob: '1976-03-11', gender };
      const subject = await createSubjectUser(tx, {
        customerId,
        email: `sam.${surname.toLowerCase()}${ci}@example.com`,
        firstName: 'Sam',
        lastName: surname,
        password: null,
        createdAt: new Date(startedAt - DAY),
      });
      const c = await createCase(tx, {
        customerId,
        processId: process.id,
        subjectId: subject.id,
        activityStates: ['ca-in-progress'],
        createdAt: new Date(startedAt - 3_600_000),
      });
      const key = { customerId, caseId: c.id };
      await createCaseBasicDetails(tx, key, person);
      const licence = await createCaseDrivingLicence(tx, key, person, new Date(startedAt));
      const number = licence?.number ?? '';
      const rows = await tx
        .select()
        .from(caseActivities)
        .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, c.id)))
        .orderBy(asc(caseActivities.position));
      const mandateDate = new Date(startedAt).toISOString().slice(0, 10);
      const states: CaseActivityState[] = [];
      for (const a of rows) {
        await tx.insert(subjectConsents).values({
          customerId,
          caseId: c.id,
          caseActivityId: a.id,
          kind: 'driver-data',
          givenAt: new Date(startedAt),
          expiresAt: new Date(startedAt + 3 * 365 * DAY),
        });
        const reference = `kestrel-ca-${a.id}`;
        const at = clock.now().toISOString();
        let processing: ProcessingData = initialProcessingData(
          typeOf(a.activityTypeId) === 'driver-data' ? 'dvla' : 'davis',
          reference,
        );
        let state: CaseActivityState;
        let resultData: Record<string, unknown>;
        if (typeOf(a.activityTypeId) === 'driver-data') {
          const enquiry = {
            drivingLicenceNumber: number,
            includeCPC: true,
            includeTacho: true,
            acceptPartialResponse: false,
          };
          const answer = await dvla.retrieve(enquiry, signal);
          const mapped = mapEnquiry(answer, {
            previous: {},
            includeCpc: true,
            includeTacho: true,
            mandateDate,
            checked: mandateDate,
          });
          processing = withEvent(processing, {
            at,
            type: 'request',
            body: { includeCPC: true, includeTacho: true },
          });
          processing = withEvent(processing, { at, type: 'answer', body: { ...answer } });
          state = mapped.state;
          resultData = ACTIVITY_KINDS['driver-data'].result.parse(mapped.resultData);
        } else {
          const registered = await davis.register(
            {
              reference,
              licence_number: number,
              forename: 'Sam',
              surname,
              dob: person.dob,
              email: subject.email,
              mandate_date: mandateDate,
            },
            signal,
          );
          processing = withEvent(
            { ...processing, reference: registered.driver_id },
            { at, type: 'answer', body: { ...registered } },
          );
          clock.advance(DAY);
          const check = await davis.check(registered.driver_id, signal);
          processing = withEvent(processing, {
            at: clock.now().toISOString(),
            type: 'poll',
            body: { ...check },
          });
          const first = mapCheck(
            registered,
            { licence: { number: maskIdentifier(number) } },
            mandateDate,
            mandateDate,
          );
          const mapped = mapCheck(
            check,
            first.resultData,
            clock.now().toISOString().slice(0, 10),
            mandateDate,
          );
          state = mapped.state;
          resultData = ACTIVITY_KINDS['licence-check'].result.parse(mapped.resultData);
        }
        await tx
          .update(caseActivities)
          .set({
            state,
            resultData,
            processingData: processing,
            completedAt: state === 'ca-complete' ? clock.now() : null,
            updatedAt: clock.now(),
          })
          .where(eq(caseActivities.id, a.id));
        states.push(state);
      }
      // the case follows its activities, as changeActivity would have it
      await tx
        .update(cases)
        .set({ state: deriveCaseState(states) })
        .where(and(eq(cases.customerId, customerId), eq(cases.id, c.id)));
    }
  }
}
