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
  });

  it("climbs back to a rung that says it is back, on a place made anew, and steps down again at its next failure", async () => {
    const redis = { now: false };
    const made: string[] = [];
    const gaveUp: string[] = [];
    const ladder = new FallbackLadder([
      {
        make: () => (made.push("redis"), place("redis", redis)),
        giveUp: () => gaveUp.push("redis"),
        back: () => !redis.now,
      },
      { make: () => (made.push("file"), place("file", { now: false })) },
    ]);
    redis.now = true;
    await expect(ladder.run((p) => p.readLater())).resolves.toBe("file");
    await expect(ladder.run((p) => p.readLater())).resolves.toBe("file");
    redis.now = false;
    await expect(ladder.run((p) => p.readLater())).resolves.toBe("redis");
    redis.now = true;
    await expect(ladder.run((p) => p.readLater())).resolves.toBe("file");
    expect(made).toEqual(["redis", "file", "redis", "file"]);
    expect(gaveUp).toEqual(["redis", "redis"]);
  });

  it("does not try a rung again for the operation it failed, even when it says it is back", () => {
    let tries = 0;
    const ladder = new FallbackLadder([
      { make: () => ({ read: () => (tries++, place("flaky", { now: true }).read()) }), back: () => true },
      { make: () => place("file", { now: false }) },
    ]);
    expect(ladder.run((p) => p.read())).toBe("file");
    expect(tries).toBe(1);
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
