/**
 * A real `node:http` server on port 0 whose responses a test scripts, one handler call per request
 * (tests start real servers on port 0). It records every
 * request it received, so tests can count what actually reached the server.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  /** Path with query, as sent. */
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** Scripts the response to the `index`-th request (from 0). */
export type Script = (request: SeenRequest, res: ServerResponse, index: number) => void;

/** A listening scripted server. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Every request received so far, in arrival order. */
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a scripted server on `port` (0: any free port). */
export async function startScriptedServer(script: Script, port = 0): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(seen);
      script(seen, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON response. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A read envelope with one record (spec, Conventions). */
export function envelopeOf(record: Record<string, unknown>): { total: number; items: unknown[] } {
  return { total: 1, items: [record] };
}
