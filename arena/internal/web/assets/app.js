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
// call, and no script here ever sees it.
async function rpc(method, req, service = VIEW) {
  const headers = { "Content-Type": "application/json", "Connect-Protocol-Version": "1" };
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
  show(el("h1", {}, "Leagues"), ls.length ? el("div", { class: "scroll" }, el("table", {},
    el("thead", {}, el("tr", {}, ["league", "status", "matches", "deals", "updated"].map((t, i) => el("th", { class: i ? "" : "l" }, t)))),
    el("tbody", {}, ls.map((l) => el("tr", {}, el("td", { class: "l" }, link("#/league/" + encodeURIComponent(l.leagueId), l.leagueId)),
      el("td", {}, l.status), el("td", {}, l.matches || 0), el("td", {}, l.deals || 0), el("td", {}, when(l.updated))))))) :
    el("p", { class: "muted" }, "No leagues stored."));
}

async function leaguePage(id) {
  const box = el("div", { class: "stats", id: "progress" });
  const boardBox = el("div");
  show(el("h1", {}, "League " + id), box, el("h2", {}, "Leaderboard"), boardBox,
    el("p", {}, link("#/?league=" + encodeURIComponent(id), "rating history"), " · ", link("#/matches?league=" + encodeURIComponent(id), "matches")));
  async function refresh() {
    const [p, board] = await Promise.all([rpc("GetLeagueProgress", { leagueId: id }), rpc("GetLeaderboard", { leagueId: id })]);
    const stat = (label, value, key) => el("div", { class: "stat", "data-stat": key }, el("b", {}, value), label);
    const eta = secs(p.eta);
    box.replaceChildren(
      stat("status", p.status, "status"),
      stat(p.dealsPlanned ? `of ${p.dealsPlanned} deals stored` : "deals stored", p.dealsStored || 0, "deals"),
      stat("deals/s", num(p.dealsPerSecond, 1), "rate"),
      stat("ETA", eta ? new Date(Date.now() + eta * 1000).toLocaleTimeString() : "—", "eta"),
      stat("matches running", p.matchesRunning || 0, "running"),
      stat("matches finished", p.matchesFinished || 0, "finished"));
    boardBox.replaceChildren(boardView(board));
    return p.status === "running";
  }
  if (await refresh()) pageTimer = setInterval(() => refresh().catch(fail), 3000);
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

async function replayPage(id, number, q) {
  const view = q.get("view") || "full";
  const r = await rpc("GetReplay", { matchId: id, dealNumber: number, view });
  const steps = r.steps || [];
  const players = r.players;
  let k = Math.min(Math.max(Number(q.get("step") || 0), 0), steps.length - 1);

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
  const share = el("a", { id: "share" }, "link to this step");
  show(el("h1", {}, `Match ${r.match.matchId} · deal ${number}`),
    el("p", { class: "muted" }, `${r.match.rules} · group ${r.group || 0} · `, link("#/match/" + encodeURIComponent(id), "all deals")),
    el("div", { class: "controls" }, dealPick, viewPick, first, prev, next, last, stepPick, trickPick, share),
    el("p", { class: "help" }, "keys: ", el("span", { class: "kbd" }, "←"), " ", el("span", { class: "kbd" }, "→"), " step, ",
      el("span", { class: "kbd" }, "PgUp"), " ", el("span", { class: "kbd" }, "PgDn"), " trick, ",
      el("span", { class: "kbd" }, "Home"), " ", el("span", { class: "kbd" }, "End")),
    el("div", { class: "tablewrap" }, felt, panel));

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
  function draw() {
    const s = steps[k];
    const o = s.observation || {};
    stepPick.value = String(k);
    first.disabled = prev.disabled = k === 0;
    next.disabled = last.disabled = k === steps.length - 1;
    const hash = `#/replay/${encodeURIComponent(id)}/${number}?view=${view}&step=${k}`;
    share.href = hash;
    history.replaceState(null, "", hash);
    const cur = o.current || {};
    const trickCards = (cur.cards || []).map((c, i) => el("span", { title: r.seating[(cur.leader + i) % players] }, card(c)));
    const seats = Array.from({ length: players }, (_, seat) => {
      let hand;
      if (s.hands && s.hands.length) hand = (s.hands[seat] || {}).cards || [];
      else if (seat === o.seat) hand = o.hand || [];
      else hand = Array.from({ length: (o.handSizes || [])[seat] || 0 }, () => "");
      if (s.end && !(s.hands && s.hands.length)) hand = [];
      const taken = (o.tricksTaken || [])[seat] || 0;
      const tags = [];
      if (o.declarer === seat && o.contract) tags.push("declarer");
      return el("div", { class: "seat" + (!s.end && s.seat === seat ? " tomove" : ""), style: `grid-area:s${seat}`, "data-seat": seat },
        el("h3", {}, `${seatName(seat, players)} · ${r.seating[seat]}`, tags.length ? " · " + tags.join(", ") : "", ` · ${taken} tricks`),
        el("div", { class: "cards", "data-hand": seat }, hand.map((c) => card(c, !s.end && s.seat === seat && s.action === c ? "last" : ""))));
    });
    felt.replaceChildren(...seats, el("div", { class: "trick", "data-trick": "" }, trickCards.length ? trickCards : el("span", { class: "muted" }, s.end ? "" : "no trick in progress")));
    panel.replaceChildren(...(s.end ? endPanel(s, r) : stepPanel(s, r, o)));
  }
  draw();
}

function decisionName(d) {
  return String(d || "").replace("DECISION_", "").toLowerCase();
}

function stepPanel(s, r, o) {
  const players = r.players;
  const rows = [
    ["decision", `${s.index} · ${decisionName(s.decision)}`],
    ["who", `${seatName(s.seat, players)}: ${s.bot}`],
    ["contract", o.contract ? o.contract + (o.trump ? " " + (SUITS[o.trump] || o.trump) : "") + (o.declarer >= 0 ? ` by ${r.seating[o.declarer]}` : "") : "not yet"],
    ["action", s.action || "(hidden from this view)"],
    ["latency", ms(s.latency)],
  ];
  if (s.own) rows.push(["think time", s.think ? ms(s.think) : "not reported"]);
  if (s.strike || s.fallback) rows.push(["arena", (s.strike ? "strike; " : "") + (s.fallback ? "fallback played" : "")]);
  const out = [el("dl", {}, rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]))];
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

