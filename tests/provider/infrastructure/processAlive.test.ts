/** `processAlive` (`provider/infrastructure/processAlive.ts`) against this process and a child that ended. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { processAlive } from "../../../provider/infrastructure/processAlive";

it("is true for a running process and false once it has exited", async () => {
  expect(processAlive(process.pid)).toBe(true);
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  expect(processAlive(child.pid!)).toBe(false);
});
