import type { CaseActivityState, CaseState } from '@kestrel/domain';
import { createCase, createFlag, createProcess, createSubjectUser } from '../../db/factories.js';
import type { DemoSeedContext } from '../../platform/module.js';

const DAY = 86_400_000;

const PEOPLE = [
  ['Priya', 'Shah', '1988-02-14'],
  ['Tom', 'Hughes', '1979-11-03'],
  ['Grace', 'Okafor', '1995-06-21'],
  ['Liam', 'Murphy', '1990-09-09'],
  ['Chloe', 'Evans', '1984-01-30'],
  ['Daniel', 'Kowalski', '1992-12-12'],
  ['Aisha', 'Rahman', '1987-07-07'],
  ['Owen', 'Price', '1999-03-18'],
  ['Hannah', 'Wright', '1975-05-25'],
  ['Tom', 'Hughes', '1979-11-03'],
] as const;

/** Cases in every state (activity states that lead there), some archived, some flagged. */
const SHAPES: {
  states: CaseActivityState[];
  state?: CaseState;
  archived?: boolean;
  decision?: 'satisfactory' | 'unsatisfactory';
}[] = [
  { states: ['ca-pending'] },
  { states: ['ca-awaiting-subject'] },
  { states: ['ca-complete', 'ca-awaiting-agent', 'ca-in-progress'] },
  { states: ['ca-complete', 'ca-pending-activity-decision', 'ca-awaiting-ops'] },
  { states: ['ca-complete', 'ca-complete', 'ca-cancelled'] },
  { states: ['ca-complete'], state: 'complete', decision: 'satisfactory' },
  { states: ['ca-complete'], state: 'complete', decision: 'unsatisfactory' },
  { states: ['ca-cancelled'], state: 'cancelled' },
  { states: ['ca-complete'], state: 'complete', decision: 'satisfactory', archived: true },
  // held until its charge succeeds (issue 30; Acme's attempt is in payments' demo data)
  { states: ['ca-pending'], state: 'awaiting-payment' },
];

/**
 * Demo workspace for both customers: processes, subjects, cases in every state (completed ones
 * spread over the last weeks for the dashboard chart), flags, and an open case for
 * subject@example.test at Acme Care Ltd. The dates tell one story: subjects are added before
 * their first case (the earliest opens 57 days ago), a case opens, its checks complete after
 * that, and a case completes after it opened and before today.
 */
export async function seedWorkspaceDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const now = clock.now().getTime();
  for (const [key, customerId] of Object.entries(ctx.customers)) {
    const domain = key === 'acme' ? 'acme-people.test' : 'northgate-people.test';
    const care = await createProcess(tx, {
      customerId,
      name: key === 'acme' ? 'Care worker onboarding' : 'Taxi driver licensing',
      description: 'Standard checks for new starters.',
      requirements:
        key === 'acme'
          ? [
              'basic-details',
              'address-history',
              {
                code: 'dbs-enhanced',
                config: {
                  purpose: 'employment',
                  workforce: 'A',
                  adult_barred_list: true,
                  employment_sector: 'social-care',
                },
              },
              'rtw',
            ]
          : [
              'basic-details',
              'licence-check',
              {
                code: 'dbs-enhanced',
                config: {
                  purpose: 'licence',
                  workforce: 'O',
                  employment_sector: 'taxi-private-hire',
                },
              },
            ],
    });
    const office = await createProcess(tx, {
      customerId,
      name: 'Office staff',
      requirements: ['basic-details', 'dbs-basic', 'online-idv'],
    });
    await createProcess(tx, {
      customerId,
      name: 'Volunteers (retired)',
      isActive: false,
      requirements: [
        'basic-details',
        { code: 'dbs-standard', config: { purpose: 'volunteering', volunteer: true } },
      ],
    });
    const subjects = [];
    for (const [i, [first, last, dob]] of PEOPLE.entries()) {
      subjects.push(
        await createSubjectUser(tx, {
          customerId,
          email: `${first}.${last}${i === 9 ? '+work' : ''}@${domain}`.toLowerCase(),
          firstName: first,
          lastName: last,
          dob,
          password: null,
          termsAgreedAt: null,
          createdAt: new Date(now - 62 * DAY),
        }),
      );
    }
    let n = 0;
    for (const [i, shape] of SHAPES.entries()) {
      for (const process of [care, office]) {
        const subject = subjects[(i + (process === office ? 4 : 0)) % subjects.length];
        if (!subject) continue;
        n += 1;
        const createdAt = new Date(now - (60 - n * 3) * DAY);
        const done = shape.state === 'complete';
        const c = await createCase(tx, {
          customerId,
          processId: process.id,
          subjectId: subject.id,
          activityStates: shape.states,
          ...(shape.state ? { state: shape.state } : {}),
          ...(shape.decision ? { decision: shape.decision } : {}),
          createdAt,
          // Two to six days after it opened, and never later than yesterday.
          completedAt: done
            ? new Date(Math.min(createdAt.getTime() + ((n % 3) + 1) * 2 * DAY, now - DAY))
            : null,
          archivedAt: shape.archived ? new Date(now - DAY) : null,
        });
        if (n % 5 === 0) {
          await createFlag(tx, {
            customerId,
            caseId: c.id,
            message: 'Address history has a gap of more than 3 months',
          });
        }
      }
    }
    const flaggedSubject = subjects[1];
    if (flaggedSubject) {
      await createFlag(tx, {
        customerId,
        subjectId: flaggedSubject.id,
        kind: 'manual',
        message: 'Name differs from the one on the passport',
      });
      await createFlag(tx, {
        customerId,
        subjectId: flaggedSubject.id,
        message: 'Email bounced',
        active: false,
      });
    }
    const demoSubject = Object.values(ctx.subjects).find((s) => s.customerId === customerId);
    if (demoSubject) {
      await createCase(tx, {
        customerId,
        processId: care.id,
        subjectId: demoSubject.id,
        activityStates: ['ca-awaiting-subject'],
        createdAt: new Date(now - 2 * DAY),
      });
    }
  }
}
