import { z } from "zod";
import { camelToSnake, snakeToCamel, toSdk, toWire } from "../../../provider/wire/casing";

const Filter: z.ZodType = z.lazy(() => z.looseObject({ variable: z.string(), value: z.string(), filters: z.array(Filter).optional() }));
const Sample = z.looseObject({
  ab_test_config: z.looseObject({ num_of_appears: z.number() }).optional(),
  description_2: z.looseObject({ key: z.string(), value: z.string() }).optional(),
  qps: z.record(z.string(), z.number()).optional(),
  user_data: z.record(z.string(), z.looseObject({ op: z.string(), items: z.array(z.string()) })).optional(),
  settings: z
    .looseObject({ image: z.record(z.string(), z.string()) })
    .nullable()
    .optional(),
  filters: z.array(Filter).optional(),
  total: z.union([z.number(), z.string()]).transform(Number).optional(),
});

describe("schema-driven casing", () => {
  it("renames declared fields and keeps record keys verbatim", () => {
    const wire = {
      ab_test_config: { num_of_appears: 3 },
      description_2: { key: "en", value: "x" },
      qps: { us_east: 10, "eu-west": 5 },
      user_data: { last_order_id: { op: "include", items: ["a"] } },
      settings: { image: { en_US: "https://x/y.png", pt_BR: "https://x/z.png" } },
      filters: [{ variable: "v", value: "1", filters: [{ variable: "w", value: "2" }] }],
      extra_field: { keep_me: 1 },
    };
    expect(toSdk(Sample, Sample.parse(wire))).toEqual({
      abTestConfig: { numOfAppears: 3 },
      description2: { key: "en", value: "x" },
      qps: { us_east: 10, "eu-west": 5 },
      userData: { last_order_id: { op: "include", items: ["a"] } },
      settings: { image: { en_US: "https://x/y.png", pt_BR: "https://x/z.png" } },
      filters: [{ variable: "v", value: "1", filters: [{ variable: "w", value: "2" }] }],
      extraField: { keep_me: 1 },
    });
  });

  it("maps SDK values back to the exact wire names the schema declares", () => {
    const sdk = {
      abTestConfig: { numOfAppears: 3 },
      description2: { key: "en", value: "x" },
      userData: { lastOrderId: { op: "include", items: [] } },
      settings: null,
      dropped: undefined,
    };
    expect(toWire(Sample, sdk)).toEqual({
      ab_test_config: { num_of_appears: 3 },
      description_2: { key: "en", value: "x" },
      user_data: { lastOrderId: { op: "include", items: [] } },
      settings: null,
    });
  });

  it("converts single names both ways", () => {
    expect(snakeToCamel("create_time")).toBe("createTime");
    expect(snakeToCamel("code3")).toBe("code3");
    expect(camelToSnake("createTime")).toBe("create_time");
  });
});
