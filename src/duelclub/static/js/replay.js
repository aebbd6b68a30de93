// Match page, replay of an ended match (issue 14 §7): step through it with full information — « В начало,
// ← Назад, Вперёд →, В конец », the arrow keys (Home/End too), a slider and the move list to jump to.
// The steps are the admins' replay, open to members: GET /api/matches/{id}/moves (the list) and
// GET /api/matches/{id}/replay?seq=N (the full view after N actions), drawn by the page's own game renderer
// as a spectator with the full view, on the board itself. A live match has no replay (the server refuses).
// Test hooks: #replay[data-seq] the step on screen, [data-last] the number of actions, [data-active] once the
// replay has taken over the board.
import { MatchAnalysis } from "./analysis.js";
import { el, get, toast } from "./api.js";
import { t } from "./i18n.js";
import { seatName } from "./names.js";

const $ = (id) => document.getElementById(id);
const SOURCES = { player: "", bot: "", clock: t("часы") };

export class MatchReplay {
  /** ctx: {matchId, info, renderer, onActivate}; call start() once the match has ended. */
  constructor(ctx) {
    this.ctx = ctx;
    this.root = $("replay");
    this.steps = new Map();
    this.cards = new Map(); // card id → {name} from the game's catalog
    this.moves = null;
    this.at = 0;
    this.last = 0;
    this.active = false; // the board shows a replay step rather than the final position
    this.token = 0;
  }

  async start() {
    if (!this.root || this.moves) return;
    const id = encodeURIComponent(this.ctx.matchId);
    try {
      this.moves = await get(`/api/matches/${id}/moves`);
    } catch (_err) {
      return; // aborted before the deal, or not ended after all: no replay
    }
    this.last = this.moves.last_seq;
    if (!this.last) return; // aborted before anyone moved: nothing to step through
    try {
      const games = await get("/api/games");
      const g = (Array.isArray(games) ? games : []).find((x) => x.slug === this.moves.game);
      for (const c of (g && g.catalog && g.catalog.cards) || []) this.cards.set(String(c.id), c);
    } catch (_err) {
      /* hands fall back to card ids */
    }
    this.at = this.last;
    this.root.dataset.last = String(this.last);
    this.root.dataset.seq = String(this.last);
    // Worded now, while the renderer still reads the board from the viewer's seat (the steps are drawn as a
    // spectator with the full view).
    this.texts = this.moves.actions.map((a) => this._describe(a));
    this._paintList();
    this._wire();
    this._paintControls();
    $("replay-action").textContent = t("Итоговая позиция. Шагайте назад, чтобы пересмотреть партию ход за ходом.");
    this.root.hidden = false;
    if (this.moves.status === "finished") {
      this.analysis = new MatchAnalysis(this); // the win-chance graph beside the replay (analysis.js)
      this.analysis.start();
    }
    if (location.hash === "#replay") {
      this.root.scrollIntoView({ block: "start" });
      this.show(0);
    }
  }

