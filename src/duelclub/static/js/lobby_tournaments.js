// The lobby's «Турниры» panel (issue 26 §Pages): the list of tournament_list.js, re-read when the lobby
// socket (challenges.js) reports a tournament change as a "duelclub:tournament" event — at most once per
// LIST_WAIT_MS, however many changes come (an arena makes several a second).
import { LIST_WAIT_MS, coalesce } from "./coalesce.js";
import { refreshList, setUpList } from "./tournament_list.js";

setUpList();
window.addEventListener("duelclub:tournament", coalesce(refreshList, LIST_WAIT_MS));
