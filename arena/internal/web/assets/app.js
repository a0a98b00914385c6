// Tapp Arena dashboard. One small script, no build step and no downloads: it calls the arena's
// view service (tapp.view.v1.ViewService, proto/tapp/view/v1/view.proto) over the Connect
// protocol with protobuf JSON, and draws every page, cards included, itself.
"use strict";

const VIEW = "tapp.view.v1.ViewService";
const SUITS = { C: "♣", S: "♠", H: "♥", D: "♦" };
const SEAT_NAMES = ["forehand", "middlehand", "rearhand", "dealer"];
const main = document.getElementById("main");
let pageTimer = null; // the polling of the page on show, stopped when the page changes
let keyHandler = null;

// --- the API ---------------------------------------------------------------------------

// The viewer token, when the dashboard has one, is a cookie the server set when the page was
// first opened with ?token=... (and took out of the address): the browser sends it with every
// call, and no script here ever sees it. bearer is the admin token where a call needs it.
async function rpc(method, req, service = VIEW, bearer = "") {
  const headers = { "Content-Type": "application/json", "Connect-Protocol-Version": "1" };
  if (bearer) headers.Authorization = "Bearer " + bearer;
  const res = await fetch("/" + service + "/" + method, { method: "POST", headers, body: JSON.stringify(req || {}), credentials: "same-origin" });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.message || res.status + " " + res.statusText);
  return body;
}

// --- small helpers ---------------------------------------------------------------------

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else if (k === "style") e.style.cssText = v; // through the CSSOM: the page's CSP allows no style attributes
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

function show(...nodes) {
  main.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined && n !== false));
}

function fail(err) {
  show(el("p", { class: "error", role: "alert" }, String(err.message || err)));
}

const num = (x, d = 2) => (x === undefined || x === null ? "" : Number(x).toFixed(d));
const signed = (x, d = 2) => (Number(x) >= 0 ? "+" : "") + num(x, d);
const secs = (d) => (d ? parseFloat(d) : 0); // protobuf JSON durations are "0.0012s"
function ms(d) {
  const s = secs(d);
  return s >= 1 ? s.toFixed(2) + " s" : (s * 1000).toFixed(s < 0.01 ? 2 : 1) + " ms";
}
const when = (ts) => (ts ? new Date(ts).toLocaleString() : "");
const link = (href, text) => el("a", { href }, text);
const seatName = (s, players) => (s >= 0 ? `seat ${s} (${players === 3 && s === 2 ? "rearhand" : SEAT_NAMES[s]})` : "");

function card(text, extra = "") {
  if (!text) return el("span", { class: "card hidden " + extra, "data-card": "hidden", "aria-label": "hidden card" });
  const suit = text[0], rank = text.slice(1).replace("T", "10");
  return el("span", { class: "card " + (suit === "H" || suit === "D" ? "red " : "") + extra, "data-card": text, "aria-label": text },
    el("span", { class: "r" }, rank), el("span", { class: "s" }, SUITS[suit] || suit));
}

