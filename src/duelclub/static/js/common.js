// Shared page chrome: the header's logout button and language switch.
import { post, toast } from "./api.js";

const logout = document.getElementById("logout");
if (logout) {
  logout.addEventListener("click", async () => {
    logout.disabled = true;
    try {
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
