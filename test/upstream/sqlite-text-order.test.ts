/**
 * A mirror's merges order text keys as each file's ORDER BY did (docs/decisions.md#national-mirror):
 * `sqliteTextOrder` against SQLite's own ORDER BY of the same values, ASCII keys and text past U+D800.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { sqliteTextOrder } from "../../src/upstream/sda/rows";

test("text keys are ordered as SQLite orders them", () => {
  const values = ["02N0245", "99Z0001", "99z0001", "40A1694", "", "a", "ab", "B", "é", "\ue000", "\uffff", "\u{1f600}", "z\u{1f600}", "z\uffff"];
  const db = new Database(":memory:");
  db.run("CREATE TABLE t (v TEXT)");
  for (const v of values) db.query("INSERT INTO t VALUES (?)").run(v);
  const bySqlite = db.query<{ v: string }, []>("SELECT v FROM t ORDER BY v").all().map((r) => r.v);
  db.close();
  expect([...values].sort(sqliteTextOrder)).toEqual(bySqlite);
  // JavaScript's own order puts U+E000 and U+FFFF after an astral character; SQLite (UTF-8 bytes) before it.
  expect([...values].sort()).not.toEqual(bySqlite);
});
