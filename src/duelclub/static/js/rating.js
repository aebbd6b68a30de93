// Ratings next to names (issue 14): «1512», «1500?» (provisional: the deviation is still above 110), the
// change a rated match made («+12», «−9»), and a member's name linking to their profile.
import { el } from "./api.js";
import { t } from "./i18n.js";

/** A rating (the API's {rating, rd, provisional}) as shown beside a name; "" when there is none. */
export function ratingText(r) {
  if (!r || typeof r.rating !== "number") return "";
  return r.provisional ? `${r.rating}?` : String(r.rating);
}

/** A rating change with its sign: «+12», «−9», «±0». */
export function deltaText(d) {
  if (typeof d !== "number") return "";
  if (d > 0) return `+${d}`;
  if (d < 0) return `−${-d}`;
  return "±0";
}

/** The hover text of a rating: its deviation, and why it has a «?». */
export function ratingTitle(r) {
  if (!r || typeof r.rating !== "number") return "";
  const rd = t("Рейтинг {rating}, отклонение {rd}", { rating: r.rating, rd: r.rd });
  // t() outside template literals: Babel does not extract calls inside `${…}`.
  return r.provisional ? rd + ". " + t("Предварительный: сыграно ещё мало рейтинговых партий.") : rd;
}

/** <span class="rating">1512?</span> (null when there is no rating), with the change when given. */
export function ratingBadge(r, { delta = false } = {}) {
  const text = ratingText(r);
  if (!text) return null;
  const badge = el("span", { class: `rating${r.provisional ? " rating--provisional" : ""}`, title: ratingTitle(r) }, text);
  if (delta && typeof r.delta === "number") {
    const cls = r.delta > 0 ? "rating-delta--up" : r.delta < 0 ? "rating-delta--down" : "";
    badge.append(" ", el("span", { class: `rating-delta ${cls}` }, deltaText(r.delta)));
  }
  return badge;
}

/** A member's name linking to their profile, followed by their rating: [«alice», «1512»]. */
export function memberLink(name, rating, opts = {}) {
  if (!name) return el("span", {}, "—");
  const link = el("a", { class: "member-link", href: `/members/${encodeURIComponent(name)}` }, name);
  const badge = ratingBadge(rating, opts);
  return badge ? el("span", { class: "member" }, link, " ", badge) : el("span", { class: "member" }, link);
}
