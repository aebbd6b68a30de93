// The match chat (issue 16 §5): a panel beside the log. Players write to the players' channel; spectators to
// the spectators' one, which players only see once the match has ended (the server decides who sees what:
// play/chat.py). Messages ≤ 200 characters; quick phrases; «Скрыть соперника» mutes the opponent in this
// browser; «Пожаловаться» sends a message to the admins' queue; «Заблокировать» blocks the opponent (issue 28
// §5: the chat between the two closes, and they are not seated together again until the block is lifted on
// the account page). No chat in matches with a bot.
// History over HTTP, new messages over the match socket ({type: "chat"} / {type: "chat_hidden"}).

import { el, get, post, toast } from "./api.js";
import { confirmBlock, setBlocked, toggleText } from "./blocks.js";
import { t } from "./i18n.js";

const MAX = 200;
const QUICK = [t("Удачи!"), t("Хорошая игра"), t("Спасибо")];
const MUTE_KEY = "duelclub.chatMute.";
const ERRORS = {
  chat_rate_limited: t("Слишком часто — подождите несколько секунд."),
  muted: t("Администратор временно запретил вам писать в чат."),
  bad_message: t("Сообщение — от 1 до 200 символов."),
  no_chat: t("В этой партии чата нет."),
};

export class MatchChat {
  constructor(matchId, before, username) {
    this.matchId = matchId;
    this.username = username;
    this.before = before;
    this.channel = null;
    this.ids = new Set();
    this.muted = localStorage.getItem(MUTE_KEY + matchId) === "1";
    this.tab = "players";
    this.load();
    document.addEventListener("match-ended", () => {
      if (!this.ended) {
        this.ended = true;
        this.load(); // the spectators' channel opens to the players
      }
    });
  }

  async load() {
    let data;
    try {
      data = await get(`/api/matches/${encodeURIComponent(this.matchId)}/chat`);
    } catch (_err) {
      return;
    }
    if (!data.enabled) {
      if (this.panel) this.panel.hidden = true;
      return;
    }
    this.channel = data.channel;
    this.opponent = data.opponent || null;
    if (!this.panel) this.build();
    if (this.blockBtn) this.showBlocked(Boolean(data.opponent_blocked));
    this.lists.players.replaceChildren();
    this.lists.spectators.replaceChildren();
    this.ids.clear();
    for (const m of data.messages) this.add(m);
    const spectatorsVisible = this.channel !== "players" || data.messages.some((m) => m.channel === "spectators") || this.ended;
    this.tabs.spectators.hidden = !spectatorsVisible;
    if (this.channel === "spectators") this.show("spectators");
  }

  build() {
    const mk = (id, text) => el("button", { type: "button", role: "tab", class: "chat-tab", id: `chat-tab-${id}`, "aria-selected": "false" }, text);
    this.tabs = { players: mk("players", t("Игроки")), spectators: mk("spectators", t("Зрители")) };
    this.lists = {
      players: el("ol", { class: "chat-list", id: "chat-players", "aria-live": "polite", role: "tabpanel" }),
      spectators: el("ol", { class: "chat-list", id: "chat-spectators", "aria-live": "polite", role: "tabpanel", hidden: true }),
    };
    for (const k of ["players", "spectators"]) this.tabs[k].addEventListener("click", () => this.show(k));
    this.input = el("input", { type: "text", id: "chat-input", maxlength: String(MAX), autocomplete: "off", "aria-label": t("Сообщение"), placeholder: t("Сообщение…") });
    this.count = el("span", { class: "chat-count small muted", id: "chat-count" }, `0/${MAX}`);
    this.input.addEventListener("input", () => {
      this.count.textContent = `${this.input.value.length}/${MAX}`;
    });
    const form = el("form", { class: "chat-form", id: "chat-form" }, this.input, el("button", { type: "submit", class: "btn btn-primary btn-small", id: "chat-send" }, t("Отправить")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.send(this.input.value);
    });
    const quick = el("div", { class: "chat-quick" }, ...QUICK.map((q) => el("button", { type: "button", class: "btn btn-ghost btn-small chat-quick__btn", onclick: () => this.send(q) }, q)));
    this.muteBox = el("input", { type: "checkbox", id: "chat-mute" });
    this.muteBox.checked = this.muted;
    this.muteBox.addEventListener("change", () => {
      this.muted = this.muteBox.checked;
      localStorage.setItem(MUTE_KEY + this.matchId, this.muted ? "1" : "0");
      this.panel.classList.toggle("chat-muted", this.muted);
    });
    const mute = this.channel === "players" ? el("label", { class: "chat-mute small" }, this.muteBox, t("Скрыть сообщения соперника")) : null;
    this.blockBtn = this.channel === "players" && this.opponent
      ? el("button", { type: "button", class: "btn btn-ghost btn-small chat-block", id: "chat-block", onclick: () => this.toggleBlock() }, toggleText(false))
      : null;
    const writer = this.channel ? el("div", { class: "chat-writer" }, quick, form, el("div", { class: "chat-foot" }, this.count, mute, this.blockBtn)) : null;
    this.panel = el(
      "section",
      { class: "panel chat-panel", id: "chat-panel", "aria-labelledby": "chat-title" },
      el("div", { class: "chat-head" }, el("h2", { id: "chat-title" }, t("Чат")), el("div", { class: "chat-tabs", role: "tablist" }, this.tabs.players, this.tabs.spectators)),
      this.lists.players,
      this.lists.spectators,
      writer,
    );
    this.panel.classList.toggle("chat-muted", this.muted);
    this.before.before(this.panel);
    this.show(this.channel === "spectators" ? "spectators" : "players");
  }

