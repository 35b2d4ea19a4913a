/**
 * Invalid input fails `pulumi preview` with the property path, before any request of a write
 * operation (ops 1-4) reaches the API. The engine renders a check failure as
 * `<type> resource '<name>': property <path> value {<value>} has a problem: <reason>`.
 */
import { adplatformPackage, callsOf, E2E_TIMEOUT_MS, useE2e } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const ctx = useE2e();

/** Requests of the four write operations (PATCH op 1, POST op 2, POST op 3, PATCH op 4). */
function writeRequests(): number {
  return [1, 2, 3, 4].reduce((sum, op) => sum + callsOf(ctx.sim, op).length, 0);
}

test("an invalid colour fails preview with property `color`; nothing is written", async () => {
  ctx.sim.reset();
  const session = await ctx.open({ config: { groupColor: "green" } });
  await expect(session.stack.preview()).rejects.toThrow(
    /CampaignGroup resource 'spring-sale': property color value \{green\} has a problem: color must be a hex colour #rrggbb/,
  );
  expect(writeRequests()).toBe(0);
  // The data sources did run (reads are not what the check guards).
  expect(callsOf(ctx.sim, 18).length).toBeGreaterThan(0);

  // `up` fails the same way and never sends the invalid group. The Automation API's `up` skips the
  // preview (`--skip-preview`), so the program's valid resources may already be applied: only the
  // group's POST is guaranteed absent.
  await session.setProjectConfig({ groupColor: "green", campaignIds: '["5101"]' });
  await expect(session.stack.up()).rejects.toThrow(/property color value \{green\} has a problem/);
  expect(callsOf(ctx.sim, 2)).toHaveLength(0);
});

test("a modifier value in exponent form and a numeric targeting item fail preview with their paths; nothing is written", async () => {
  ctx.sim.reset();
  const session = await ctx.open({ config: { modifierValue: "1e3" } });
  await expect(session.stack.preview()).rejects.toThrow(
    /BidModifier resource 'dach': property value value \{1e3\} has a problem: must be a decimal string such as "1\.50"/,
  );

  const adp = adplatformPackage();
  const nested = await ctx.open({
    program: async () => {
      const items = ["DE", 7] as unknown as string[];
      const modifier = new adp.BidModifier("nested", { bidModifierId: "502", targeting: { countries: { items, op: "in" } } });
      return { id: modifier.id };
    },
  });
  await expect(nested.stack.preview()).rejects.toThrow(
    /property targeting\.countries\.items\[1\] value \{[^}]*\} has a problem: must be a string/,
  );
  expect(writeRequests()).toBe(0);
});
