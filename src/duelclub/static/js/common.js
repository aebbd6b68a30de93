// Shared page chrome: the header's logout button.
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