  _wire() {
    $("replay-first").addEventListener("click", () => this.show(0));
    $("replay-prev").addEventListener("click", () => this.show(this.at - 1));
    $("replay-next").addEventListener("click", () => this.show(this.at + 1));
    $("replay-last").addEventListener("click", () => this.show(this.last));
    const slider = $("replay-seq");
    slider.max = String(this.last);
    slider.addEventListener("input", () => this.show(Number(slider.value)));
    $("replay-moves").addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-seq]");
      if (b) this.show(Number(b.dataset.seq));
    });
    document.addEventListener("keydown", (ev) => {
      if (this.root.hidden || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      const tag = (ev.target && ev.target.tagName) || "";
      if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) && ev.target.type !== "range") return;
      if (document.querySelector("dialog[open]")) return;
      const to = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.last }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      this.show(to);
    });
  }

  _who(seat) {
    const s = this.moves.seats && this.moves.seats[seat];
    return s ? seatName(s) : t("Игрок {n}", { n: seat + 1 });
  }

  /** An action in words, from the viewer's side («Вы: играет …»). The game's actionText(action, seat) names
   *  the actor itself; one that takes the action only (Сундук войны) gets the player's name in front. */
  _describe(a) {
    const r = this.ctx.renderer;
    const text = r && r.actionText ? r.actionText(a.action, a.seat) : null;
    const namesActor = !!text && r.actionText.length >= 2;
    const body = text || (a.action && a.action.kind === "resign" ? t("сдача") : JSON.stringify(a.action));
    if (namesActor) return body;
    const src = SOURCES[a.source] ? " (" + SOURCES[a.source] + ")" : "";
    return this._actor(a.seat) + src + ": " + body;
  }

  /** Who acted, as the other games' words say it: «Вы»/«Соперник» to a player of the match, the name to
   *  anyone else (Сундук войны's words name no actor; its replay read «Тестер_1: …» to Тестер_1 himself). */
  _actor(seat) {
    const seats = this.moves.seats || [];
    const me = this.ctx.username ? seats.findIndex((s) => s && !s.bot && seatName(s) === this.ctx.username) : -1;
    if (me < 0) return this._who(seat);
    return seat === me ? t("Вы") : t("Соперник");
  }

  /** The action alone, without who made it: the analysis' «Бот предпочёл: сброс «…»» (the seat is the marked
   *  move's own). Every game's words put the actor first, before the first «: ». */
  describeAction(a) {
    const text = this._describe(a);
    const cut = text.indexOf(": ");
    return cut > 0 ? text.slice(cut + 2) : text;
  }

  _moveLine(a) {
    return `${a.seq}. ${this.texts[a.seq - 1]}`;
  }

  _paintList() {
    const items = [
      el("li", {}, el("button", { type: "button", class: "replay-move", dataset: { seq: "0" } }, t("Начальная раздача"))),
      ...this.moves.actions.map((a) =>
        el("li", {}, el("button", { type: "button", class: "replay-move", dataset: { seq: String(a.seq) } }, this._moveLine(a))),
      ),
    ];
    $("replay-moves").replaceChildren(...items);
  }

  _paintControls() {
    const n = this.at;
    $("replay-seq").value = String(n);
    $("replay-pos").textContent = t("Шаг {n} из {last}", { n, last: this.last });
    $("replay-prev").disabled = $("replay-first").disabled = n <= 0;
    $("replay-next").disabled = $("replay-last").disabled = n >= this.last;
    for (const b of document.querySelectorAll("#replay-moves button[data-seq]")) {
      const current = Number(b.dataset.seq) === n;
      b.classList.toggle("is-current", current);
      if (current) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
    }
    if (this.analysis) this.analysis.mark(n);
  }

  /** Show step `seq` (clamped to 0..last) on the board. */
  async show(seq) {
    if (!this.moves) return;
    const n = Math.max(0, Math.min(this.last, Number(seq) || 0));
    const token = ++this.token;
    this.at = n;
    this._paintControls();
    try {
      let step = this.steps.get(n);
      if (!step) {
        step = await get(`/api/matches/${encodeURIComponent(this.ctx.matchId)}/replay?seq=${n}`);
        this.steps.set(n, step);
      }
      if (token !== this.token) return;
      this._paint(step);
      this.root.dataset.seq = String(n);
    } catch (err) {
      if (token === this.token) toast(err.message);
    }
  }

  /** Both hands by name (the games whose full view carries ``hands``): the board draws the viewer's only. */
  _paintHands(view) {
    const box = $("replay-hands");
    if (!Array.isArray(view.hands)) {
      box.hidden = true;
      return;
    }
    const name = (id) => (this.cards.get(String(id)) || { name: String(id) }).name;
    box.replaceChildren(
      ...view.hands.flatMap((hand, seat) => [
        el("dt", {}, t("Рука: {name}", { name: this._who(seat) })),
        el("dd", {}, Array.isArray(hand) && hand.length ? hand.map(name).join(", ") : t("пусто")),
      ]),
    );
    box.hidden = false;
  }

  _paint(step) {
    if (!this.active) {
      this.active = true;
      this.root.dataset.active = "1";
      if (this.ctx.onActivate) this.ctx.onActivate();
    }
    const r = this.ctx.renderer;
    r.render({ seat: null, view: step.view, legal: [], status: this.moves.status, to_move: [] });
    // The step's action marked on the board, as the live page marks the opponent's last one (lastmove.js).
    if (r.markLast && step.events.length) r.markLast(step.events, false);
    $("replay-action").textContent = step.action
      ? this._moveLine(step.action)
      : t("Начальная раздача, до первого действия.");
    const lines = r.describe ? step.events.map((ev, i, all) => r.describe(ev, i, all)).filter(Boolean) : [];
    $("replay-events").replaceChildren(...lines.map((d) => el("li", { class: d.cls || "" }, d.text)));
    this._paintHands(step.view);
    // Keep the current move in view inside the list (never scroll the page: the board is what one watches).
    const list = $("replay-moves");
    const current = list.querySelector("button.is-current");
    if (current) {
      const top = current.offsetTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }
}
