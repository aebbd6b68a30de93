// node --test tests/js/ (run by tests/test_js_units.py): the tournament page's pure words.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  byeText,
  cancelledText,
  clockText,
  crosstableLegend,
  crosstableRows,
  localTime,
  maxSwissRounds,
  points,
  resultText,
  roundsCutText,
  roundsWarningText,
  standingsLegend,
  rulesText,
  tournamentTitle,
  waitingText,
} from "../../src/duelclub/static/js/tournament_words.js";

test("points are written with halves", () => {
  assert.equal(points(0), "0");
  assert.equal(points(0.5), "½");
  assert.equal(points(2.5), "2½");
  assert.equal(points(3), "3");
});

test("a bye row says «отдыхает» once: the row's words, and +1 as its result", () => {
  assert.equal(byeText(), "отдыхает в этом туре");
  assert.equal(resultText({ result: null, seats: ["a", null] }), "+1");
  assert.equal(resultText({ result: "bye", seats: ["a", null] }), "+1");
  assert.doesNotMatch(resultText({ result: "bye", seats: ["a", null] }), /отдых/);
  assert.equal(resultText({ result: null, seats: ["a", "b"] }), "…");
  assert.equal(resultText({ result: "1-0", seats: ["a", "b"] }), "1-0");
});

test("a Swiss the server cut at its start says so; one that plays all its rounds says nothing", () => {
  const players = [{}, {}];
  const cut = { format: "swiss", status: "running", planned_rounds: 3, total_rounds: 1, players };
  assert.match(roundsCutText(cut), /^Туров будет 1, а не 3: к началу записалось 2 участника/);
  assert.equal(roundsCutText({ ...cut, total_rounds: 3 }), "");
  assert.equal(roundsCutText({ ...cut, format: "round_robin" }), "");
  assert.equal(roundsCutText({ ...cut, status: "open" }), "");
  assert.match(rulesText(cut), /^1 тур\./, "the rules tell the rounds it plays");
});

test("an open scheduled Swiss warns while its players allow fewer rounds", () => {
  const open = { format: "swiss", status: "open", starts_at: "2026-12-06T18:00:00Z", planned_rounds: 5, players: [{}, {}, {}, {}] };
  assert.match(roundsWarningText(open), /туров будет 3, а не 5/);
  assert.equal(roundsWarningText({ ...open, players: Array(6).fill({}) }), "");
  assert.equal(roundsWarningText({ ...open, starts_at: null }), "", "a manual start is refused instead");
  assert.equal(maxSwissRounds(4), 3);
  assert.equal(maxSwissRounds(5), 5);
  assert.equal(maxSwissRounds(1), 0);
});

test("a tournament the server cancelled at its start time says why", () => {
  const tr = { status: "cancelled", started_at: null, starts_at: "2026-12-06T18:00:00Z", finished_at: "2026-12-06T18:00:02Z", players: [{}] };
  assert.match(cancelledText(tr), /меньше двух участников/);
  assert.equal(cancelledText({ ...tr, finished_at: "2026-12-06T17:00:00Z" }), "", "the organiser cancelled it before");
  assert.equal(cancelledText({ ...tr, starts_at: null }), "");
  assert.equal(cancelledText({ ...tr, status: "finished" }), "");
});

test("the arena's countdown reads as a clock", () => {
  assert.equal(clockText(7_000), "0:07");
  assert.equal(clockText(754_000), "12:34");
  assert.equal(clockText(3_725_000), "1:02:05");
  assert.equal(clockText(-5), "0:00");
  assert.equal(clockText(1), "0:01", "a part of a second left is still a second");
});

test("a moment is written in the reader's language and local time", () => {
  const now = new Date("2026-12-06T10:00:00Z");
  const iso = "2026-12-06T18:30:00Z";
  assert.match(localTime(iso, "ru", now), /декабря/);
  assert.match(localTime(iso, "uk", now), /грудня/);
  assert.match(localTime(iso, "ru", now), new RegExp(String(new Date(iso).getHours()).padStart(2, "0") + ":30"));
  assert.doesNotMatch(localTime(iso, "ru", now), /2026/);
  assert.match(localTime("2027-01-02T10:00:00Z", "ru", now), /2027/);
  assert.equal(localTime(null), "");
});

