/**
 * `defineDataSource` checks a row against its catalog operation when the table loads: the user-facing
 * parts a row must carry (a list read's `total` / `items` descriptions), the `query` description only
 * where the operation takes query parameters, and the path arguments it derives for the engine.
 */
import { operationByName } from "../../../provider/catalog";
import { QUERY_DESCRIPTION, defineDataSource, type DataSourceDefinition } from "../../../provider/dataSources/dataSource";

const zoneRow: DataSourceDefinition = {
  functionName: "getZone",
  description: "Reads one zone.",
  example: 'await getZone({ id: "1" });',
  operation: operationByName("getZone"),
  args: { id: { param: "id", description: "Zone id." } },
  fields: { names: ["account"], description: "Subresources." },
  subject: (a) => `zone ${a.id}`,
};

const countriesRow: DataSourceDefinition = {
  functionName: "getCountries",
  description: "Lists every country.",
  example: "await getCountries();",
  operation: operationByName("listCountries"),
  args: {},
  list: { total: "Number of countries.", items: "The countries." },
  subject: () => "the country list",
};

it("derives the engine's path arguments, allowed fields and the query description from a row", () => {
  const source = defineDataSource(zoneRow);
  expect(source.pathArgs).toEqual({ id: "id" });
  expect(source.fields).toEqual(["account"]);
  expect(source.fieldsDescription).toBe("Subresources.");
  expect(source.queryDescription).toBe(`${QUERY_DESCRIPTION} Subresources go in \`fields\`.`);
  expect(defineDataSource({ ...zoneRow, query: "Paging." }).queryDescription).toBe("Paging.");
});

it("refuses a list read without total and items descriptions, and a single read with them", () => {
  const { list: _list, ...withoutList } = countriesRow;
  expect(() => defineDataSource(withoutList)).toThrow(expect.objectContaining({ code: "ADP_ERR_DEFINITION" }));
  expect(() => defineDataSource(withoutList)).toThrow(/list must describe total and items/);
  expect(() => defineDataSource({ ...zoneRow, list: { total: "t", items: "i" } })).toThrow(/list must describe total and items/);
});

it("refuses a query description for an operation that takes no query parameters", () => {
  const integration: DataSourceDefinition = {
    functionName: "getIntegration",
    description: "Reads one integration.",
    example: 'await getIntegration({ id: "1" });',
    operation: operationByName("getIntegration"),
    args: { id: { param: "id", description: "Integration id." } },
    subject: (a) => `integration ${a.id}`,
  };
  expect(defineDataSource(integration).queryDescription).toBeUndefined();
  expect(() => defineDataSource({ ...integration, query: "Paging." })).toThrow(/takes no query parameters/);
});

it("refuses arguments that do not fill every path parameter exactly once", () => {
  expect(() => defineDataSource({ ...zoneRow, args: { zoneId: { param: "zone", description: "Zone id." } } })).toThrow(
    /args must fill the path parameters \[id\]/,
  );
});
