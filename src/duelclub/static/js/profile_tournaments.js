// A profile's «Турниры» (issue 26 §Pages): the tournaments the member entered, newest first
// (GET /api/tournaments?member=…). Hook: #member-tournament-items[data-loaded].
import { el, get } from "./api.js";
import { gameTitle } from "./gamesinfo.js";
import { t } from "./i18n.js";
import { formatName, statusName, tournamentTitle } from "./tournament_words.js";

const box = document.getElementById("member-tournament-items");
const member = document.getElementById("profile").dataset.username;

async function show() {
  let items = [];
  try {
    items = await get(`/api/tournaments?member=${encodeURIComponent(member)}`);
  } catch (_err) {
    return;
  }
  box.replaceChildren(
    ...(items.length
      ? items.map((tr) =>
          el(
            "li",
            { dataset: { id: tr.id } },
            // as the lobby's list draws it: the facts wrap under the name on a phone, so no leading « · »
            el("a", { href: `/tournaments/${encodeURIComponent(tr.id)}`, class: "tournament-link" }, tournamentTitle(tr, gameTitle(tr.game))),
            el("span", { class: "small muted" }, " " + [gameTitle(tr.game), formatName(tr.format), tr.options_text, statusName(tr.status)].filter(Boolean).join(" · ")),
          ),
        )
      : [el("li", { class: "empty" }, t("Пока ни одного турнира."))]),
  );
  box.dataset.loaded = "1";
}

show();
