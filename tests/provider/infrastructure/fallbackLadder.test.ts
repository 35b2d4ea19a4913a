/** The fallback ladder on its own (`provider/infrastructure/fallbackLadder.ts`); its users' ladders are in their suites. */
import { FallbackLadder } from "../../../provider/infrastructure/fallbackLadder";

/** A place that fails while `broken` says so. */
function place(name: string, broken: { now: boolean }) {
  return {
    name,
    read(): string {
      if (broken.now) throw new Error(`${name} is down`);
      return name;
    },
    async readLater(): Promise<string> {
      await Promise.resolve();
      return this.read();
    },
  };
}

describe("the fallback ladder", () => {
  it("steps down at a rung's first failure, runs the operation again below, and says so once", async () => {
    const redis = { now: false };
    const gaveUp: string[] = [];
    const made: string[] = [];
    const ladder = new FallbackLadder([
      { make: () => (made.push("redis"), place("redis", redis)), giveUp: (e: unknown) => gaveUp.push(String(e)) },
      { make: () => (made.push("file"), place("file", { now: false })) },
    ]);
    await expect(ladder.run((p) => p.readLater())).resolves.toBe("redis");
    redis.now = true;
    await expect(ladder.run((p) => p.readLater())).resolves.toBe("file");
    redis.now = false;
    await expect(ladder.run((p) => p.readLater())).resolves.toBe("file");
    expect(gaveUp).toEqual(["Error: redis is down"]);
    expect(made).toEqual(["redis", "file"]);
    expect(ladder.steppedDown).toBe(true);
  });

  it("stays synchronous while its places answer synchronously", () => {
    const ladder = new FallbackLadder([{ make: () => place("a", { now: true }) }, { make: () => place("b", { now: false }) }]);
    expect(ladder.run((p) => p.read())).toBe("b");
  });

  it("passes on the last rung's failure", () => {
    const ladder = new FallbackLadder([{ make: () => place("only", { now: true }) }]);
    expect(() => ladder.run((p) => p.read())).toThrow("only is down");
  });
});
