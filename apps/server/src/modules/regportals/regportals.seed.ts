import { REGISTRATION_EXPIRY_HOURS, type RegistrationState } from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Actor } from '../../platform/context.js';
import { enqueue } from '../../platform/jobs.js';
import type { DemoSeedContext } from '../../platform/module.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { cases } from '../cases/cases.table.js';
import { createPurposeIntent } from '../payments/service.js';
import { quoteProcess } from '../pricebooks/pricebooks.service.js';
import { processes } from '../processes/processes.table.js';
import { segments } from '../segments/segments.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { REGISTRATION_PURPOSE } from './registration-payment.js';
import {
  portalRegistrationEvents,
  portalRegistrations,
  registrationPortals,
} from './regportals.table.js';

const HOUR = 3_600_000;
/** A subject-paid registration's fee where the customer's pricebook prices the process at nothing. */
const DEMO_FEE_PENCE = 4_250;

/** The path of each state to its state, as its events record it. */
const PATH: Record<RegistrationState, RegistrationState[]> = {
  started: ['started'],
  email_confirmed: ['started', 'email_confirmed'],
  awaiting_payment: ['started', 'email_confirmed', 'awaiting_payment'],
  paid: ['started', 'email_confirmed', 'awaiting_payment', 'paid'],
  case_created: ['started', 'email_confirmed', 'case_created'],
  expired: ['started', 'expired'],
};

/**
 * Acme Care Ltd (entitled to regportals): on its care workers' process (North site), a
 * volunteers' portal the customer pays for and a self-funded applicants' portal the subject
 * pays for; registrations in every state (a case created for two of the customer's subjects
 * with a case of that process), so the registrations screens show data on a fresh start.
 */
