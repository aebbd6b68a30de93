// Match page, post-game analysis (issue 17 §4) beside the replay of a finished match: GET
// /api/matches/{id}/analysis gives one entry per action — the mover's win chance before/after it as the
// strongest bot judges it from the mover's own information, and «неточность»/«ошибка» marks with the move the
// bot preferred. It is asked for with the «Разобрать партию» button (a page view alone never queues work for
// the bot workers); while they compute it the server answers 202 status «pending» and we ask again.
// Drawn as an inline SVG: one point per action, seat 0's win chance 0..100 %; a click jumps the replay there.
// Test hooks: #analysis[data-ready], circle.analysis-point[data-seq], #analysis-mistakes button[data-seq].
import { el, get } from "./api.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const W = 320; // viewBox width (the graph scales to its box)
const H = 120;
const PAD = 8;
const GUTTER = 30; // the axis labels' column left of the plot (inside it, the first point covered «0 %»)
const POLL_MS = 3000;
const POLL_LIMIT = 200; // ~10 minutes
const MARKS = { inaccuracy: t("неточность"), mistake: t("ошибка") };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, String(v));
  }
  node.append(...children);
  return node;
}

const pct = (p) => `${Math.round(p * 100)} %`;

export class MatchAnalysis {
  /** replay: the page's MatchReplay (its matchId, texts, _describe, _who and show(seq)). */
  constructor(replay) {
    this.replay = replay;
    this.root = $("analysis");
    this.entries = null;
    this.polls = 0;
  }

  start() {
    if (!this.root) return;
    this.root.hidden = false;
    const ask = $("analysis-ask");
    ask.addEventListener("click", () => {
      ask.hidden = true;
      $("analysis-status").textContent = t("Бот разбирает партию…");
      this._fetch();
    });
    if (location.hash === "#analysis") {
      // Opened by a link to the analysis (the admin match page's «Анализ партии»): show it at once.
      this.root.scrollIntoView({ block: "start" });
      ask.click();
    }
  }

  async _fetch() {
    const id = encodeURIComponent(this.replay.ctx.matchId);
    try {
      const body = await get(`/api/matches/${id}/analysis`);
      if (body.status !== "pending") {
        this._draw(body.entries || []);
      } else if (++this.polls < POLL_LIMIT) {
        setTimeout(() => this._fetch(), POLL_MS);
      } else {
        $("analysis-status").textContent = t("Анализ пока не готов. Загляните позже.");
      }
    } catch (err) {
      if (err && err.code === "analysis_failed") {
        $("analysis-status").textContent = t("Разобрать эту партию не удалось.");
      } else {
        this.root.hidden = true; // not finished (aborted), or not for us
      }
    }
  }

  /** Seat 0's win chance after entry e (each entry is from its mover's side). */
  static p0(e) {
    return e.seat === 0 ? e.after : 1 - e.after;
  }

  _x(seq) {
    const n = Math.max(this.entries.length, 1);
    return GUTTER + ((W - GUTTER - PAD) * (seq - 0.5)) / n;
  }

  _y(p) {
    return PAD + (H - 2 * PAD) * (1 - p);
  }

