import { foldRuns, median, spreadOf } from "../../bench/repeat";

describe("median", () => {
  test("odd count: the middle value, whatever the order", () => expect(median([3, 1, 2])).toBe(2));
  test("even count: the mean of the two middle values", () => expect(median([4, 1, 3, 2])).toBe(2.5));
  test("even count: the mean as it prints, without binary float noise", () => expect(median([0.1, 0.2])).toBe(0.15));
  test("one value", () => expect(median([7])).toBe(7));
  test("no values is an error, not NaN", () => expect(() => median([])).toThrow("median of no values"));
});

describe("foldRuns", () => {
  const runs = [
    { seconds: 10, ratio: 1.05, r429: 0, failures: 0 },
    { seconds: 16, ratio: 1.64, r429: 358, failures: 0 },
    { seconds: 10.2, ratio: 1.07, r429: 2, failures: 1 },
  ];

  test("an outlier run does not move the median", () => {
    const folded = foldRuns(runs);
    expect(folded.ratio).toBe(1.07);
    expect(folded.seconds).toBe(10.2);
    expect(folded.r429).toBe(2);
    expect(folded.runs).toBe(3);
  });

  test("failures are the worst run's: no failures must hold in every run", () => {
    expect(foldRuns(runs).failures).toBe(1);
  });

  test("spread keeps min, median and max of every number", () => {
    expect(foldRuns(runs).spread.ratio).toEqual(spreadOf([1.05, 1.64, 1.07]));
    expect(foldRuns(runs).spread.ratio).toEqual({ min: 1.05, median: 1.07, max: 1.64 });
  });
});
