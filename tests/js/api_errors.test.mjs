// node --test tests/js/ (tests/test_js_units.py runs it): static/js/api.js's errors, with fetch replaced. A
// 403 csrf says what to do in the member's words (a fresh-user run behind a proxy saw the server's English).
import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError, post } from "../../src/duelclub/static/js/api.js";

function answering(status, body) {
  globalThis.fetch = async () => new Response(JSON.stringify(body), { status });
}

test("a csrf refusal is told in Russian, other errors keep the server's message", async () => {
  answering(403, { code: "csrf", message: "cross-origin request refused" });
  const refused = await post("/api/auth/login", {}).catch((err) => err);
  assert.ok(refused instanceof ApiError);
  assert.equal(refused.code, "csrf");
  assert.equal(refused.message, "Запрос отклонён (защита от подделки). Обновите страницу.");
  answering(409, { code: "match_not_active", message: "the match is finished" });
  const other = await post("/api/matches/x/actions", {}).catch((err) => err);
  assert.equal(other.code, "match_not_active");
  assert.equal(other.message, "the match is finished");
});
