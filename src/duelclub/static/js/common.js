// Shared page chrome: the header's logout button and language switch.
import { del, post, toast } from "./api.js";
import { forgetBrowser } from "./webpush.js";

const logout = document.getElementById("logout");
if (logout) {
  logout.addEventListener("click", async () => {
    logout.disabled = true;
    try {
      // a shared computer: this browser's push subscription goes with the member (webpush.js)
      await forgetBrowser(navigator, (endpoint) => del("/api/me/push-subscriptions", { endpoint }));
      await post("/api/auth/logout", {});
      location.assign("/");
    } catch (err) {
      logout.disabled = false;
      toast(err.message);
    }
  });
}

// The language switch returns to this very place: the server sees the page in the Referer, but never the
// URL's #fragment (the lobby's game tab, a rules section, a match's #analysis), so pass it along as ?next=.
for (const link of document.querySelectorAll(".lang-switch__link")) {
  link.addEventListener("click", () => {
    const here = location.pathname + location.search + location.hash;
    link.href = `${new URL(link.href).pathname}?next=${encodeURIComponent(here)}`;
  });
}

// On a phone the header's links fold under «Меню» (phone.css): the button opens and closes the panel; Escape,
// a tap elsewhere or following a link closes it.
const navToggle = document.getElementById("nav-toggle");
const header = navToggle && navToggle.closest(".site-header");
if (navToggle && header) {
  const setOpen = (open) => {
    header.classList.toggle("is-menu-open", open);
    navToggle.setAttribute("aria-expanded", open ? "true" : "false");
  };
  navToggle.addEventListener("click", () => setOpen(!header.classList.contains("is-menu-open")));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && header.classList.contains("is-menu-open")) {
      setOpen(false);
      navToggle.focus();
    }
  });
  document.addEventListener("click", (ev) => {
    if (!header.contains(ev.target)) setOpen(false);
  });
}
