/**
 * `account-create-cap`: creating resources counted per account, at, just under and just over the
 * cap; adopted resources and kinds that only PATCH do not count; accounts told apart by the dynamic
 * face's `account`, the native face's provider, and the stack's configured account.
 */
import {
  accountCreateCapSettings,
  accountCreateCapViolations,
  accountOf,
  type StackResourceView,
} from "../../../policy/rules/accountCreateCap";

const CONFIGURED = "https://api.example.com";

const strategy = (name: string, props: Record<string, unknown> = {}, provider?: StackResourceView["provider"]): StackResourceView => ({
  kind: "BidStrategy",
  name,
  props: { name, strategy: "exact", value: 1, maxValue: 1, ...props },
  ...(provider ? { provider } : {}),
});
const strategies = (count: number, props: Record<string, unknown> = {}) =>
  Array.from({ length: count }, (_, i) => strategy(`s${i}`, props));

describe("the cap (default 20)", () => {
  const defaults = accountCreateCapSettings({});

  it("passes at the cap and just under it", () => {
    expect(accountCreateCapViolations(strategies(20), defaults, CONFIGURED)).toEqual([]);
    expect(accountCreateCapViolations(strategies(19), defaults, CONFIGURED)).toEqual([]);
  });

  it("reports just over it with the account, the count, the cap and the first names in order", () => {
    expect(accountCreateCapViolations(strategies(21), defaults, CONFIGURED)).toEqual([
      `${CONFIGURED}: the stack creates 21 objects, above the cap of 20 (maxCreates): BidStrategy "s0", BidStrategy "s1", ` +
        `BidStrategy "s10", BidStrategy "s11", BidStrategy "s12", and 16 more. The API cannot delete them; raise maxCreates if this is intended.`,
    ]);
  });

  it("follows the configuration", () => {
    const settings = accountCreateCapSettings({ maxCreates: 2 });
    expect(accountCreateCapViolations(strategies(2), settings, CONFIGURED)).toEqual([]);
    expect(accountCreateCapViolations(strategies(3), settings, CONFIGURED)).toEqual([
      expect.stringContaining("creates 3 objects, above the cap of 2"),
    ]);
  });
});

describe("what counts", () => {
  const settings = accountCreateCapSettings({ maxCreates: 1 });

  it("counts campaign groups with strategies", () => {
    const group: StackResourceView = { kind: "CampaignGroup", name: "g", props: { name: "g", color: "#000000", items: [] } };
    expect(accountCreateCapViolations([strategy("a"), group], settings, CONFIGURED)).toHaveLength(1);
  });

  it("does not count adopted objects, nor modifiers and variations, which only PATCH existing objects", () => {
    const others: StackResourceView[] = [
      strategy("adopted", { adoptId: "9001" }),
      { kind: "CampaignGroup", name: "g", props: { adoptId: "701" } },
      { kind: "BidModifier", name: "m", props: { bidModifierId: "501", value: "1" } },
      { kind: "AbTestVariation", name: "v", props: { abTestId: "1", variationId: "2", name: "B" } },
    ];
    expect(accountCreateCapViolations([strategy("a"), ...others], settings, CONFIGURED)).toEqual([]);
  });
});

describe("accounts", () => {
  const settings = accountCreateCapSettings({ maxCreates: 1 });
  const native = (baseUrl: unknown) => ({ type: "pulumi:providers:adplatform", props: { baseUrl } });

  it("are counted apart: two creates on each of two accounts are both reported under a cap of 1", () => {
    const second = { account: { baseUrl: "https://second.example.com/", token: "secret-token" } };
    const found = accountCreateCapViolations(
      [strategy("a"), strategy("b"), strategy("c", second), strategy("d", second)],
      settings,
      CONFIGURED,
    );
    expect(found).toEqual([
      expect.stringMatching(/^https:\/\/api\.example\.com: .* 2 objects/),
      expect.stringMatching(/^https:\/\/second\.example\.com: .* 2 objects/),
    ]);
    expect(found.join("\n")).not.toContain("secret-token");
  });

  it("one create on each of two accounts passes a cap of 1", () => {
    expect(
      accountCreateCapViolations([strategy("a"), strategy("b", {}, native("https://second.example.com"))], settings, CONFIGURED),
    ).toEqual([]);
  });

  it("is named by the account's name, its base URL (without credentials), the native provider's base URL, or the configured one", () => {
    expect(accountOf(strategy("a", { account: { name: "eu", baseUrl: "https://x.example.com" } }), CONFIGURED)).toBe('account "eu"');
    expect(accountOf(strategy("a", { account: { baseUrl: "https://user:pw@x.example.com/" } }), CONFIGURED)).toBe("https://x.example.com");
    expect(accountOf(strategy("a", {}, native("https://n.example.com")), CONFIGURED)).toBe("https://n.example.com");
    expect(accountOf(strategy("a", {}, native(undefined)), CONFIGURED)).toBe(CONFIGURED);
    expect(accountOf(strategy("a"), undefined)).toBe("the configured account");
  });
});
