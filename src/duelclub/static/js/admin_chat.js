// Admins and the match chat (issue 16 §5): on /admin the queue of reported messages — hide the message and/or
// mute its author for a period, or keep it; on an admin match page the match's whole chat, hidden messages
// marked.

import { el, get, post, toast } from "./api.js";
import { t } from "./i18n.js";

const MUTES = [
  [0, t("без запрета")],
  [60, t("на час")],
  [1440, t("на сутки")],
  [10080, t("на неделю")],
];
const CHANNEL = { players: t("игроки"), spectators: t("зрители") };

function line(m) {
  return el(
    "div",
    { class: "report-msg" },
    el("b", {}, m.username),
    el("span", { class: "muted small" }, ` · ${CHANNEL[m.channel] || m.channel} · ${new Date(m.at).toLocaleString()}`),
    el("p", { class: `report-msg__text${m.hidden ? " is-hidden" : ""}` }, m.text),
    m.hidden ? el("span", { class: "chip" }, t("скрыто администратором")) : null,
  );
}

async function queue(box) {
  const count = document.getElementById("chat-reports-count");
  let items;
  try {
    items = await get("/api/admin/chat/reports");
  } catch (err) {
    count.textContent = err.message;
    return;
  }
  count.textContent = items.length ? t("Открытых жалоб: {n}", { n: items.length }) : t("Жалоб нет");
  box.replaceChildren(
    ...items.map((r) => {
      const select = el("select", { class: "report-mute", "aria-label": t("Запрет писать в чат") }, ...MUTES.map(([v, label]) => el("option", { value: String(v) }, label)));
      const act = async (hide) => {
        try {
          await post(`/api/admin/chat/${r.message.id}/settle`, { hide, mute_minutes: Number(select.value) });
          toast(hide ? t("Сообщение скрыто.") : t("Сообщение оставлено."), "info");
          queue(box);
        } catch (err) {
          toast(err.message);
        }
      };
      return el(
        "li",
        { class: "report", dataset: { message: String(r.message.id) } },
        line(r.message),
        el("p", { class: "small muted" }, t("Пожаловался: {who}; жалоб: {n}; ", { who: r.reporter, n: r.reports }), el("a", { href: `/admin/matches/${encodeURIComponent(r.match_id)}` }, t("партия"))),
        el(
          "div",
          { class: "row" },
          el("button", { type: "button", class: "btn btn-danger btn-small report-hide", onclick: () => act(true) }, t("Скрыть")),
          el("button", { type: "button", class: "btn btn-secondary btn-small report-keep", onclick: () => act(false) }, t("Оставить")),
          select,
        ),
      );
    }),
  );
}

async function matchLog(box, matchId) {
  try {
    const messages = await get(`/api/admin/matches/${encodeURIComponent(matchId)}/chat`);
    box.replaceChildren(...(messages.length ? messages.map((m) => el("li", {}, line(m))) : [el("li", { class: "muted" }, t("Сообщений нет."))]));
  } catch (err) {
    box.replaceChildren(el("li", { class: "form-error" }, err.message));
  }
}

const reports = document.getElementById("report-list");
if (reports) queue(reports);
const log = document.getElementById("chat-log");
const page = document.getElementById("admin-match");
if (log && page) matchLog(log, page.dataset.matchId);
