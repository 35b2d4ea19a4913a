/** The error family: names, codes, messages and plain-data forms. */
import {
  ApiAuthError,
  ApiConfigError,
  ApiError,
  ApiNetworkError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiRequestValidationError,
  ApiResponseError,
  ApiServerError,
  ApiValidationError,
} from "../../../provider/client";
import { errorForNetworkFailure } from "../../../provider/client/networkErrors";

const context = { operation: { name: "getZone", number: 13 }, method: "GET", path: "/v2/adex/zones/1" };

describe("error family", () => {
  it("gives every class its own stable name and code and makes it an ApiError", () => {
    const errors: [ApiError, string, string][] = [
      [new ApiValidationError({ ...context, status: 400 }), "ApiValidationError", "ADP_ERR_VALIDATION"],
      [new ApiRequestValidationError("bad", context), "ApiRequestValidationError", "ADP_ERR_REQUEST_INVALID"],
      [new ApiAuthError({ ...context, status: 401 }), "ApiAuthError", "ADP_ERR_AUTH"],
      [new ApiNotFoundError({ ...context, status: 404 }), "ApiNotFoundError", "ADP_ERR_NOT_FOUND"],
      [new ApiRateLimitError({ ...context, status: 429 }), "ApiRateLimitError", "ADP_ERR_RATE_LIMIT"],
      [new ApiServerError({ ...context, status: 500 }), "ApiServerError", "ADP_ERR_SERVER"],
      [new ApiNetworkError("connection refused", { ...context, mayHaveReachedServer: false }), "ApiNetworkError", "ADP_ERR_NETWORK"],
      [new ApiResponseError("bad body", { ...context, status: 200 }), "ApiResponseError", "ADP_ERR_RESPONSE"],
      [new ApiConfigError("token", "no token"), "ApiConfigError", "ADP_ERR_CONFIG"],
      [new ApiError("409 Conflict", { ...context, status: 409 }), "ApiError", "ADP_ERR_HTTP"],
    ];
    for (const [error, name, code] of errors) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toBeInstanceOf(Error);
      expect({ name: error.name, code: error.code }).toEqual({ name, code });
      expect(error.stack?.startsWith(`${name}: `)).toBe(true);
    }
    expect(new Set(errors.map(([e]) => e.code)).size).toBe(errors.length);
  });

  it("reads like `operation (METHOD path) failed: status title: message (trace_id ...)`", () => {
    const error = new ApiNotFoundError({ ...context, status: 404, serverMessage: "no such zone", traceId: "abc" });
    expect(error.message).toBe("getZone (GET /v2/adex/zones/1) failed: 404 Not Found: no such zone (trace_id abc)");
    const network = new ApiNetworkError("connection refused (ECONNREFUSED)", { ...context, mayHaveReachedServer: false });
    expect(network.message).toBe("getZone (GET /v2/adex/zones/1) failed: connection refused (ECONNREFUSED)");
  });

  it("serialises to plain data without undefined fields or a stack", () => {
    const error = new ApiServerError({ ...context, status: 500, title: "Internal Server Error", attempts: 5 });
    const data = error.toJSON();
    expect(data).toEqual({
      name: "ApiServerError",
      code: "ADP_ERR_SERVER",
      message: "getZone (GET /v2/adex/zones/1) failed: 500 Internal Server Error",
      status: 500,
      title: "Internal Server Error",
      operation: { name: "getZone", number: 13 },
      method: "GET",
      path: "/v2/adex/zones/1",
      attempts: 5,
    });
    expect(JSON.parse(JSON.stringify(error))).toEqual(data);
  });

  it("says whether a network failure may have reached the server", () => {
    expect(new ApiNetworkError("x", { mayHaveReachedServer: false }).mayHaveReachedServer).toBe(false);
    expect(new ApiNetworkError("x", { mayHaveReachedServer: true, timeout: "headers" })).toMatchObject({
      mayHaveReachedServer: true,
      timeout: "headers",
    });
  });

  it("treats refused connections and connect timeouts as not sent, everything else as maybe sent", () => {
    const facts = { requestTimedOut: false, responseStarted: false };
    const failure = (code: string, wrapped = false) => {
      const inner = Object.assign(new Error(code), { code });
      return wrapped ? Object.assign(new Error("fetch failed"), { code: "UND_ERR", cause: inner }) : inner;
    };
    expect(errorForNetworkFailure(failure("ECONNREFUSED"), facts, context).mayHaveReachedServer).toBe(false);
    expect(errorForNetworkFailure(failure("ECONNREFUSED", true), facts, context).mayHaveReachedServer).toBe(false);
    expect(errorForNetworkFailure(failure("UND_ERR_CONNECT_TIMEOUT"), facts, context)).toMatchObject({
      mayHaveReachedServer: false,
      timeout: "connect",
    });
    for (const code of ["ECONNRESET", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "EPIPE", "SOMETHING_NEW"]) {
      expect(errorForNetworkFailure(failure(code), facts, context).mayHaveReachedServer).toBe(true);
    }
    // A refusal reported after the response started cannot be a refusal before sending.
    expect(errorForNetworkFailure(failure("ECONNREFUSED"), { ...facts, responseStarted: true }, context).mayHaveReachedServer).toBe(true);
  });
});
