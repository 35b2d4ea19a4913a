/** A loopback port nothing listens on, for a request that must be refused without reaching anything. */
import * as net from "node:net";

/** A loopback port nothing listens on: one the OS just handed out and took back. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