  _draw(entries) {
    this.entries = entries;
    const who0 = this.replay._who(0);
    $("analysis-status").textContent = t("Шансы на победу: {name} (0–100 %). Нажмите на точку, чтобы перейти к ходу.", {
      name: who0,
    });
    const graph = svg("svg", {
      viewBox: `0 0 ${W} ${H}`,
      class: "analysis-graph",
      role: "img",
      "aria-label": t("График шансов на победу"),
      id: "analysis-graph",
    });
    graph.append(
      svg("rect", { x: GUTTER, y: PAD, width: W - GUTTER - PAD, height: H - 2 * PAD, class: "analysis-frame" }),
      svg("line", { x1: GUTTER, x2: W - PAD, y1: this._y(0.5), y2: this._y(0.5), class: "analysis-mid" }),
      svg("text", { x: GUTTER - 3, y: PAD + 6, "text-anchor": "end", class: "analysis-axis" }, "100 %"),
      svg("text", { x: GUTTER - 3, y: this._y(0.5) + 3, "text-anchor": "end", class: "analysis-axis" }, "50 %"),
      svg("text", { x: GUTTER - 3, y: H - PAD, "text-anchor": "end", class: "analysis-axis" }, "0 %"),
    );
    this.cursor = svg("line", { x1: 0, x2: 0, y1: PAD, y2: H - PAD, class: "analysis-cursor" });
    graph.append(this.cursor);
    // One line per seat: each point is its mover's estimate from what the mover could see, so a single line
    // zig-zagged between the two players' views of a hidden hand (fresh-user run: 62 %, 15 %, 72 %, 6 %).
    for (const seat of [0, 1]) {
      const own = entries.filter((e) => e.seat === seat);
      const points = own.map((e) => `${this._x(e.seq).toFixed(1)},${this._y(MatchAnalysis.p0(e)).toFixed(1)}`);
      if (points.length > 1) graph.append(svg("polyline", { points: points.join(" "), class: `analysis-line is-seat${seat}` }));
    }
    for (const e of entries) {
      const col = (W - GUTTER - PAD) / Math.max(entries.length, 1);
      graph.append(svg("rect", { x: this._x(e.seq) - col / 2, y: PAD, width: col, height: H - 2 * PAD, class: "analysis-hit", dataset: { seq: String(e.seq) } }));
    }
    for (const e of entries) {
      const cls = `analysis-point is-seat${e.seat}` + (e.mark ? ` is-${e.mark}` : "");
      const title = `${e.seq}. ${this.replay.texts[e.seq - 1] || ""} — ${pct(MatchAnalysis.p0(e))}` + (e.mark ? ` (${MARKS[e.mark]})` : "");
      graph.append(
        svg("circle", { cx: this._x(e.seq), cy: this._y(MatchAnalysis.p0(e)), r: e.mark ? 4 : 2.5, class: cls, dataset: { seq: String(e.seq) } }, svg("title", {}, title)),
      );
    }
    graph.addEventListener("click", (ev) => {
      const target = ev.target.closest("[data-seq]");
      if (target) this.replay.show(Number(target.dataset.seq));
    });
    const legend = el(
      "ul",
      { class: "analysis-legend small", id: "analysis-legend" },
      ...[0, 1].map((seat) =>
        el("li", { class: `is-seat${seat}` }, t("{name}: оценка после своих ходов", { name: this.replay._who(seat) })),
      ),
    );
    $("analysis-chart").replaceChildren(graph, legend);
    this._list(entries);
    this.root.dataset.ready = "1";
    this.mark(this.replay.at);
  }

  _list(entries) {
    const marked = entries.filter((e) => e.mark);
    const box = $("analysis-mistakes");
    if (!marked.length) {
      box.replaceChildren(el("li", { class: "muted" }, t("Бот не нашёл ни неточностей, ни ошибок.")));
      return;
    }
    box.replaceChildren(
      ...marked.map((e) => {
        const best = e.best ? this.replay.describeAction({ seq: e.seq, seat: e.seat, source: "player", action: e.best }) : "";
        return el(
          "li",
          { class: `analysis-mistake is-${e.mark}` },
          el(
            "button",
            { type: "button", class: "replay-move", dataset: { seq: String(e.seq) }, onclick: () => this.replay.show(e.seq) },
            el("strong", {}, `${MARKS[e.mark]}: `),
            `${e.seq}. ${this.replay.texts[e.seq - 1] || ""}`,
            el("span", { class: "analysis-loss" }, ` (−${Math.round(e.loss * 100)} %)`),
          ),
          best ? el("p", { class: "small analysis-best" }, t("Бот предпочёл: {move}", { move: best })) : null,
        );
      }),
    );
  }

  /** Highlight step `seq` (the replay's current one) on the graph. */
  mark(seq) {
    if (!this.entries || !this.cursor) return;
    const visible = seq > 0 && seq <= this.entries.length;
    this.cursor.setAttribute("visibility", visible ? "visible" : "hidden");
    if (visible) {
      const x = this._x(seq);
      this.cursor.setAttribute("x1", x);
      this.cursor.setAttribute("x2", x);
    }
    for (const c of this.root.querySelectorAll("circle.analysis-point")) {
      c.classList.toggle("is-current", Number(c.dataset.seq) === seq);
    }
  }
}