export async function seedRegportalsDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const now = ctx.clock.now();
  const customerId = ctx.customers.acme;
  const [process] = await tx
    .select({ id: processes.id, segmentId: processes.segmentId })
    .from(processes)
    .where(and(eq(processes.customerId, customerId), eq(processes.name, 'Care worker onboarding')));
  if (!process) return;
  const [segment] = await tx
    .select({ id: segments.id })
    .from(segments)
    .where(eq(segments.customerId, customerId))
    .orderBy(asc(segments.id))
    .limit(1);
  const segmentId = process.segmentId ?? segment?.id;
  if (segmentId === undefined) return;
  const [volunteers, selfFunded] = await tx
    .insert(registrationPortals)
    .values([
      {
        customerId,
        processId: process.id,
        segmentId,
        path: 'volunteers',
        title: 'Volunteer care workers',
        introduction:
          'Register for the checks our volunteers need. We pay for them: it takes about ten minutes.',
        payer: 'customer',
        askEmail: 'required',
        askDob: 'required',
        askPhone: 'optional',
        open: true,
      },
      {
        customerId,
        processId: process.id,
        segmentId,
        path: 'self-funded',
        title: 'Self-funded applicants',
        introduction: 'Register and pay for your own checks before you apply to work with us.',
        payer: 'subject',
        askEmail: 'required',
        askDob: 'required',
        askPhone: 'required',
        open: true,
        registrationLimit: 200,
      },
    ])
    .returning();
  if (!volunteers || !selfFunded) throw new Error('demo registration portals not made');
  // two of the process's cases came from the volunteers' portal
  const made = await tx
    .select({
      caseId: cases.id,
      subjectId: subjects.id,
      first: subjects.firstName,
      last: subjects.lastName,
      email: subjects.email,
      dob: subjects.dob,
    })
    .from(cases)
    .innerJoin(
      subjects,
      and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
    )
    .where(and(eq(cases.customerId, customerId), eq(cases.processId, process.id)))
    .orderBy(asc(cases.id))
    .limit(2);
  const plan: {
    portal: typeof volunteers;
    state: RegistrationState;
    hoursAgo: number;
    first: string;
    last: string;
    email: string;
    dob: string | null;
    subjectId?: number;
    caseId?: number;
  }[] = [
    ...made.map((m, i) => ({
      portal: volunteers,
      state: 'case_created' as const,
      hoursAgo: 24 * (10 + i * 5),
      first: m.first,
      last: m.last,
      email: m.email.toLowerCase(),
      dob: m.dob,
      subjectId: m.subjectId,
      caseId: m.caseId,
    })),
    {
      portal: volunteers,
      state: 'started',
      hoursAgo: 3,
      first: 'Priya',
      last: 'Shah',
      email: 'priya.shah@example.test',
      dob: '1994-07-21',
    },
    {
      portal: volunteers,
      state: 'expired',
      hoursAgo: 24 * 4,
      first: 'Tom',
      last: 'Baker',
      email: 'tom.baker@example.test',
      dob: '1988-11-02',
    },
    {
      portal: selfFunded,
      state: 'email_confirmed',
      hoursAgo: 1,
      first: 'Lena',
      last: 'Kowalski',
      email: 'lena.kowalski@example.test',
      dob: '1999-03-14',
    },
    {
      portal: selfFunded,
      state: 'awaiting_payment',
      hoursAgo: 20,
      first: 'Omar',
      last: 'Haddad',
      email: 'omar.haddad@example.test',
      dob: '1985-05-30',
    },
    {
      portal: selfFunded,
      state: 'paid',
      hoursAgo: 6,
      first: 'Grace',
      last: 'Okafor',
      email: 'grace.okafor@example.test',
      dob: '1991-09-09',
    },
    {
      portal: selfFunded,
      state: 'expired',
      hoursAgo: 24 * 3,
      first: 'Sam',
      last: 'Reid',
      email: 'sam.reid@example.test',
      dob: '1979-12-24',
    },
  ];
  // the payments of a registration awaiting payment are made as a real one's (the system's, in
  // the customer's name): an intent of purpose 'registration' at the process's price, whose
  // provider intent the job makes
  const actor: Actor = {
    type: null,
    id: null,
    name: 'self-initiate',
    customerId,
    isOps: false,
    permissions: new Set(),
    ip: null,
    requestId: null,
  };
  const service: ServiceContext = {
    tx,
    actor,
    clock: ctx.clock,
    enqueue: async (job) => void (await enqueue(tx, job)),
    afterCommit: () => undefined,
  };
  const quote = await quoteProcess(service, customerId, process.id);
  const fee = quote.total_pence > 0 ? quote.total_pence : DEMO_FEE_PENCE;
  for (const p of plan) {
    const started = new Date(now.getTime() - p.hoursAgo * HOUR);
    const steps = PATH[p.state];
    const [row] = await tx
      .insert(portalRegistrations)
      .values({
        customerId,
        regPortalId: p.portal.id,
        processId: process.id,
        firstName: p.first,
        lastName: p.last,
        email: p.email,
        dob: p.dob,
        phone: p.portal.askPhone === 'required' ? '+447700900555' : null,
        state: p.state,
        startedAt: started,
        expiresAt: new Date(started.getTime() + REGISTRATION_EXPIRY_HOURS * HOUR),
        emailConfirmedAt: steps.includes('email_confirmed')
          ? new Date(started.getTime() + 0.2 * HOUR)
          : null,
        subjectId: p.subjectId ?? null,
        caseId: p.caseId ?? null,
        createdAt: started,
        updatedAt: started,
      })
      .returning();
    if (!row) continue;
    let paymentNote = '';
    if (p.state === 'awaiting_payment') {
      const made = await createPurposeIntent(service, {
        customerId,
        purpose: REGISTRATION_PURPOSE,
        purposeId: row.id,
        amountPence: fee,
        reason: `Registration: ${p.portal.title}`,
      });
      await tx
        .update(portalRegistrations)
        .set({ paymentIntentId: made.row.id })
        .where(
          and(eq(portalRegistrations.customerId, customerId), eq(portalRegistrations.id, row.id)),
        );
      paymentNote = `Payment ${made.row.publicId}`;
    }
    await tx.insert(portalRegistrationEvents).values(
      steps.map((state, i) => ({
        customerId,
        registrationId: row.id,
        state,
        note:
          state === 'expired'
            ? `Not completed within ${REGISTRATION_EXPIRY_HOURS} hours.`
            : state === 'case_created' && p.caseId
              ? `Case ${p.caseId}`
              : state === 'awaiting_payment'
                ? paymentNote
                : '',
        at:
          state === 'expired'
            ? new Date(started.getTime() + REGISTRATION_EXPIRY_HOURS * HOUR)
            : new Date(started.getTime() + i * 0.2 * HOUR),
      })),
    );
  }
}
