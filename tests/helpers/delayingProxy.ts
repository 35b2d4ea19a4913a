/**
 * A loopback HTTP proxy in front of a server, as a network whose latency jitters: each request is
 * held a random time (uniform in 0..`maxDelayMs`) once it has fully arrived before it is sent on,
 * and each answer, once it has fully arrived, a random time of its own before it is sent back. The
 * two draws are independent, so answers overtake each other and a request's round trip is anywhere
 * in 0..2 × `maxDelayMs` plus the server's own time. Status, headers and body pass unchanged
 * except the hop-by-hop headers, which belong to each connection.
 */
import { Agent, type IncomingHttpHeaders, type IncomingMessage, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface DelayingProxy {
  /** `http://127.0.0.1:<port>`, to use in place of the server's URL. */
  readonly url: string;
  /** Requests and answers it held, each with the delay drawn for it, ms. */
  readonly delays: { readonly requests: number[]; readonly answers: number[] };
  /** Stops listening and closes every connection, both ways. */
  close(): Promise<void>;
}

/** Headers of one connection (RFC 9110, 7.6.1), never passed on. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
}

function bodyOf(message: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on("data", (chunk: Buffer) => chunks.push(chunk));
    message.on("end", () => resolve(Buffer.concat(chunks)));
    message.on("error", reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a proxy to `target` (`http://host:port`) on a free loopback port. */
export async function startDelayingProxy(target: string, maxDelayMs: number, random: () => number = Math.random): Promise<DelayingProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const delays = { requests: [] as number[], answers: [] as number[] };
  const draw = (into: number[]) => {
    const ms = random() * maxDelayMs;
    into.push(ms);
    return ms;
  };

  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await bodyOf(incoming);
      await sleep(draw(delays.requests));
      const answer = await new Promise<IncomingMessage>((resolve, reject) => {
        const forwarded = request(
          {
            agent,
            host: upstream.hostname,
            port: upstream.port,
            method: incoming.method,
            path: incoming.url,
            headers: { ...endToEnd(incoming.headers), host: upstream.host, "content-length": String(body.length) },
          },
          resolve,
        );
        forwarded.on("error", reject);
        forwarded.end(body);
      });
      const answerBody = await bodyOf(answer);
      await sleep(draw(delays.answers));
      outgoing.writeHead(answer.statusCode ?? 502, { ...endToEnd(answer.headers), "content-length": String(answerBody.length) });
      outgoing.end(answerBody);
    })().catch(() => {
      // The server went away or the client gave up: drop the connection, as a network would.
      outgoing.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    delays,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
