// node --test tests/js/: static/js/rulespanel.js picks the rules part by the game's hook from GET /api/games
// (`rules_panel`, the game's words: duelclub.words RulesPage), with no table of games of its own.
import assert from "node:assert/strict";
import { test } from "node:test";

import { rulesPart } from "../../src/duelclub/static/js/rulespanel.js";

const WARCHEST = { default: "actions", by_phase: { draft: "units" } };
const MEZHA = { default: "turn", by_phase: { pause: "scoring" } };
const TOWERS = { default: "turn", by_phase: {} };

test("the phase's part, else the game's default", () => {
  assert.equal(rulesPart(WARCHEST, { phase: "draft" }), "units");
  assert.equal(rulesPart(WARCHEST, { phase: "main" }), "actions");
  assert.equal(rulesPart(MEZHA, { phase: "pause" }), "scoring");
  assert.equal(rulesPart(MEZHA, { phase: "season" }), "turn");
  assert.equal(rulesPart(TOWERS, { phase: "extra" }), "turn");
});

test("the goal before the first view or without a hook", () => {
  assert.equal(rulesPart(MEZHA, null), "goal");
  assert.equal(rulesPart(null, { phase: "pause" }), "goal");
  assert.equal(rulesPart({ by_phase: {} }, { phase: "x" }), "goal");
});

test("a phase named like an Object property is not a part", () => {
  assert.equal(rulesPart(MEZHA, { phase: "constructor" }), "turn");
  assert.equal(rulesPart(MEZHA, { phase: "__proto__" }), "turn");
  assert.equal(rulesPart(MEZHA, {}), "turn");
});
