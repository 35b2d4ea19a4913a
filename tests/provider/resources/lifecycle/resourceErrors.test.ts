/** The error a resource operation reports: its name and code, and the client's error kept as cause. */
import { ApiNotFoundError, ApiServerError } from "../../../../provider/client";
import { ResourceOperationError, ambiguousCreateError, resourceError } from "../../../../provider/resources/lifecycle/resourceErrors";

const context = { operation: { name: "createBidStrategy", number: 3 }, method: "POST", path: "/v2/adex/bid-strategies" };

describe("ResourceOperationError", () => {
  it("states its name and code, spelled as the client's", () => {
    const cause = new ApiNotFoundError({ ...context, status: 404 });
    const error = resourceError('bid strategy "s"', cause);
    expect(error).toBeInstanceOf(ResourceOperationError);
    expect({ name: error.name, code: error.code }).toEqual({ name: "ResourceOperationError", code: "ADP_ERR_RESOURCE_OPERATION" });
    expect(error.message).toBe(`bid strategy "s": ${cause.message}`);
    expect(error.cause).toBe(cause);
  });

  it("is what an ambiguous create reports too, with the declared name to look for", () => {
    const error = ambiguousCreateError('bid strategy "s"', new ApiServerError({ ...context, status: 500 }), {
      noun: "bid strategy",
      name: "S",
    });
    expect({ name: error.name, code: error.code }).toEqual({ name: "ResourceOperationError", code: "ADP_ERR_RESOURCE_OPERATION" });
    expect(error.message).toContain('Look for a bid strategy named "S"');
  });
});