  showBlocked(blocked) {
    this.blockBtn.dataset.blocked = blocked ? "1" : "0";
    this.blockBtn.textContent = toggleText(blocked);
    this.blockBtn.setAttribute("aria-pressed", String(blocked));
    this.blockBtn.title = blocked ? t("Снять блокировку с {name}", { name: this.opponent }) : t("Заблокировать {name}: вы не будете играть друг с другом и писать друг другу", { name: this.opponent });
  }

  async toggleBlock() {
    const want = this.blockBtn.dataset.blocked !== "1";
    if (want && !(await confirmBlock(this.opponent))) return;
    this.blockBtn.disabled = true;
    try {
      await setBlocked(this.opponent, want);
      this.showBlocked(want);
      toast(want ? t("Участник заблокирован. Партия продолжается, чат с ним закрыт.") : t("Блокировка снята."), "info");
    } catch (err) {
      toast(err.message);
    } finally {
      this.blockBtn.disabled = false;
    }
  }

  show(which) {
    this.tab = which;
    for (const k of ["players", "spectators"]) {
      this.tabs[k].setAttribute("aria-selected", String(k === which));
      this.lists[k].hidden = k !== which;
    }
  }

  add(m) {
    if (this.ids.has(m.id)) return;
    this.ids.add(m.id);
    const mine = m.username === this.username;
    const report = mine || !this.channel
      ? null
      : el("button", { type: "button", class: "chat-report", title: t("Пожаловаться администратору"), "aria-label": t("Пожаловаться"), onclick: () => this.report(m.id) }, "⚑");
    const li = el(
      "li",
      { class: `chat-msg${mine ? " chat-msg-mine" : " chat-msg-other"}`, dataset: { id: String(m.id), author: m.username } },
      el("b", { class: "chat-msg__who" }, m.username),
      el("span", { class: "chat-msg__text" }, m.text),
      report,
    );
    const list = this.lists[m.channel] || this.lists.players;
    list.append(li);
    list.scrollTop = list.scrollHeight;
    if (m.channel === "spectators") this.tabs.spectators.hidden = false;
  }

  async send(text) {
    const body = String(text || "").trim();
    if (!body) return;
    try {
      const m = await post(`/api/matches/${encodeURIComponent(this.matchId)}/chat`, { text: body.slice(0, MAX) });
      this.add(m);
      if (text === this.input.value) this.input.value = "";
      this.count.textContent = `${this.input.value.length}/${MAX}`;
    } catch (err) {
      toast(ERRORS[err.code] || err.message);
    }
  }

  async report(id) {
    try {
      await post(`/api/chat/${id}/report`, {});
      toast(t("Жалоба отправлена администраторам."), "info");
    } catch (err) {
      toast(err.message);
    }
  }

  onSocket(msg) {
    if (!this.panel) return;
    if (msg.type === "chat" && msg.message) this.add(msg.message);
    if (msg.type === "chat_hidden") {
      const li = this.panel.querySelector(`.chat-msg[data-id="${msg.id}"]`);
      if (li) li.remove();
    }
  }
}
