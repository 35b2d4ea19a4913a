/** The error family: names, codes, messages and plain-data forms. */
import {
  API_ERROR_CODES,
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
} from "../../provider/client";
import { errorForNetworkFailure } from "../../provider/client/networkErrors";

const context = { operation: { name: "getZone", number: 13 }, method: "GET", path: "/v2/adex/zones/1" };

describe("error family", () => {
  it("gives every class a stable name and code and makes it an ApiError", () => {
    const errors: ApiError[] = [
      new ApiValidationError({ ...context, status: 400 }),
      new ApiRequestValidationError("bad", context),
      new ApiAuthError({ ...context, status: 401 }),
      new ApiNotFoundError({ ...context, status: 404 }),
      new ApiRateLimitError({ ...context, status: 429 }),
      new ApiServerError({ ...context, status: 500 }),
      new ApiNetworkError("connection refused", { ...context, mayHaveReachedServer: false }),
      new ApiResponseError("bad body", { ...context, status: 200 }),
      new ApiConfigError("token", "no token"),
      new ApiError("409 Conflict", { ...context, status: 409 }),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toBeInstanceOf(Error);
      expect(error.code).toBe(API_ERROR_CODES[error.name as keyof typeof API_ERROR_CODES]);
    }
    expect(new Set(errors.map((e) => e.code)).size).toBe(errors.length);
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
