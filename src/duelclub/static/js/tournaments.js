// /tournaments: the list (tournament_list.js, re-read at most once per LIST_WAIT_MS however many changes the
// lobby socket reports) and the form that creates a tournament (POST /api/tournaments), then opens its page.
// A refusal reads in the page language (tournament_errors.js).
import { post, toast } from "./api.js";
import { LIST_WAIT_MS, coalesce } from "./coalesce.js";
import { refusalText } from "./tournament_errors.js";
import { followLobby, refreshList, setUpList } from "./tournament_list.js";

const form = document.getElementById("tournament-form");

function selected(name) {
  const input = form.querySelector(`input[name="${name}"]:checked`);
  return input ? input.value : null;
}

function showFields() {
  const fmt = selected("format");
  for (const node of form.querySelectorAll("[data-for]")) node.hidden = !node.dataset.for.split(" ").includes(fmt);
  const game = form.querySelector('input[name="game"]:checked');
  for (const box of form.querySelectorAll(".tournament-options")) box.hidden = box.dataset.game !== game.value;
  document.getElementById("tournament-rated").hidden = game.dataset.rated !== "1";
}

function body() {
  const game = selected("game");
  const options = {};
  const box = form.querySelector(`.tournament-options[data-game="${game}"]`);
  for (const fs of box.querySelectorAll("fieldset[data-option]")) {
    const name = fs.dataset.option;
    const input = fs.querySelector("input:checked");
    if (name !== "move_seconds" && input) options[name] = input.value;
  }
  const clock = box.querySelector(`input[name="${game}-move_seconds"]:checked`);
  const fmt = selected("format");
  const num = (name) => Number(form.elements[name].value) || null;
  const startsAt = form.elements.starts_at.value;
  return {
    game,
    format: fmt,
    name: form.elements.name.value.trim(),
    options,
    rated: form.elements.rated.checked,
    move_seconds: clock && clock.value ? Number(clock.value) : null,
    max_players: num("max_players"),
    rounds: fmt === "swiss" ? num("rounds") : null,
    minutes: fmt === "arena" ? num("minutes") : null,
    round_minutes: fmt === "arena" ? null : num("round_minutes"),
    double: fmt === "round_robin" && form.elements.double.checked,
    starts_at: startsAt ? new Date(startsAt).toISOString() : null,
  };
}

form.addEventListener("change", showFields);
form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const button = document.getElementById("create-tournament");
  button.disabled = true;
  const asked = body();
  try {
    const created = await post("/api/tournaments", asked);
    location.href = `/tournaments/${encodeURIComponent(created.id)}`;
  } catch (err) {
    const ctx = { action: "create", players: asked.max_players || 64, rounds: asked.rounds, maxPlayers: asked.max_players };
    toast(refusalText(err, ctx));
    button.disabled = false;
  }
});
showFields();
setUpList();
followLobby(coalesce(refreshList, LIST_WAIT_MS));
