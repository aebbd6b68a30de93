// node --test tests/js/: the banner of static/js/outage.js on a minimal fake DOM (the module reads `document`
// when it is imported, hence a file of its own): shown once on 503/1013, in the page language, hidden again.
import assert from "node:assert/strict";
import { test } from "node:test";

class FakeElement {
  constructor(tag) {
    this.tagName = tag;
    this.attributes = {};
    this.children = [];
    this.hidden = false;
    this.id = "";
    this.className = "";
    this.textContent = "";
  }

  setAttribute(name, value) {
    this.attributes[name] = value;
  }

  prepend(child) {
    this.children.unshift(child);
  }
}

const main = new FakeElement("main");
main.id = "main";
const catalog = new FakeElement("template");
catalog.textContent = JSON.stringify({
  "Нет связи с сервером, пробуем снова…": "Немає зв'язку з сервером, пробуємо знову…",
});
const find = (node, id) => (node.id === id ? node : node.children.map((c) => find(c, id)).find(Boolean) || null);
globalThis.document = {
  documentElement: { lang: "uk" },
  body: new FakeElement("body"),
  createElement: (tag) => new FakeElement(tag),
  getElementById: (id) => (id === "i18n-messages" ? catalog : find(main, id)),
};

const { serverAvailable, serverUnavailable } = await import("../../src/duelclub/static/js/outage.js");

test("the banner appears once, at the top of the page, in the page language", () => {
  serverUnavailable();
  serverUnavailable();
  const banners = main.children.filter((c) => c.id === "server-unavailable");
  assert.equal(banners.length, 1);
  const [banner] = banners;
  assert.equal(banner.hidden, false);
  assert.equal(banner.textContent, "Немає зв'язку з сервером, пробуємо знову…");
  assert.equal(banner.attributes.role, "status");
  assert.match(banner.className, /\boffline-note\b/);
});

test("the banner hides when the server answers again, and comes back with the next 503", () => {
  serverUnavailable();
  serverAvailable();
  assert.equal(find(main, "server-unavailable").hidden, true);
  serverUnavailable();
  assert.equal(find(main, "server-unavailable").hidden, false);
});