test("each format explains its own rules", () => {
  assert.match(rulesText({ format: "round_robin", double: false }), /Бергера/);
  assert.match(rulesText({ format: "round_robin", double: true }), /дважды/);
  assert.match(rulesText({ format: "swiss", rounds: 5 }), /^5 туров\./);
  assert.match(rulesText({ format: "swiss", rounds: 3 }), /^3 тура\./);
  const arena = rulesText({ format: "arena", minutes: 60 });
  assert.match(arena, /60 минут/);
  assert.match(arena, /вдвойне/);
});

test("a nameless tournament is named by its format and game", () => {
  assert.equal(tournamentTitle({ name: "", format: "swiss", game: "towers" }, "Дві вежі"), "Швейцарская система: Дві вежі");
  assert.equal(tournamentTitle({ name: "Вечер", format: "arena" }, "x"), "Вечер");
});

test("a player with no match in play reads why: a bye, a game already over, an arena's next pairing", () => {
  const players = [{ number: 1, username: "ann" }, { number: 2, username: "ben" }, { number: 3, username: "cat" }];
  const rounds = [{ number: 1, pairings: [{ seats: ["ben", "cat"], result: null }, { seats: ["ann", null], result: "bye" }] }];
  const tr = (you, extra = {}) => ({ status: "running", format: "round_robin", current_round: 1, total_rounds: 3, players, rounds, you, ...extra });
  const ann = { joined: true, number: 1, withdrawn: false, match_id: null };
  assert.equal(
    waitingText(tr(ann)),
    "В этом туре вы отдыхаете и получаете 1 очко. Следующий тур начнётся, когда закончатся все партии этого тура.",
  );
  const done = [{ number: 3, pairings: [{ seats: ["ann", "ben"], result: "1-0" }, { seats: ["cat", null], result: "bye" }] }];
  assert.equal(
    waitingText(tr(ann, { current_round: 3, rounds: done })),
    "Ваша партия этого тура окончена. Итоги — когда закончатся все партии этого тура.",
  );
  assert.equal(waitingText(tr({ ...ann, match_id: "m1" })), "", "a match in play: «Ваша партия готова» instead");
  assert.equal(waitingText(tr({ ...ann, withdrawn: true })), "");
  assert.equal(waitingText(tr({ joined: false, number: null })), "", "a spectator");
  assert.equal(waitingText(tr(ann, { status: "paused" })), "");
  assert.equal(waitingText(tr(ann, { format: "arena" })), "Подбираем вам соперника: партия начнётся, как только он освободится.");
});

test("the crosstable follows the standings' order, numbered as the standings are, with the byes", () => {
  const tr = {
    standings: [{ username: "cat" }, { username: "ann" }, { username: "ben" }],
    crosstable: [
      { username: "ann", cells: { ben: ["1"], cat: ["0"] }, byes: [] },
      { username: "ben", cells: { ann: ["0"] }, byes: [2] },
      { username: "cat", cells: { ann: ["1"], ben: ["*"] }, byes: [] },
    ],
  };
  assert.deepEqual(crosstableRows(tr), [
    { place: 1, username: "cat", cells: ["×", "1", "*"], byes: "" },
    { place: 2, username: "ann", cells: ["0", "×", "1"], byes: "" },
    { place: 3, username: "ben", cells: ["", "0", "×"], byes: "+1" },
  ]);
  assert.match(crosstableLegend(), /\* — партия идёт/);
  assert.match(crosstableLegend(), /\+1 — отдых в туре/);
});


test("the standings explain points without a game only once there is one", () => {
  const played = { rounds: [{ pairings: [{ seats: ["a", "b"], forfeit: false }] }] };
  assert.equal(standingsLegend(played), "");
  assert.equal(standingsLegend({}), "");
  const forfeit = { rounds: [{ pairings: [{ seats: ["a", "b"], forfeit: true }] }] };
  assert.match(standingsLegend(forfeit), /входит в «Побед», но не в «Сыграно»/);
  const bye = { rounds: [{ pairings: [{ seats: ["a", null], forfeit: false }] }] };
  assert.match(standingsLegend(bye), /отдых в туре даёт очко без партии/);
});