function params(hash) {
  const [path, query] = hash.replace(/^#\/?/, "").split("?");
  return { parts: path.split("/").filter(Boolean).map(decodeURIComponent), q: new URLSearchParams(query || "") };
}

function sortable(table, rows, columns, render) {
  // columns: [{key, title, value(row), cls}]; clicking a header sorts by it (again: reverse).
  let sortKey = null, dir = -1;
  const thead = el("thead");
  const tbody = el("tbody");
  function draw() {
    const sorted = sortKey === null ? rows.slice() : rows.slice().sort((a, b) => {
      const col = columns.find((c) => c.key === sortKey);
      const x = col.value(a), y = col.value(b);
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    tbody.replaceChildren(...sorted.map(render));
    for (const th of thead.querySelectorAll("th")) {
      th.setAttribute("aria-sort", th.dataset.key === sortKey ? (dir > 0 ? "ascending" : "descending") : "none");
    }
  }
  thead.append(el("tr", {}, columns.map((c) => el("th", { "data-key": c.key, class: c.cls, title: c.help, scope: "col" },
    c.value ? el("button", { type: "button", onclick: () => { dir = sortKey === c.key ? -dir : -1; sortKey = c.key; draw(); } }, c.title) : c.title))));
  table.replaceChildren(thead, tbody);
  draw();
}

// --- leaderboard -----------------------------------------------------------------------

async function leaderboardPage(q) {
  const league = q.get("league") || "", rules = q.get("rules") || "";
  const [board, history, leagues] = await Promise.all([
    rpc("GetLeaderboard", { leagueId: league, rules }),
    rpc("GetRatingHistory", { leagueId: league, rules }),
    rpc("ListLeagues", {}),
  ]);
  const pick = el("select", { id: "league", onchange: (e) => { location.hash = "#/?league=" + encodeURIComponent(e.target.value); } },
    el("option", { value: "" }, "every stored result"),
    (leagues.leagues || []).map((l) => el("option", { value: l.leagueId, selected: l.leagueId === league }, "league " + l.leagueId)));
  show(
    el("h1", {}, league ? "Leaderboard of league " + league : "Leaderboard"),
    el("div", { class: "filters" }, el("label", {}, "results of", pick)),
    boardView(board),
    el("h2", {}, "Rating history"),
    historyPlot(history),
    league ? el("p", {}, link("#/league/" + encodeURIComponent(league), "League progress"), " · ",
      link("#/matches?league=" + encodeURIComponent(league), "its matches")) : null,
  );
}

function boardView(board) {
  const bots = board.bots || [];
  if (!bots.length) return el("p", { class: "muted" }, "No results yet.");
  const unit = board.unit || "score";
  const head = el("p", { class: "muted" },
    `${bots.length} bots, ${board.units || 0} ${board.duplicate ? "duplicate groups" : "deals"} (${board.deals || 0} deals), ${board.matches || 0} finished matches`,
    (board.ruleSets || []).length === 1 ? " — " + board.ruleSets[0] : "");
  const rank = new Map(bots.map((b, i) => [b.bot, i + 1]));
  const columns = [
    { key: "rank", title: "#", value: (b) => rank.get(b.bot) },
    { key: "bot", title: "bot", cls: "l", value: (b) => b.bot },
    { key: "rating", title: unit + "/deal", value: (b) => b.rating || 0 },
    { key: "interval", title: "95% interval" },
    { key: "bt", title: "BT Elo", value: (b) => b.btElo || 0 },
    { key: "elo", title: "multi-Elo", value: (b) => b.multiElo || 0 },
    { key: "matches", title: "matches", value: (b) => b.matches || 0 },
    { key: "units", title: board.duplicate ? "groups" : "deals", value: (b) => b.units || 0 },
    { key: "declarer", title: "as declarer", value: (b) => b.declarerPerDeal || 0 },
    { key: "defender", title: "as defender", value: (b) => b.defenderPerDeal || 0 },
    { key: "declares", title: "declares (made)", value: (b) => b.declareRate || 0 },
  ];
  for (const c of board.columns || []) {
    const col = columns.find((x) => x.key === c.key || (c.key === "bt_elo" && x.key === "bt") || (c.key === "multi_elo" && x.key === "elo"));
    if (col) col.help = c.help;
  }
  const table = el("table", { id: "board" });
  sortable(table, bots, columns, (b) => el("tr", { "data-bot": b.bot, class: b.provisional ? "prov" : "" },
    el("td", {}, rank.get(b.bot)),
    el("td", { class: "l" }, link("#/matches?bot=" + encodeURIComponent(b.bot), b.bot), b.provisional ? el("span", { class: "badge", title: "too few results to read much into" }, "provisional") : null),
    el("td", { "data-col": "rating" }, signed(b.rating)),
    el("td", {}, b.interval ? `[${signed(b.ratingLo)}, ${signed(b.ratingHi)}]` : "—"),
    el("td", {}, signed(b.btElo, 0)),
    el("td", {}, num(b.multiElo, 0)),
    el("td", {}, b.matches || 0),
    el("td", {}, b.units || 0),
    el("td", {}, signed(b.declarerPerDeal || 0)),
    el("td", {}, signed(b.defenderPerDeal || 0)),
    el("td", {}, `${Math.round(100 * (b.declareRate || 0))}% (${Math.round(100 * (b.madeRate || 0))}%)`)));
  const help = (board.columns || []).map((c) => el("p", { class: "help" }, el("b", {}, c.title + ": "), c.help));
  const notes = (board.notes || []).map((n) => el("p", { class: "help" }, n));
  return el("div", {}, head, el("div", { class: "scroll" }, table), help, notes, losHeatMap(bots, board.los || []));
}

function losHeatMap(bots, los) {
  const n = bots.length;
  if (n < 2 || los.length !== n * n) return null;
  const rows = bots.map((a, i) => el("tr", {}, el("th", { scope: "row", class: "l" }, a.bot),
    bots.map((b, j) => {
      if (i === j || !a.interval || !b.interval) return el("td", { class: "cell" }, "—"); // no LOS without an interval
      const p = Number(los[i * n + j]);
      const provisional = a.provisional || b.provisional;
      // green when the row is likely stronger, red when likely weaker
      const hue = Math.round(120 * p), light = 92 - Math.round(Math.abs(p - 0.5) * 50);
      return el("td", { class: "cell", style: `background:hsl(${hue} 60% ${light}%)`, title: `${a.bot} stronger than ${b.bot}: ${(100 * p).toFixed(1)}%` },
        (100 * p).toFixed(1) + "%" + (provisional ? "?" : ""));
    })));
  return el("div", {}, el("h2", {}, "Likelihood of superiority"),
    el("p", { class: "help" }, "row stronger than column, from the same t distribution as the intervals; — without an interval, ? where a bot is still provisional"),
    el("div", { class: "scroll" }, el("table", { class: "heat", id: "los" },
      el("thead", {}, el("tr", {}, el("th", {}), bots.map((b) => el("th", { scope: "col" }, b.bot)))), el("tbody", {}, rows))));
}

const COLORS = ["#0b5d3b", "#b3261e", "#2d4f8a", "#a86b00", "#6a3d9a", "#00838f", "#5d4037", "#c2185b"];

function historyPlot(history) {
  const bots = (history.bots || []).filter((b) => (b.points || []).length);
  if (!bots.length) return el("p", { class: "muted" }, history.rating || "No rating history yet.");
  const W = 720, H = 260, P = 40;
  const pts = bots.flatMap((b) => b.points);
  const xs = pts.map((p) => Number(p.clock || 0));
  const ys = pts.flatMap((p) => p.interval ? [p.ratingLo || 0, p.ratingHi || 0] : [p.rating || 0]);
  const x0 = Math.min(...xs), x1 = Math.max(x0 + 1, ...xs);
  const pad = Math.max(1, 0.05 * (Math.max(...ys) - Math.min(...ys)));
  const y0 = Math.min(...ys) - pad, y1 = Math.max(...ys) + pad;
  const X = (x) => P + ((x - x0) / (x1 - x0)) * (W - 2 * P), Y = (y) => H - P - ((y - y0) / (y1 - y0)) * (H - 2 * P);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "plot");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", history.rating || "rating history");
  const add = (parent, tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    parent.append(e);
    return e;
  };
  add(svg, "line", { x1: P, y1: H - P, x2: W - P, y2: H - P, stroke: "#999" });
  add(svg, "line", { x1: P, y1: P, x2: P, y2: H - P, stroke: "#999" });
  if (y0 < 0 && y1 > 0) add(svg, "line", { x1: P, y1: Y(0), x2: W - P, y2: Y(0), stroke: "#ccc", "stroke-dasharray": "4 3" });
  add(svg, "text", { x: P, y: P - 8, "font-size": 11, fill: "#666" }, y1.toFixed(1) + " " + (history.unit || "") + "/deal");
  add(svg, "text", { x: P, y: H - P + 14, "font-size": 11, fill: "#666" }, y0.toFixed(1) + " · " + x0 + " deal sources");
  add(svg, "text", { x: W - P, y: H - P + 14, "font-size": 11, fill: "#666", "text-anchor": "end" }, x1 + " deal sources");
  const lines = bots.map((b, i) => {
    const color = COLORS[i % COLORS.length];
    const g = add(svg, "g", { "data-bot": b.bot, stroke: color, fill: color });
    // the band: the 95% interval where the bot had one
    const band = b.points.filter((p) => p.interval);
    if (band.length > 1) {
      const upper = band.map((p) => `${X(Number(p.clock)).toFixed(1)},${Y(p.ratingHi || 0).toFixed(1)}`);
      const lower = band.slice().reverse().map((p) => `${X(Number(p.clock)).toFixed(1)},${Y(p.ratingLo || 0).toFixed(1)}`);
      add(g, "polygon", { points: upper.concat(lower).join(" "), "fill-opacity": 0.15, stroke: "none", class: "band" });
    }
    add(g, "polyline", { points: b.points.map((p) => `${X(Number(p.clock)).toFixed(1)},${Y(p.rating || 0).toFixed(1)}`).join(" "),
      fill: "none", "stroke-width": 2 });
    for (const p of b.points) { // a dot per point, hollow while provisional
      const dot = add(g, "circle", { cx: X(Number(p.clock)).toFixed(1), cy: Y(p.rating || 0).toFixed(1), r: 3,
        fill: p.provisional ? "white" : color });
      const iv = p.interval ? ` [${signed(p.ratingLo)}, ${signed(p.ratingHi)}]` : " (no interval yet)";
      add(dot, "title", {}, `${b.bot}: ${signed(p.rating)}${iv} after ${p.clock} deal sources (${p.deals || 0} deals rated)` +
        (p.provisional ? ", provisional" : ""));
    }
    return g;
  });
  const last = (b) => b.points[b.points.length - 1];
  const legend = el("div", { class: "legend" }, bots.map((b, i) => el("label", {},
    el("input", { type: "checkbox", checked: true, onchange: (e) => { lines[i].style.display = e.target.checked ? "" : "none"; } }),
    el("span", { style: `color:${COLORS[i % COLORS.length]}` }, "■"), `${b.bot} (${signed(last(b).rating)})`)));
  return el("div", {}, el("p", { class: "help" }, history.rating, "; the band is the 95% interval, a hollow dot provisional."), svg, legend);
}

// --- leagues ---------------------------------------------------------------------------

async function leaguesPage() {
  const resp = await rpc("ListLeagues", {});
  const ls = resp.leagues || [];
  show(el("h1", {}, "Leagues"), ls.length ? el("div", { class: "scroll" }, el("table", { id: "leagues" },
    el("thead", {}, el("tr", {}, ["league", "status", "matches finished", "deals", "updated"].map((t, i) => el("th", { class: i ? "" : "l" }, t)))),
    el("tbody", {}, ls.map((l) => el("tr", { "data-league": l.leagueId }, el("td", { class: "l" }, link("#/league/" + encodeURIComponent(l.leagueId), l.leagueId)),
      el("td", {}, l.status + (l.paused ? " (paused)" : "")), el("td", { "data-matches": "" }, `${l.matchesFinished || 0} of ${l.matches || 0}`),
      el("td", {}, l.deals || 0), el("td", {}, when(l.updated))))))) :
    el("p", { class: "muted" }, "No leagues stored."));
}

async function leaguePage(id) {
  const box = el("div", { class: "stats", id: "progress" });
  const control = el("div", { class: "controls", id: "pause-control" });
  const botsBox = el("div", { class: "scroll", id: "league-bots" });
  const boardBox = el("div");
  show(el("h1", {}, "League " + id), box, control, el("h2", {}, "Bots"), botsBox, el("h2", {}, "Leaderboard"), boardBox,
    el("p", {}, link("#/?league=" + encodeURIComponent(id), "rating history"), " · ", link("#/matches?league=" + encodeURIComponent(id), "matches")));
  let controlKey = "";
  async function refresh() {
    const [p, board] = await Promise.all([rpc("GetLeagueProgress", { leagueId: id }), rpc("GetLeaderboard", { leagueId: id })]);
    const stat = (label, value, key) => el("div", { class: "stat", "data-stat": key }, el("b", {}, value), label);
    const eta = secs(p.eta);
    const running = p.status === "running";
    const rate = !running ? "—" : secs(p.rateWindow) ? num(p.dealsPerSecond, 1) : "measuring…";
    box.replaceChildren(
      stat("status", p.status + (p.paused ? ", paused" : ""), "status"),
      stat(p.dealsPlanned ? `of ${p.dealsPlanned} deals stored` : "deals stored", p.dealsStored || 0, "deals"),
      stat(secs(p.rateWindow) ? `deals/s over the last ${Math.round(secs(p.rateWindow))} s` : "deals/s", rate, "rate"),
      stat("ETA", running && eta && !p.paused ? new Date(Date.now() + eta * 1000).toLocaleTimeString() : "—", "eta"),
      stat(`of ${p.matchesScheduled || 0} matches finished`, p.matchesFinished || 0, "finished"),
      stat("groups being played", p.jobsRunning || 0, "running"));
    const key = `${p.status}|${p.paused}|${p.pausable}`;
    if (key !== controlKey) { // not on every poll: the token field keeps what is typed
      controlKey = key;
      control.replaceChildren(...pauseControl(id, p));
    }
    const bots = p.bots || [];
    botsBox.replaceChildren(bots.length ? el("table", { id: "bot-totals" },
      el("thead", {}, el("tr", {}, ["bot", "deals", "decisions", "strikes", "fallbacks", "forfeited deals"].map((t, i) => el("th", { class: i ? "" : "l" }, t)))),
      el("tbody", {}, bots.map((b) => el("tr", { "data-bot": b.bot, class: (b.strikes || b.fallbacks || b.forfeited) ? "warn" : "" },
        el("td", { class: "l" }, b.bot), el("td", {}, b.deals || 0), el("td", {}, b.decisions || 0),
        el("td", { "data-strikes": "" }, b.strikes || 0), el("td", { "data-fallbacks": "" }, b.fallbacks || 0), el("td", { "data-forfeited": "" }, b.forfeited || 0))))) :
      el("p", { class: "muted" }, "No deal stored yet."),
    el("p", { class: "help" }, "strikes: late or missing answers; fallbacks: decisions the arena played for the bot; forfeited deals: deals in which it had struck out or was gone, so the arena played for it without asking"));
    boardBox.replaceChildren(boardView(board));
    return running;
  }
  if (await refresh()) pageTimer = setInterval(() => refresh().catch(fail), 3000);
}

// pauseControl is the admin's pause and resume button: it needs the admin token, asked for
// once and kept for the session (it is not the viewer token).
function pauseControl(id, p) {
  if (p.status !== "running") return [];
  if (!p.pausable) {
    return [el("p", { class: "help" }, p.paused ? `Paused: tapp league resume ${id} continues it.` : `tapp league pause ${id} pauses it (this dashboard has no admin token to do it from here).`)];
  }
  const msg = el("span", { class: "muted", role: "status" });
  const input = el("input", { type: "password", id: "admin-token", "aria-label": "admin token", placeholder: "admin token", autocomplete: "off" });
  const button = el("button", { class: "b", type: "button", id: "pause", onclick: async () => {
    const t = input.value || sessionStorage.getItem("tapp-admin-token") || "";
    if (!t) { msg.textContent = "give the admin token (TAPP_ADMIN_TOKEN) first"; input.focus(); return; }
    try {
      await rpc("SetLeaguePaused", { leagueId: id, paused: !p.paused }, "tapp.view.v1.LeagueAdminService", t);
      sessionStorage.setItem("tapp-admin-token", t);
      msg.textContent = p.paused ? "resumed: work starts within a few seconds" : "paused: the deals being played finish, no new one starts";
      p.paused = !p.paused;
      button.textContent = p.paused ? "Resume" : "Pause";
    } catch (err) {
      msg.textContent = String(err.message || err);
    }
  } }, p.paused ? "Resume" : "Pause");
  return [sessionStorage.getItem("tapp-admin-token") ? null : input, button, msg].filter(Boolean);
}

// --- matches ---------------------------------------------------------------------------

async function matchesPage(q) {
  const f = { bot: q.get("bot") || "", leagueId: q.get("league") || "", rules: q.get("rules") || "", limit: Number(q.get("limit") || 50) };
  const since = q.get("since");
  if (since) f.since = new Date(Date.now() - Number(since) * 3600e3).toISOString();
  const resp = await rpc("ListMatches", f);
  const input = (name, label, value, attrs = {}) => el("label", {}, label, el("input", { name, value, ...attrs }));
  const form = el("form", { class: "filters", onsubmit: (e) => {
    e.preventDefault();
    const data = new URLSearchParams([...new FormData(e.target)].filter(([, v]) => v));
    location.hash = "#/matches?" + data.toString();
  } }, input("bot", "bot", f.bot), input("league", "league", f.leagueId), input("rules", "rules", f.rules, { placeholder: "modern" }),
  input("since", "started within (hours)", since || "", { type: "number", min: 0 }), el("button", { class: "b", type: "submit" }, "Filter"));
  const ms = resp.matches || [];
  show(el("h1", {}, "Matches"), form, ms.length ? el("div", { class: "scroll" }, el("table", { id: "matches" },
    el("thead", {}, el("tr", {}, ["match", "started", "status", "deals", "rules", "bots"].map((t, i) => el("th", { class: i === 0 || i > 3 ? "l" : "" }, t)))),
    el("tbody", {}, ms.map((m) => el("tr", { "data-match": m.matchId },
      el("td", { class: "l" }, link("#/match/" + encodeURIComponent(m.matchId), m.matchId)), el("td", {}, when(m.started)), el("td", {}, m.status),
      el("td", {}, `${m.dealsPlayed || 0}/${m.dealsPlanned || 0}`), el("td", { class: "l" }, m.rules.split(" ")[0]),
      el("td", { class: "l" }, (m.bots || []).join(", "))))))) : el("p", { class: "muted" }, "No matches match."));
}

async function matchPage(id, q) {
  const from = Math.max(Number(q.get("from") || 0), 0);
  const resp = await rpc("GetMatch", { matchId: id, firstDeal: from });
  const m = resp.match;
  const players = (m.bots || []).length;
  const deals = resp.deals || [];
  // A long match comes a page at a time: the net above is over every stored deal.
  const page = (from > 0 || resp.more) && deals.length ? el("p", { class: "muted", id: "deal-pages" },
    `deals ${deals[0].dealNumber || 0}–${deals[deals.length - 1].dealNumber || 0} of ${m.dealsPlayed} stored`,
    from > 0 ? el("span", {}, " · ", link(`#/match/${encodeURIComponent(id)}?from=${Math.max(from - deals.length, 0)}`, "‹ earlier")) : null,
    resp.more ? el("span", {}, " · ", link(`#/match/${encodeURIComponent(id)}?from=${resp.nextDeal}`, "later ›")) : null) : null;
  const netRows = (m.bots || []).map((b, i) => el("tr", {}, el("td", { class: "l" }, b), el("td", {}, m.net ? m.net[i] : 0)));
  show(el("h1", {}, "Match " + m.matchId),
    el("p", { class: "muted" }, `${m.status} · ${m.rules} · ${m.dealsPlayed}/${m.dealsPlanned} deals${m.duplicate ? " · duplicate" : ""}${m.leagueId ? " · league " + m.leagueId : ""}`,
      m.status === "running" ? el("span", {}, " · ", link("#/live/" + encodeURIComponent(id), "watch it live")) : null),
    el("h2", {}, "Net result"), el("table", { style: "width:auto" }, el("tbody", {}, netRows)),
    el("h2", {}, "Deals"), page,
    deals.length ? el("div", { class: "scroll" }, el("table", { id: "deals" },
      el("thead", {}, el("tr", {}, el("th", {}, "deal"), el("th", {}, "group"), el("th", { class: "l" }, "contract"), el("th", { class: "l" }, "declarer"),
        el("th", { class: "l" }, "result"), Array.from({ length: players }, (_, s) => el("th", {}, "seat " + s)), el("th", {}))),
      el("tbody", {}, deals.map((d) => {
        if (d.inPlay) {
          // Its cards are still in play at another table: nothing of it is shown yet.
          return el("tr", { "data-deal": d.dealNumber || 0, class: "muted" }, el("td", {}, d.dealNumber || 0), el("td", {}, d.group || 0),
            el("td", { class: "l", colspan: 3 + players }, "stored; withheld while its cards are in play at another table of its group"), el("td", {}));
        }
        const st = d.settlement || {};
        const decl = st.declarer >= 0 && !st.thrownIn ? d.seating[st.declarer] : "";
        const result = st.thrownIn ? "thrown in" : st.draw ? "draw" : decl ? (st.declarerWon ? "made" : "lost") : "";
        return el("tr", { "data-deal": d.dealNumber || 0 }, el("td", {}, d.dealNumber || 0), el("td", {}, d.group || 0),
          el("td", { class: "l" }, (st.contract || "") + (st.trump ? " " + (SUITS[st.trump] || st.trump) : "") + (st.tout ? " tout" : "")),
          el("td", { class: "l" }, decl), el("td", { class: "l" }, result),
          (st.payoff || []).map((p, s) => el("td", { title: d.seating[s] }, `${signed(p, 0)} ${d.seating[s]}`)),
          el("td", {}, link(`#/replay/${encodeURIComponent(id)}/${d.dealNumber || 0}`, "replay")));
      })))) : el("p", { class: "muted" }, "No finished deal yet."));
}

// --- replay ----------------------------------------------------------------------------

const contractText = (c, trump, tout) => (c ? c + (trump ? " " + (SUITS[trump] || trump) : "") + (tout ? " + Tout" : "") : "");

async function replayPage(id, number, q) {
  const view = q.get("view") || "full";
  const r = await rpc("GetReplay", { matchId: id, dealNumber: number, view });
  const steps = r.steps || [];
  const players = r.players;
  const bot = (seat) => (seat >= 0 ? r.seating[seat] || "seat " + seat : "");
  let k = Math.min(Math.max(Number(q.get("step") || 0), 0), steps.length - 1);
  let an = null; // GetReplayAnalysis, once it has come

  const viewPick = el("select", { id: "view", "aria-label": "whose view", onchange: (e) => {
    location.hash = `#/replay/${encodeURIComponent(id)}/${number}?view=${e.target.value}&step=${k}`;
  } }, el("option", { value: "full", selected: view === "full" }, "full view (every card)"),
  el("option", { value: "public", selected: view === "public" }, "public view"),
  Array.from({ length: players }, (_, s) => el("option", { value: String(s), selected: view === String(s) }, `${seatName(s, players)}: ${r.seating[s]}`)));
  const dealPick = el("select", { id: "deal", "aria-label": "deal", onchange: (e) => { location.hash = `#/replay/${encodeURIComponent(id)}/${e.target.value}?view=${view}`; } },
    (r.dealNumbers || []).map((n) => el("option", { value: n, selected: n === number }, "deal " + n)));
  const stepPick = el("select", { id: "step", "aria-label": "jump to decision", onchange: (e) => go(Number(e.target.value)) },
    steps.map((s, i) => el("option", { value: i }, s.end ? "the end" : `decision ${i}: ${r.seating[s.seat]} ${decisionName(s.decision)}`)));
  const trickStarts = [];
  steps.forEach((s, i) => { if (s.trick >= 0 && (i === 0 || steps[i - 1].trick !== s.trick)) trickStarts.push(i); });
  const trickPick = el("select", { id: "trick", "aria-label": "jump to trick", onchange: (e) => go(Number(e.target.value)) },
    el("option", { value: "" }, "jump to trick…"), trickStarts.map((i) => el("option", { value: i }, steps[i].end ? "the end" : "trick " + (steps[i].trick + 1))));
  const btn = (label, title, f, id2) => el("button", { class: "b", type: "button", title, "aria-label": title, onclick: f, id: id2 }, label);
  const first = btn("|◀", "first (Home)", () => go(0), "first"), prev = btn("◀", "back (←)", () => go(k - 1), "prev");
  const next = btn("▶", "forward (→)", () => go(k + 1), "next"), last = btn("▶|", "end (End)", () => go(steps.length - 1), "last");
  const felt = el("div", { class: "felt" + (players === 3 ? " p3" : ""), id: "felt" });
  const panel = el("div", { class: "panel", id: "decision" });
  const bidding = el("section", { class: "panel", id: "bidding" });
  const tricks = el("section", { class: "panel", id: "tricks" });
  const score = el("section", { class: "panel", id: "score" });
  const analysisNote = el("p", { class: "help", id: "analysis-status" }, "analysis: computing…");
  const share = el("a", { id: "share" }, "link to this step");
  const opts = [];
  if (r.pot) opts.push(`pot ${r.pot} carried in`);
  if (r.forcedRamsch) opts.push("forced Ramsch (R-SESSION-3)");
  show(el("h1", {}, `Match ${r.match.matchId} · deal ${number}`),
    el("p", { class: "muted rules" }, `${r.match.rules} · group ${r.group || 0} · after ${r.dealsBefore || 0} deal(s) of the match`,
      opts.length ? " · " + opts.join(" · ") : "", " · ", link("#/match/" + encodeURIComponent(id), "all deals")),
    el("div", { class: "controls" }, dealPick, viewPick, first, prev, next, last, stepPick, trickPick, share),
    el("p", { class: "help" }, "keys: ", el("span", { class: "kbd" }, "←"), " ", el("span", { class: "kbd" }, "→"), " step, ",
      el("span", { class: "kbd" }, "PgUp"), " ", el("span", { class: "kbd" }, "PgDn"), " trick, ",
      el("span", { class: "kbd" }, "Home"), " ", el("span", { class: "kbd" }, "End")),
    el("div", { class: "tablewrap" }, felt, panel),
    el("div", { class: "boards" }, bidding, tricks, score),
    analysisNote);

  function go(i) {
    k = Math.min(Math.max(i, 0), steps.length - 1);
    draw();
  }
  function trickJump(dir) {
    const cur = steps[k].trick;
    if (dir > 0) { const i = steps.findIndex((s, j) => j > k && s.trick !== cur && s.trick >= 0); go(i < 0 ? steps.length - 1 : i); }
    else { const starts = trickStarts.filter((i) => i < k); go(starts.length ? starts[starts.length - 1] : 0); }
  }
  keyHandler = (e) => {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const keys = { ArrowRight: () => go(k + 1), ArrowLeft: () => go(k - 1), Home: () => go(0), End: () => go(steps.length - 1),
      PageDown: () => trickJump(1), PageUp: () => trickJump(-1) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  };

  // The analysis this step may show: the server sends it per step (only where the view sees
  // every card); what earlier steps showed stays known.
  function analysisAt(i) {
    const out = { byDecision: new Map(), par: null };
    if (!an) return out;
    for (const sa of (an.steps || []).slice(0, i + 1)) {
      if (sa.par) out.par = sa.par;
      for (const d of sa.decisions || []) {
        const list = out.byDecision.get(d.decision || 0) || [];
        if (!list.some((x) => x.kind === d.kind)) list.push(d);
        out.byDecision.set(d.decision || 0, list);
      }
    }
    return out;
  }

  function draw() {
    const s = steps[k];
    const t = s.table || {};
    stepPick.value = String(k);
    first.disabled = prev.disabled = k === 0;
    next.disabled = last.disabled = k === steps.length - 1;
    const hash = `#/replay/${encodeURIComponent(id)}/${number}?view=${view}&step=${k}`;
    share.href = hash;
    history.replaceState(null, "", hash);
    const known = analysisAt(k);
    felt.replaceChildren(...feltView(s, t, r, bot));
    panel.replaceChildren(...(s.end ? endPanel(s, r, known, bot) : stepPanel(s, r, bot, known)));
    bidding.replaceChildren(...biddingView(t, s, bot, known));
    tricks.replaceChildren(...tricksView(t, bot, known, players));
    score.replaceChildren(...scoreView(s, t, r, bot));
  }
  draw();
  rpc("GetReplayAnalysis", { matchId: id, dealNumber: number, view }).then((a) => {
    an = a;
    const ready = (a.steps || []).some((sa) => (sa.decisions || []).length);
    analysisNote.textContent = (ready ? `analysis: double-dummy (${a.method}${a.stored ? ", stored" : ", computed now"}); in ${a.unit}` +
      (view === "full" ? "" : "; it depends on every hand, so this view shows it at the end of the deal") : "analysis: none") + (a.note ? " — " + a.note : "");
    document.body.dataset.analysis = "1";
    draw();
  }).catch((err) => { analysisNote.textContent = "analysis: " + (err.message || err); document.body.dataset.analysis = "1"; });
}

function decisionName(d) {
  return String(d || "").replace("DECISION_", "").toLowerCase();
}

// feltView draws the seats, their hands as the view sees them, the trick being played, the
// tapp, the lay-away and the called card.
function feltView(s, t, r, bot) {
  const players = r.players;
  const cur = t.current;
  const seats = Array.from({ length: players }, (_, seat) => {
    const h = (t.hands || [])[seat] || {};
    const cards = (h.cards || []).map((c) => card(c, !s.end && s.seat === seat && s.action === c ? "last" : ""));
    for (let i = 0; i < (h.hidden || 0); i++) cards.push(card(""));
    const tags = [];
    if (t.declarer === seat && t.contract && t.contract !== "ramsch") tags.push("declarer");
    if (t.calledHolder === seat && t.called) tags.push("held " + t.called);
    if (h.exposed) tags.push("hand face up");
    if (h.dealt) tags.push("as dealt");
    return el("div", { class: "seat" + (!s.end && s.seat === seat ? " tomove" : ""), style: `grid-area:s${seat}`, "data-seat": seat },
      el("h3", {}, `${seatName(seat, players)} · ${bot(seat)}`, tags.length ? " · " + tags.join(", ") : "",
        ` · ${(t.tricksTaken || [])[seat] || 0} tricks, ${(t.pointsTaken || [])[seat] || 0} pts`),
      el("div", { class: "cards", "data-hand": seat }, cards));
  });
  const middle = [];
  if (cur && (cur.cards || []).length) {
    middle.push(el("div", { class: "cards", "data-current": "" }, cur.cards.map((c, i) => el("span", { class: "played-by", title: bot(cur.seats[i]) }, card(c), el("small", {}, bot(cur.seats[i]))))));
  } else if (!s.end) {
    middle.push(el("span", { class: "muted" }, (s.trick >= 0 ? "" : "bidding · ") + "no trick in progress"));
  }
  const tapp = (t.tapp || []).map((c) => card(c));
  for (let i = 0; i < (t.tappHidden || 0); i++) tapp.push(card(""));
  middle.push(el("div", { class: "extras" },
    el("div", { id: "tapp" }, el("small", {}, "tapp" + (t.tappTakenBy >= 0 ? ` (taken up by ${bot(t.tappTakenBy)})` : r.view === "full" && !s.end ? " (unseen by the players)" : "")),
      el("div", { class: "cards" }, tapp)),
    (t.laidAway || []).length || t.laidAwayHidden ? el("div", { id: "laidaway" }, el("small", {}, "laid away"),
      el("div", { class: "cards" }, (t.laidAway || []).map((c) => card(c)), Array.from({ length: t.laidAwayHidden || 0 }, () => card("")))) : null,
    t.called ? el("div", { id: "called" }, el("small", {}, "called"), el("div", { class: "cards" }, card(t.called)),
      el("small", {}, t.calledInTapp ? "in the tapp" : t.calledHolder >= 0 ? "held by " + bot(t.calledHolder) : "",
        t.given ? " · given back " : "", t.given ? card(t.given) : null)) : null));
  return [...seats, el("div", { class: "trick", "data-trick": "" }, middle)];
}

// analysisLine is what the analysis says of one decision.
function analysisLine(d) {
  const unit = d.unit || "";
  if (d.kind === "bid") {
    return el("div", { class: "an", "data-kind": "bid", "data-loss": d.loss || 0 }, `bidding regret ${num(d.loss, 1)} ${unit}: best ${(d.best || []).join(" ")} (${signed(d.parBefore, 1)}), did ${d.action} (${signed(d.parAfter, 1)})`);
  }
  const lost = (d.loss || 0) > 0 || (d.hasLossPoints && d.lossPoints);
  return el("div", { class: "an" + (lost ? " lost" : ""), "data-kind": "card", "data-loss": d.loss || 0, "data-par-before": d.parBefore || 0, "data-par-after": d.parAfter || 0, "data-best": (d.best || []).join(" ") },
    lost ? `loses ${num(d.loss, 1)} ${unit}` + (d.hasLossPoints && unit !== "card points" ? ` (${d.lossPoints} card points)` : "") : "keeps par",
    ` · par ${signed(d.parBefore, 1)} → ${signed(d.parAfter, 1)} · par-keeping: ${(d.best || []).join(" ")}`);
}

function parText(p, unit) {
  if (!p) return "";
  const pts = p.hasCardPoints ? (p.cardPointsLow !== p.cardPointsHigh ? `, ${p.cardPointsLow}-${p.cardPointsHigh} card points` : `, ${p.cardPointsLow} card points`) : "";
  return `${p.made ? "makes" : "fails"}${pts}, ${signed(p.payoff, 1)} ${unit || ""}`;
}

function stepPanel(s, r, bot, known) {
  const players = r.players;
  const t = s.table || {};
  const rows = [
    ["decision", `${s.index} · ${decisionName(s.decision)}`],
    ["who", `${seatName(s.seat, players)}: ${s.bot}`],
    ["contract", t.contract ? contractText(t.contract, t.trump, t.tout) + (t.declarer >= 0 ? ` by ${bot(t.declarer)}` : "") : "not yet"],
    ["action", s.action || "(hidden from this view)"],
    ["latency", ms(s.latency)],
  ];
  if (s.own) rows.push(["think time", s.think ? ms(s.think) : "not reported"]);
  if (s.strike || s.fallback) rows.push(["arena", (s.strike ? "strike; " : "") + (s.fallback ? "fallback played" : "")]);
  const out = [el("dl", {}, rows.flatMap(([a, b]) => [el("dt", {}, a), el("dd", {}, b)]))];
  const mine = known.byDecision.get(s.index) || [];
  out.push(el("div", { id: "analysis" }, el("h3", {}, "analysis"),
    known.par ? el("p", { "data-par": "" }, "par of the deal: " + parText(known.par, "")) : null,
    mine.length ? mine.map(analysisLine) : el("p", { class: "muted" }, r.view === "full" ? "none for this decision" :
      "shown at the end of the deal: it depends on every hand, which this view does not see yet")));
  if (s.own) {
    out.push(el("h3", {}, "legal options"), el("p", { class: "legal" }, (s.legal || []).join(" ")));
    if ((s.attempts || []).length) {
      out.push(el("h3", {}, "answers"), el("ul", { class: "log" }, s.attempts.map((a) =>
        el("li", { class: a.rejected ? "error" : "" }, `${a.text} after ${ms(a.after)}`, a.rejected ? ` — refused: ${a.rejected}` : " — accepted"))));
    }
    if (s.flooded) out.push(el("p", { class: "error", "data-flooded": s.flooded }, `and ${s.flooded} more answers, refused and counted, not listed (PROTO-FLOOD)`));
    if (s.request) out.push(el("details", {}, el("summary", {}, "the request as sent"), el("pre", { class: "sent" }, JSON.stringify(s.request, null, 1))));
  } else {
    out.push(el("p", { class: "muted" }, "Another seat's request and answers are not part of this view."));
  }
  return out;
}

function endPanel(s, r, known, bot) {
  const st = s.settlement || {};
  const players = r.players;
  const rows = Array.from({ length: players }, (_, seat) => el("tr", {},
    el("td", { class: "l" }, `${seat} ${bot(seat)}`), el("td", {}, (st.points || [])[seat] || 0), el("td", {}, (st.tricks || [])[seat] || 0),
    el("td", { "data-payoff-seat": seat }, signed((st.payoff || [])[seat] || 0, 0))));
  // Each seat's card loss and bidding regret over the deal, where the analysis is known.
  const loss = new Array(players).fill(0), regret = new Array(players).fill(0);
  let any = false;
  for (const list of known.byDecision.values()) {
    for (const d of list) {
      any = true;
      if (d.kind === "bid") regret[d.seat] += d.loss || 0; else loss[d.seat] += d.loss || 0;
    }
  }
  return [el("h3", {}, "the end"),
    el("p", {}, st.thrownIn ? "thrown in" : `${contractText(st.contract, st.trump, st.tout)} by ${bot(st.declarer) || "nobody"}: ${st.draw ? "draw" : st.contract === "ramsch" ? "ramsch" : st.declarerWon ? "made" : "lost"}`),
    el("table", { id: "payoffs" }, el("thead", {}, el("tr", {}, el("th", { class: "l" }, "seat"), el("th", {}, "points"), el("th", {}, "tricks"), el("th", {}, "payoff"))),
      el("tbody", {}, rows)),
    el("div", { id: "analysis" }, el("h3", {}, "analysis"),
      known.par ? el("p", { "data-par": "" }, "par of the deal: " + parText(known.par, "")) : null,
      any ? el("table", { id: "deal-analysis" }, el("thead", {}, el("tr", {}, el("th", { class: "l" }, "seat"), el("th", {}, "card loss"), el("th", {}, "bid regret"))),
        el("tbody", {}, Array.from({ length: players }, (_, seat) => el("tr", { "data-seat": seat }, el("td", { class: "l" }, bot(seat)),
          el("td", { "data-card-loss": "" }, num(loss[seat], 1)), el("td", { "data-bid-regret": "" }, num(regret[seat], 1)))))) :
        el("p", { class: "muted" }, "not available"))];
}

// biddingView is the bidding and declaration log, with each seat's bidding regret where the
// analysis is known.
function biddingView(t, s, bot, known) {
  const entries = t.bidding || [];
  const out = [el("h2", {}, "Bidding")];
  if (!entries.length) {
    out.push(el("p", { class: "muted" }, "nothing bid yet"));
    return out;
  }
  out.push(el("table", { id: "bidding-log" }, el("tbody", {}, entries.map((e) => {
    const regret = (known.byDecision.get(e.decision || 0) || []).find((d) => d.kind === "bid");
    return el("tr", { "data-decision": e.decision || 0, "data-seat": e.seat || 0, "data-action": e.action },
      el("td", { class: "l" }, bot(e.seat || 0)), el("td", { class: "l" }, e.action),
      el("td", { "data-regret": regret ? regret.loss || 0 : "" }, regret ? `regret ${num(regret.loss, 1)}` : ""));
  }))));
  if (t.contract) out.push(el("p", { "data-contract": "" }, "contract: " + contractText(t.contract, t.trump, t.tout) + (t.declarer >= 0 ? " by " + bot(t.declarer) : "")));
  return out;
}

// tricksView lists every trick: leader, cards with who played them and what each lost, winner.
function tricksView(t, bot, known, players) {
  const all = [...(t.tricks || [])];
  if (t.current && (t.current.cards || []).length) all.push(t.current);
  const out = [el("h2", {}, "Tricks")];
  if (!all.length) {
    out.push(el("p", { class: "muted" }, "no card played yet"));
    return out;
  }
  out.push(el("div", { class: "scroll" }, el("table", { id: "trick-log" }, el("tbody", {}, all.map((tr) => el("tr", {
    "data-trick": tr.number || 0, "data-leader": tr.leader || 0, "data-winner": tr.winner === undefined ? -1 : tr.winner },
  el("td", {}, (tr.number || 0) + 1),
  el("td", { class: "l cards" }, (tr.cards || []).map((c, i) => {
    const d = (known.byDecision.get((tr.decisions || [])[i]) || []).find((x) => x.kind === "card");
    const lost = d && ((d.loss || 0) > 0 || (d.hasLossPoints && d.lossPoints));
    return el("span", { class: "trick-card" + (tr.winner === tr.seats[i] ? " won" : ""), "data-card-decision": (tr.decisions || [])[i], title: bot(tr.seats[i]) },
      card(c), el("small", {}, bot(tr.seats[i])), d ? el("small", { class: lost ? "loss" : "par", "data-loss": d.loss || 0 }, lost ? `−${num(d.loss, 1)}` : "par") : null);
  })),
  el("td", { class: "l" }, tr.winner >= 0 ? `${bot(tr.winner)} · ${tr.points || 0} pts` : "in play")))))));
  return out;
}

// scoreView is the running score: tricks and card points of the deal so far, and the match's
// score before this deal (and after it, at the end).
function scoreView(s, t, r, bot) {
  const players = r.players;
  const st = s.settlement || {};
  const before = r.scoreBefore || [];
  return [el("h2", {}, "Score"), el("table", { id: "score-table" },
    el("thead", {}, el("tr", {}, el("th", { class: "l" }, "bot"), el("th", {}, "tricks"), el("th", {}, "card pts in tricks"),
      el("th", {}, `match before (${r.dealsBefore || 0} deals)`), s.end ? el("th", {}, "after") : null)),
    el("tbody", {}, Array.from({ length: players }, (_, seat) => el("tr", { "data-seat": seat },
      el("td", { class: "l" }, bot(seat)), el("td", {}, (t.tricksTaken || [])[seat] || 0), el("td", {}, (t.pointsTaken || [])[seat] || 0),
      el("td", { "data-score-before": "" }, signed(before[seat] || 0, 0)),
      s.end ? el("td", { "data-score-after": "" }, signed(Number(before[seat] || 0) + Number((st.payoff || [])[seat] || 0), 0)) : null))))];
}

// --- live ------------------------------------------------------------------------------

async function livePage(id) {
  if (!id) {
    const resp = await rpc("GetLive", {});
    const ms = resp.running || [];
    show(el("h1", {}, "Live"), ms.length ? el("ul", {}, ms.map((m) => el("li", {}, link("#/live/" + encodeURIComponent(m.matchId), m.matchId), ` · ${m.rules.split(" ")[0]} · ${(m.bots || []).join(", ")}`))) :
      el("p", { class: "muted" }, "No match is running in this arena (the dashboard of `tapp web` shows stored results only)."));
    pageTimer = setTimeout(() => route(), 3000);
    return;
  }
  let seq = 0;
  const deals = new Map(); // number -> {seating, events[], finished}
  const box = el("div", { id: "live" });
  const head = el("div", { id: "live-match" });
  const status = el("p", { class: "muted", id: "live-status" }, "watching…");
  const note = el("p", { class: "muted", id: "live-note" });
  show(el("h1", {}, "Live: match " + id), head, status, note, box);
  async function poll() {
    const resp = await rpc("GetLive", { matchId: id, afterSeq: seq });
    const me = (resp.running || []).find((m) => m.matchId === id);
    if (me && me.duplicate) {
      note.textContent = "Duplicate play: a deal is shown only while it is the last of its group in play (the others deal the same cards).";
    }
    for (const d of resp.deals || []) {
      const cur = deals.get(d.dealNumber || 0) || { events: [] };
      cur.seating = d.seating; cur.finished = d.finished;
      deals.set(d.dealNumber || 0, cur);
    }
    for (const ev of resp.events || []) {
      const cur = deals.get(ev.dealNumber || 0) || { events: [], seating: [] };
      cur.events.push(ev.event || {});
      deals.set(ev.dealNumber || 0, cur);
    }
    seq = Number(resp.lastSeq || seq);
    if (resp.match) head.replaceChildren(liveMatch(resp.match));
    const shown = [...deals.entries()].sort((a, b) => b[0] - a[0]).slice(0, 4);
    box.replaceChildren(...shown.map(([n, d]) => liveDeal(n, d)));
    box.dataset.seq = String(seq);
    if (resp.matchFinished) {
      status.replaceChildren("the match is over: ", link("#/match/" + encodeURIComponent(id), "its deals"));
      return;
    }
    pageTimer = setTimeout(() => poll().catch(fail), 700);
  }
  await poll();
}

// liveMatch is the match's head: its bots with their score so far, and its progress.
function liveMatch(m) {
  const played = m.dealsPlayed || 0, planned = m.dealsPlanned || 0;
  return el("div", {},
    el("p", { class: "muted rules" }, `${m.rules}${m.duplicate ? " · duplicate" : ""}${m.leagueId ? " · league " + m.leagueId : ""}`),
    el("p", { id: "live-progress" }, `${played} of ${planned} deals played`,
      el("progress", { max: planned || 1, value: played, "aria-label": "deals played" })),
    el("table", { id: "live-score" }, el("thead", {}, el("tr", {}, el("th", { class: "l" }, "bot"), el("th", {}, "score so far"))),
      el("tbody", {}, (m.bots || []).map((b, i) => el("tr", { "data-bot": b }, el("td", { class: "l" }, b), el("td", {}, signed((m.net || [])[i] || 0, 0)))))));
}

function liveDeal(n, d) {
  // Only public events reach this page: the cards played, the bids, the tricks won, and the
  // hands once the deal is over.
  const players = Math.max(3, (d.seating || []).length);
  const bot = (s) => (d.seating || [])[s] || "seat " + s;
  const trick = [];
  const taken = new Array(players).fill(0), points = new Array(players).fill(0);
  const bids = [];
  let contract = "", reveal = null, payoff = null, lastIndex = -1;
  for (const ev of d.events) {
    lastIndex = Math.max(lastIndex, ev.index || 0);
    switch (ev.kind) {
      case "EVENT_KIND_BID": bids.push(`${bot(ev.seat)}: ${ev.action}`); break;
      case "EVENT_KIND_CARD": if (trick.length === players) trick.length = 0; trick.push({ card: ev.card, seat: ev.seat }); break;
      case "EVENT_KIND_TRICK_WON": taken[ev.seat] = (taken[ev.seat] || 0) + 1; points[ev.seat] += ev.points || 0; break;
      case "EVENT_KIND_CONTRACT": contract = contractText(ev.contract, ev.trump) + (ev.seat >= 0 ? " by " + bot(ev.seat) : ""); break;
      case "EVENT_KIND_CALL": contract += `, calls ${ev.card}`; break;
      case "EVENT_KIND_CALLED_CARD": contract += ev.holder >= 0 ? ` (held by ${bot(ev.holder)})` : " (in the tapp)"; break;
      case "EVENT_KIND_DEAL_END": reveal = ev.hands || []; break;
      case "EVENT_KIND_SETTLED": payoff = ev.payoff || []; break;
    }
  }
  return el("section", { class: "panel live-deal", "data-live-deal": n, "data-last-index": lastIndex },
    el("h2", {}, `deal ${n}`, d.finished ? " (over)" : ""),
    el("p", {}, contract || (bids.length ? "bidding: " + bids.join(" · ") : "bidding")),
    el("div", { class: "cards", "data-trick": "" }, trick.map((c) => el("span", { class: "played-by" }, card(c.card), el("small", {}, bot(c.seat))))),
    el("ul", {}, Array.from({ length: players }, (_, s) => el("li", {}, `${bot(s)}: ${taken[s]} tricks, ${points[s]} pts`,
      payoff ? ` · payoff ${signed(payoff[s] || 0, 0)}` : "",
      reveal && reveal[s] ? el("div", { class: "cards", "data-hand": s }, (reveal[s].cards || []).map((c) => card(c))) : null))));
}

// --- routing ---------------------------------------------------------------------------

async function route() {
  clearInterval(pageTimer);
  clearTimeout(pageTimer);
  pageTimer = null;
  keyHandler = null;
  document.body.dataset.analysis = "";
  const { parts, q } = params(location.hash);
  try {
    switch (parts[0] || "") {
      case "": await leaderboardPage(q); break;
      case "leagues": await leaguesPage(); break;
      case "league": await leaguePage(parts[1]); break;
      case "matches": await matchesPage(q); break;
      case "match": await matchPage(parts[1], q); break;
      case "replay": await replayPage(parts[1], Number(parts[2] || 0), q); break;
      case "live": await livePage(parts[1]); break;
      default: show(el("p", { class: "error" }, "No such page: " + location.hash));
    }
    document.body.dataset.page = parts[0] || "leaderboard";
    document.body.dataset.ready = "1";
  } catch (err) {
    fail(err);
    document.body.dataset.ready = "1";
  }
}

document.addEventListener("keydown", (e) => { if (keyHandler) keyHandler(e); });
window.addEventListener("hashchange", () => { document.body.dataset.ready = ""; route(); });
route();
