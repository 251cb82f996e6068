import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  type TestApp,
} from '../../../test/helpers.js';
import { ValidationError } from '../../platform/errors.js';
import { segmentsOfUsers, setUserSegments } from './segment-users.js';
import { segments } from './segments.table.js';

let t: TestApp;
let acme: number;
let other: number;
let north: number;
let south: number;
let foreign: number;
let ann: number;
let bob: number;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    const made = await tx
      .insert(segments)
      .values([
        { customerId: acme, name: 'North' },
        { customerId: acme, name: 'South' },
        { customerId: other, name: 'Elsewhere' },
      ])
      .returning();
    [north, south, foreign] = made.map((s) => s.id) as [number, number, number];
    ann = (await createProductUser(tx, { customerId: acme, roles: ['viewer'] })).id;
    bob = (await createProductUser(tx, { customerId: acme, roles: ['viewer'] })).id;
  });
});
afterAll(() => t.close());

describe('segmentsOfUsers and setUserSegments', () => {
  it("sets, replaces and clears a user's segments; every user asked for is in the map", async () => {
    await t.owner(async (tx) => {
      await setUserSegments(tx, acme, ann, [south, north, north]);
      expect(await segmentsOfUsers(tx, acme, [ann, bob])).toEqual(
        new Map([
          [ann, [north, south].sort((x, y) => x - y)],
          [bob, []],
        ]),
      );
      await setUserSegments(tx, acme, ann, [south]);
      expect((await segmentsOfUsers(tx, acme, [ann])).get(ann)).toEqual([south]);
      await setUserSegments(tx, acme, ann, []);
      expect((await segmentsOfUsers(tx, acme, [ann])).get(ann)).toEqual([]);
      expect(await segmentsOfUsers(tx, acme, [])).toEqual(new Map());
    });
  });

  it("refuses another customer's or an unknown segment (400 on segments), changing nothing", async () => {
    await t.owner(async (tx) => {
      await setUserSegments(tx, acme, bob, [north]);
      for (const bad of [foreign, 999_999]) {
        const err = await setUserSegments(tx, acme, bob, [south, bad]).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ValidationError);
        expect(err instanceof ValidationError && err.fields).toEqual({
          segments: [`Invalid pk "${bad}" - object does not exist.`],
        });
      }
      expect((await segmentsOfUsers(tx, acme, [bob])).get(bob)).toEqual([north]);
      // another customer's reading sees none of acme's rows
      expect((await segmentsOfUsers(tx, other, [bob])).get(bob)).toEqual([]);
    });
  });
});
