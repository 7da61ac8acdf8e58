import { describe, expect, test } from "bun:test";
import { cursorBinding, decodeCursor, encodeCursor, isLoamCursor } from "../../src/domain/cursor";
import { ValidationError } from "../../src/errors";

describe("explicit cursors", () => {
  const binding = cursorBinding({ collection: "pedons", bbox: [-96, 38.5, -95, 39.5], provider: "usda_kssl" });

  test("a cursor is URL-safe and gives back the position it was made with", () => {
    const cursor = encodeCursor(binding, "02N0245");
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, binding)).toBe("02N0245");
  });

  test("a whole next link (path or absolute URL) given as cursor is read for its cursor parameter; the binding still holds", () => {
    const cursor = encodeCursor(binding, "02N0245");
    expect(decodeCursor(`/v1/pedons?bbox=-96,38.5,-95,39.5&cursor=${cursor}`, binding)).toBe("02N0245");
    expect(decodeCursor(`http://127.0.0.1:3000/ogc/collections/pedons/items?limit=10&cursor=${cursor}`, binding)).toBe("02N0245");
    expect(isLoamCursor(`http://127.0.0.1:3000/ogc/collections/pedons/items?cursor=${cursor}`)).toBe(true);
    const other = cursorBinding({ collection: "pedons", bbox: [-96, 38, -95, 39.5], provider: "usda_kssl" });
    expect(() => decodeCursor(`/v1/pedons?cursor=${cursor}`, other)).toThrow(ValidationError);
    // A link without a cursor is not one.
    expect(() => decodeCursor("/v1/pedons?bbox=-96,38.5,-95,39.5", binding)).toThrow(ValidationError);
    expect(isLoamCursor("abc")).toBe(false);
  });

  test("the binding ignores member order but not values", () => {
    expect(cursorBinding({ b: 1, a: [1, 2] })).toBe(cursorBinding({ a: [1, 2], b: 1 }));
    expect(cursorBinding({ a: [1, 2] })).not.toBe(cursorBinding({ a: [1, 3] }));
  });

  test("a cursor replayed with another query is a 422 that says so", () => {
    const other = cursorBinding({ collection: "pedons", bbox: [-96, 38, -95, 39.5], provider: "usda_kssl" });
    const cursor = encodeCursor(binding, "02N0245");
    expect(() => decodeCursor(cursor, other)).toThrow(ValidationError);
    expect(() => decodeCursor(cursor, other)).toThrow(/another query/);
  });

  test("an edited or foreign cursor is a 422", () => {
    const cursor = encodeCursor(binding, "02N0245");
    const [v, , b, c] = JSON.parse(Buffer.from(cursor, "base64url").toString());
    const edited = Buffer.from(JSON.stringify([v, "99Z9999", b, c])).toString("base64url");
    expect(() => decodeCursor(edited, binding)).toThrow(/altered/);
    for (const bad of ["", "abc", "!!", "x".repeat(600), Buffer.from("[1,2]").toString("base64url")]) {
      expect(() => decodeCursor(bad, binding, "cursor")).toThrow(ValidationError);
    }
  });
});
