/**
 * The HTTP server: node:http, one dispatch between the inspection surface and the API pipeline, and
 * the guards that keep it serving after garbage (malformed HTTP, aborted bodies, bugs).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { handleApi, uncountedRateHeaders } from "./apiHandler";
import { errorBody } from "./errors";
import { sendJson } from "./http";
import { handleInspection } from "./inspection";
import { inspectionAccess, type InspectionAccess } from "./inspectionAccess";
import type { Simulation } from "./simulation";

/** Paths under this prefix are the inspection surface, never API operations. */
export const INSPECTION_PREFIX = "/_sim/";

const urlOf = (req: IncomingMessage) => new URL(req.url ?? "/", "http://simulator.invalid");
const isInspection = (req: IncomingMessage) => urlOf(req).pathname.startsWith(INSPECTION_PREFIX);

/** The `/_sim/*` policy of a listening `server`, from the address it is bound to. */
export function inspectionAccessOf(server: Server, sim: Simulation): InspectionAccess {
  return inspectionAccess((server.address() as AddressInfo).address, sim.options.adminToken);
}

async function dispatch(sim: Simulation, server: Server, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = urlOf(req);
  if (url.pathname.startsWith(INSPECTION_PREFIX)) return handleInspection(sim, inspectionAccessOf(server, sim), req, res, url);
  return handleApi(sim, req, res, url);
}

/** A server for `sim`, not yet listening. */
export function createSimulatorServer(sim: Simulation): Server {
  const server: Server = createServer((req, res) => {
    dispatch(sim, server, req, res).catch((err: unknown) => {
      // An aborted request or a bug: answer 500 when the socket still can, and keep serving.
      if (!res.headersSent && !res.destroyed && req.socket.writable) {
        const rate = isInspection(req) ? {} : uncountedRateHeaders(sim, req, res);
        sendJson(res, 500, { ...errorBody(500, `simulator error: ${(err as Error).message}`) }, rate);
      } else {
        res.destroy();
      }
    });
  });
  // Malformed HTTP (garbage bytes, bad headers): answer 400 and close that connection only.
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && err.code !== "ECONNRESET") {
      const body = JSON.stringify(errorBody(400, "malformed HTTP request"));
      socket.end(
        "HTTP/1.1 400 Bad Request\r\n" +
          "Content-Type: application/json\r\n" +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          "Connection: close\r\n" +
          `\r\n${body}`,
      );
    } else {
      socket.destroy();
    }
  });
  return server;
}
