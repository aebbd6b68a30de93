import { test } from "node:test";
import assert from "node:assert/strict";
import { restorable } from "../../src/duelclub/static/js/lobbymemory.js";

const offered = { bot_level: ["novice", "light", "strong"], move_seconds: ["60", "300"] };

test("stored choices the form still offers are restored", () => {
  const stored = JSON.stringify({ bot_level: "strong", move_seconds: "300" });
  assert.deepEqual(restorable(stored, offered), { bot_level: "strong", move_seconds: "300" });
});

test("a value or a field the form no longer offers is dropped", () => {
  const stored = JSON.stringify({ bot_level: "grandmaster", move_seconds: "60", house: "olkha" });
  assert.deepEqual(restorable(stored, offered), { move_seconds: "60" });
});

test("nothing stored, or something unreadable, restores nothing", () => {
  for (const stored of [null, "", "{", "[1]", "42", JSON.stringify({ bot_level: 3 })]) {
    assert.deepEqual(restorable(stored, offered), {});
  }
});
