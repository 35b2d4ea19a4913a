import { buildPath, operationByName } from "../../../provider/catalog";

describe("buildPath", () => {
  const group = operationByName("getContainerGroup");

  it("fills every parameter of the template", () => {
    expect(buildPath(group, { id: "3", gid: "g-1" })).toBe("/v1/hood/containers/3/groups/g-1");
    expect(buildPath(operationByName("listMacros"))).toBe("/v1/hood/macros");
    expect(buildPath(operationByName("listMacros"), {})).toBe("/v1/hood/macros");
  });

  it("keeps slashes, dots, query and fragment characters and spaces inside their segment", () => {
    expect(buildPath(group, { id: "a/b", gid: "x y" })).toBe("/v1/hood/containers/a%2Fb/groups/x%20y");
    expect(buildPath(group, { id: "?q=1", gid: "#top" })).toBe("/v1/hood/containers/%3Fq%3D1/groups/%23top");
    expect(buildPath(group, { id: "../..", gid: "%2e" })).toBe("/v1/hood/containers/..%2F../groups/%252e");
    expect(buildPath(group, { id: "...", gid: ".x" })).toBe("/v1/hood/containers/.../groups/.x");
    expect(buildPath(group, { id: "zöne", gid: "1" })).toBe("/v1/hood/containers/z%C3%B6ne/groups/1");
  });

  it("refuses a missing or empty parameter", () => {
    expect(() => buildPath(group, { id: "3" })).toThrow(/getContainerGroup: missing path parameter "gid"/);
    expect(() => buildPath(group, { id: "", gid: "1" })).toThrow(/path parameter "id" must not be empty/);
  });

  it("refuses . and .. since URL normalisation would change the path", () => {
    expect(() => buildPath(group, { id: ".", gid: "1" })).toThrow(/must not be "\."/);
    expect(() => buildPath(group, { id: "3", gid: ".." })).toThrow(/must not be "\.\."/);
  });

  it("refuses parameters the template does not name, and non-string values", () => {
    expect(() => buildPath(group, { id: "3", gid: "1", container_id: "3" })).toThrow(/unknown path parameter "container_id"/);
    expect(() => buildPath(group, { id: 3 as unknown as string, gid: "1" })).toThrow(/must be a string/);
  });
});