function endPanel(s, r) {
  const st = s.settlement || {};
  const players = r.players;
  const decl = st.declarer >= 0 ? r.seating[st.declarer] : "";
  const rows = Array.from({ length: players }, (_, seat) => el("tr", {},
    el("td", { class: "l" }, `${seat} ${r.seating[seat]}`), el("td", {}, (st.points || [])[seat] || 0), el("td", {}, (st.tricks || [])[seat] || 0),
    el("td", { "data-payoff-seat": seat }, signed((st.payoff || [])[seat] || 0, 0))));
  return [el("h3", {}, "the end"),
    el("p", {}, st.thrownIn ? "thrown in" : `${st.contract}${st.trump ? " " + (SUITS[st.trump] || st.trump) : ""} by ${decl}: ${st.draw ? "draw" : st.declarerWon ? "made" : "lost"}`),
    el("table", { id: "payoffs" }, el("thead", {}, el("tr", {}, el("th", { class: "l" }, "seat"), el("th", {}, "points"), el("th", {}, "tricks"), el("th", {}, "payoff"))),
      el("tbody", {}, rows))];
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
  const status = el("p", { class: "muted", id: "live-status" }, "watching…");
  const note = el("p", { class: "muted", id: "live-note" });
  show(el("h1", {}, "Live: match " + id), status, note, box);
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

function liveDeal(n, d) {
  // Only public events reach this page: the cards played, the bids, the tricks won, and the
  // hands once the deal is over.
  const players = Math.max(3, (d.seating || []).length);
  const trick = [];
  const taken = new Array(players).fill(0);
  let contract = "", reveal = null, payoff = null, lastIndex = -1;
  for (const ev of d.events) {
    lastIndex = Math.max(lastIndex, ev.index || 0);
    switch (ev.kind) {
      case "EVENT_KIND_CARD": if (trick.length === players) trick.length = 0; trick.push(ev.card); break;
      case "EVENT_KIND_TRICK_WON": taken[ev.seat] = (taken[ev.seat] || 0) + 1; break;
      case "EVENT_KIND_CONTRACT": contract = ev.contract + (ev.trump ? " " + (SUITS[ev.trump] || ev.trump) : "") + (ev.seat >= 0 ? " by seat " + ev.seat : ""); break;
      case "EVENT_KIND_DEAL_END": reveal = ev.hands || []; break;
      case "EVENT_KIND_SETTLED": payoff = ev.payoff || []; break;
    }
  }
  return el("section", { class: "panel live-deal", "data-live-deal": n, "data-last-index": lastIndex },
    el("h2", {}, `deal ${n}`, d.finished ? " (over)" : ""), el("p", {}, contract || "bidding"),
    el("div", { class: "cards", "data-trick": "" }, trick.map((c) => card(c))),
    el("ul", {}, Array.from({ length: players }, (_, s) => el("li", {}, `${(d.seating || [])[s] || "seat " + s}: ${taken[s]} tricks`,
      payoff ? ` · payoff ${signed(payoff[s] || 0, 0)}` : "",
      reveal && reveal[s] ? el("div", { class: "cards", "data-hand": s }, (reveal[s].cards || []).map((c) => card(c))) : null))));
}

// --- routing ---------------------------------------------------------------------------

async function route() {
  clearInterval(pageTimer);
  clearTimeout(pageTimer);
  pageTimer = null;
  keyHandler = null;
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
