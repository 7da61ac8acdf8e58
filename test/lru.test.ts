import { describe, expect, test } from "bun:test";
import { Lru, Memo } from "../src/lru";

const keys = (lru: Lru<string, number>, candidates: string[]) => candidates.filter((key) => lru.get(key) !== undefined);

describe("Lru", () => {
  test("evicts the least recently used entry by count", () => {
    const lru = new Lru<string, number>(3, 1_000);
    lru.set("a", 1, 1);
    lru.set("b", 2, 1);
    lru.set("c", 3, 1);
    expect(lru.get("a")).toBe(1); // a is now the newest
    lru.set("d", 4, 1); // evicts b, the oldest
    expect(lru.get("b")).toBeUndefined();
    expect(keys(lru, ["a", "c", "d"])).toEqual(["a", "c", "d"]);
  });

  test("evicts by weight, oldest first, and an entry heavier than the bound is not kept", () => {
    const lru = new Lru<string, number>(100, 10);
    lru.set("a", 1, 4);
    lru.set("b", 2, 4);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3, 4); // 12 > 10: b goes, a was used
    expect(lru.get("b")).toBeUndefined();
    expect(lru.weight).toBe(8);
    lru.set("huge", 9, 11);
    expect(lru.get("huge")).toBeUndefined();
  });

  test("an entry used on every round survives a long stream of new entries, also when weight holds the map far below its count bound", () => {
    // 1,000 entries allowed, but weight keeps only 8: the refresh rule must follow the map's real size.
    const lru = new Lru<string, number>(1_000, 8);
    lru.set("hot", 0, 1);
    for (let i = 0; i < 5_000; i++) {
      lru.set(`cold${i}`, i, 1);
      expect(lru.get("hot")).toBe(0);
    }
    expect(lru.size).toBe(8);
    // The oldest of the cold ones went first.
    expect(lru.get("cold4992")).toBeUndefined();
    expect(lru.get("cold4999")).toBe(4999);
  });

  test("a large map keeps a used entry whether or not the use moved it", () => {
    const lru = new Lru<string, number>(400, 1_000_000);
    for (let i = 0; i < 400; i++) lru.set(`k${i}`, i, 1);
    // k0 is the oldest; using it makes it safe from the next eviction.
    expect(lru.get("k0")).toBe(0);
    lru.set("new", -1, 1);
    expect(lru.get("k0")).toBe(0);
    expect(lru.get("k1")).toBeUndefined();
    // k399 was set last: using it moves nothing, and it stays.
    expect(lru.get("k399")).toBe(399);
    for (let i = 0; i < 50; i++) lru.set(`more${i}`, i, 1);
    expect(lru.get("k399")).toBe(399);
  });
});

describe("Memo", () => {
  test("derives a key's value once, and again only after it was emptied for being full", () => {
    const memo = new Memo<string, number>(2);
    let made = 0;
    const make = (key: string) => (made++, key.length);
    expect([memo.of("a", make), memo.of("bb", make), memo.of("a", make), memo.of("bb", make)]).toEqual([1, 2, 1, 2]);
    expect(made).toBe(2);
    expect(memo.of("ccc", make)).toBe(3); // full: emptied, then "ccc" kept
    expect(made).toBe(3);
    expect(memo.of("a", make)).toBe(1);
    expect(made).toBe(4);
  });

  test("a key whose derivation throws is not kept", () => {
    const memo = new Memo<string, number>(4);
    let calls = 0;
    const fail = () => {
      calls++;
      throw new Error("bad");
    };
    expect(() => memo.of("x", fail)).toThrow("bad");
    expect(() => memo.of("x", fail)).toThrow("bad");
    expect(calls).toBe(2);
  });
});
