// The lobby's «Турниры» panel (issue 26 §Pages): the list of tournament_list.js, re-read when the lobby
// socket (challenges.js) reports a tournament change as a "duelclub:tournament" event.
import { refreshList, setUpList } from "./tournament_list.js";

setUpList();
window.addEventListener("duelclub:tournament", () => refreshList());
