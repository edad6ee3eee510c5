// takeiteasy web app: plain JavaScript, no build step.  The server is the authority:
// this page only shows what the server sends and posts the player's clicks.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const R = 50;                        // hex radius in SVG units
const APOTHEM = R * Math.sqrt(3) / 2;
// Stripe direction on screen per direction (vertical, rising, falling): unit vectors.
const DIRS = [[0, 1], [Math.sqrt(3) / 2, -0.5], [Math.sqrt(3) / 2, 0.5]];
// Where each direction's number sits on a tile (a point along the stripe, as a fraction of the apothem).
const DIGIT_AT = [[0, -0.62], [-0.62 * Math.sqrt(3) / 2, 0.31], [-0.62 * Math.sqrt(3) / 2, -0.31]];

const S = {
  presets: [], agents: [], about: {}, palette: {}, names: {}, layouts: {},
  palettes: {},           // the stripe colours of each edition ("classic", "sixboard"), from /api/tiles
  paletteChoice: null,    // the edition's colours this device chose (null: as the rules suggest)
  tokens: [], symbolOf: {},  // every tile, and its sun or moon on the shipped map
  mySymbols: {},          // the table's own sun/moon map: only the tiles whose symbol differs from the shipped one
  session: null,          // {code, token, player}
  state: null, ws: null, pollTimer: null, wsRetry: 0,
  standinTimer: null,     // asks for the state again when the server said a stand-in becomes possible
  standinTick: null,      // counts down the seconds until "Let an AI play for NAME" is offered
  stateAt: 0,             // when the state shown arrived (Date.now()): its standin_after counts from then
  selected: null,         // the pending tile chosen to place
  moving: null,           // a just-placed tile picked up to move
  releases: [], holdPick: null,  // daffodil holding area, end of round
  hint: null,             // {key, status: "loading" | "ready" | "error", announce, hints, error}: one board and tile,
                          // or (announce) one board's tiles to announce
  analysis: null,         // {key, status, report, error}: the analysis of one room's round, once it is over
  keyboard: false,        // the last input was a key, not a pointer
  focusAfter: null,       // where the keyboard's focus goes as the game is redrawn: {from: version} after a placement
                          // (on to what continues the game, "Next tile"), or {tile} after a pick-up cancelled
  spoken: null,           // caller screen: {round, calls} already read aloud (null: nothing yet)
  entry: null,            // caller screen: {key: "code:round", cells, pick}, a board being laid out to enter
  entryShown: null,       // caller screen: {key: "code:round:player", board, score}, the entry last put in the form
  invite: null,           // the room code of a join link being answered (the home page asks for the name first)
  ready: false,           // the home page's buttons are bound to their handlers
  leaving: false,         // this page asked to give up its seat (so losing it is no surprise)
};

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, text) => {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
};

// A caller's words for a tile ("9-6-4", "triple wildcard") in the page's language: the server words the wildcards
// in English (its API stays so), so they are put into the chosen language here.
function callWords(words) {
  if (words === "triple wildcard") return t("wild.triple");
  const double = /^double wildcard with (\d)$/.exec(words);
  return double ? t("wild.double", { n: double[1] }) : words;
}

// a tile as a caller says it: "9-6-4", or a wildcard by its name
const tileName = (token) => callWords(S.names[token] || token.split("").join("-"));
const signed = (x) => `${x >= 0 ? "+" : "−"}${decimal(Math.abs(x))}`;
// A costly move's cost: played out, with its 95% half-width (a line of its own where a phone is narrow), where
// the analysis measured it so; else the search's.
function costCell(m) {
  if (!m.played_out) return el("td", { class: "num cost" }, decimal(m.loss, m.loss < 0.1 ? 2 : 1));
  const cell = el("td", { class: "num cost" }, `${decimal(m.played_out.loss)} `);
  cell.append(el("span", { class: "ci" }, `± ${decimal(m.played_out.ci95)}`));
  return cell;
}

// "Ann", "Ann and Bob", "Ann, Bob and Cleo" in the page's language
function listAnd(names) {
  return names.length < 2 ? names.join("") : t("list.and", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

// The engine's words for what a placement rule asks now (Ruleset.guidance, in English): a known sentence is said in
// the page's language, anything else as it came.
function guidanceWords(rule) {
  if (rule.includes("; ")) return rule.split("; ").map(guidanceWords).join("; ");  // the stamen's, then placement's
  const stamen = {
    "on the stamen: the first tiles go there": "guide.stamen_first",
    "not on the stamen: it stays empty until the other cells are full": "guide.stamen_last_wait",
    "on the stamen: the other cells are full": "guide.stamen_last_now",
    "on a coloured cell or in the holding area: the stamen stays empty": "guide.holding",
  }[rule];
  if (stamen) return t(stamen);
  if (rule === "the first tile: any empty cell") return t("guide.first");
  if (rule === "it must touch a placed tile") return t("guide.touch");
  if (rule === "no cell it may take touches as asked, so the touching rule gives way") return t("guide.gives_way");
  let m = /^a (sun|moon) after a (sun|moon): any empty cell$/.exec(rule);
  if (m && m[1] !== m[2]) return t(`guide.${m[1]}_after_${m[2]}`);
  m = /^a (sun|moon) like your last tile: it must touch (that tile|a placed tile)$/.exec(rule);
  if (m) return t(`guide.${m[1]}_touch_${m[2] === "that tile" ? "last" : "placed"}`);
  return rule;
}

// A live region's words, written only when they change: written again at every render, the same words may be read
// out again (the call, the hint, the score, each time the room's news came in)
function say(node, text) {
  if (node.textContent !== `${text}`) node.textContent = text;
}

// A message at the foot of the page: refusals in red, news ("info") in the page's own colours.  A long message
// stays longer, so that it can be read.
function toast(text, kind = "error") {
  const box = $("toast");  // (not "t": that is the page's words)
  box.textContent = text; box.className = kind; box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, Math.max(4000, 60 * text.length));
}

function clearRefusal() { if ($("toast").className === "error") $("toast").hidden = true; }

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.headers["content-type"] = "application/json"; opts.body = JSON.stringify(body); }
  if (S.session && S.session.token && method === "GET") opts.headers["x-player-token"] = S.session.token;
  let response;
  try { response = await fetch(path, opts); }
  catch { throw new Error(t("err.unreachable")); }  // not "Failed to fetch"
  let data;
  try { data = await response.json(); } catch { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) throw Object.assign(new Error(refusal(data, response.status)), { status: response.status, key: data.key });
  return data;
}

// A refusal in the chosen language where the page has words for its key (docs/WEB.md, "Languages"), else as the
// server said it.
function refusal(data, status) {
  const id = `srv.${data.key}`;
  return data.key && translated(id) ? t(id, data.params || {}) : data.error || `HTTP ${status}`;
}

async function act(action, body = {}) {
  // One action per state shown: a double click would send the move twice, and the second gets a puzzling
  // refusal.  The live update of this very move may arrive before its answer; the newer state it shows can
  // be acted on at once.
  const from = S.state ? S.state.version : -1;
  if (act.from !== undefined && act.from >= from) return;
  act.from = from;
  const session = S.session;
  // a move the server is slow to answer (a new server compiling the engine, a slow network) is said, not silent:
  // a second click is ignored meanwhile
  const slow = setTimeout(() => toast(t("msg.working"), "info"), 1500);
  try {
    const data = await api("POST", `/api/rooms/${session.code}/${action}`, { token: session.token, ...body });
    if (S.session !== session) return true;  // the page left the room meanwhile (a live update said the seat is gone)
    clearRefusal();  // an earlier refusal no longer stands (a board typed again and accepted)
    // AI players move right after the answer: their move may come over the WebSocket before it
    if (isCurrent(data.state)) setState(data.state);
    return true;
  } catch (e) {
    // the seat went meanwhile (removed in the lobby, or given up in another tab): say so, not the raw refusal
    if (e.status === 403 && S.session === session && session.token && /not a player's token/.test(e.message)) seatGone();
    else toast(e.message);
    return false;
  } finally {
    clearTimeout(slow);
    if ($("toast").textContent === t("msg.working")) $("toast").hidden = true;
    if (act.from === from) act.from = undefined;
  }
}

// ---- tiles --------------------------------------------------------------------------------------
function hexPoints(cx, cy, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) pts.push(`${(cx + r * Math.cos(Math.PI / 3 * k)).toFixed(2)},${(cy + r * Math.sin(Math.PI / 3 * k)).toFixed(2)}`);
  return pts.join(" ");
}

function colourOf(value) { return value === "*" ? "#ffffff" : (S.palette[value] || {}).hex || "#888"; }

// A stripe colour under 3:1 against the dark tile (WCAG's contrast for a mark; the six-board edition's black, the
// reds, the classic magenta and the six-board blue): edged in light grey, so that its shape shows while its colour
// stays the printed one.  TILE_BG is app.css's fill of .tile-bg, in light and dark colours alike.
const TILE_BG = "#2f2c29";
function luminance(hex) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return null;
  const [r, g, b] = m.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function faint(hex) {
  const [a, b] = [luminance(hex), luminance(TILE_BG)];
  return a !== null && (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) < 3;
}

// Draw a tile (token like "574") centred at cx, cy into an SVG group, in the colours of the palette in use; with
// ``symbol`` ("sun" or "moon") that symbol, else the room's for the tile when its rules use them.
function drawTile(group, token, cx, cy, r = R, symbol) {
  group.appendChild(el("svg:polygon", { points: hexPoints(cx, cy, r), class: "tile-bg" }));
  const a = r * Math.sqrt(3) / 2;
  const order = [0, 1, 2].sort((i, j) => (token[i] === "*" ? 0 : +token[i]) - (token[j] === "*" ? 0 : +token[j]));
  for (const d of order) {  // the higher number is drawn on top
    const [ux, uy] = DIRS[d];
    const ends = { x1: cx - ux * a, y1: cy - uy * a, x2: cx + ux * a, y2: cy + uy * a };
    const colour = colourOf(token[d]);
    if (token[d] !== "*" && faint(colour)) {
      group.appendChild(el("svg:line", { ...ends, class: "stripe-edge", stroke: "#b9b2a8", "stroke-width": r * 0.38 }));
    }
    const stripe = el("svg:line", {
      ...ends, stroke: colour, "stroke-width": r * 0.3, "stroke-linecap": "butt",
    });
    if (token[d] === "*") stripe.setAttribute("stroke-dasharray", `${r * 0.12} ${r * 0.08}`);
    group.appendChild(stripe);
  }
  for (const d of [0, 1, 2]) {
    const [fx, fy] = DIGIT_AT[d];
    const digit = el("svg:text", { x: cx + fx * a, y: cy + fy * a, class: "digit" }, token[d]);
    digit.style.fontSize = `${r * 0.34}px`;
    group.appendChild(digit);
  }
  const shown = symbol !== undefined ? symbol : symbolsShown() ? S.state.symbols[token] : null;
  if (shown) drawSymbol(group, shown, cx + 0.8 * a, cy, r * 0.12);
}

// Sun/moon rules (the placement and the scoring variants) need each tile's symbol: the room's state has them
// then (the engine decides), drawn in the wedge on the right, free of stripes and numbers.
function symbolsShown() { return !!(S.state && S.state.symbols); }

function drawSymbol(group, symbol, x, y, s) {
  const g = el("svg:g", { class: `symbol ${symbol}`, "data-symbol": symbol });
  g.appendChild(el("svg:title", {}, t(`sym.${symbol}`)));
  if (symbol === "sun") {
    for (let k = 0; k < 8; k++) {
      const angle = Math.PI / 4 * k, c = Math.cos(angle), n = Math.sin(angle);
      g.appendChild(el("svg:line", { x1: x + c * s * 1.15, y1: y + n * s * 1.15, x2: x + c * s * 1.6, y2: y + n * s * 1.6 }));
    }
    g.appendChild(el("svg:circle", { cx: x, cy: y, r: s * 0.85 }));
  } else {  // a crescent opening to the right
    const h = s * 1.6, at = x + s * 0.5;
    g.appendChild(el("svg:path", { d: `M ${at} ${y - h} A ${h} ${h} 0 0 0 ${at} ${y + h} A ${s * 0.55} ${h} 0 0 1 ${at} ${y - h} Z` }));
  }
  group.appendChild(g);
}

// Something clicked can also be reached with Tab and used with Enter or Space.
function pressable(node, label, handler) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", handler);
  node.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    e.stopPropagation();  // Enter on a cell is not the page's "draw the next tile"
    handler();
  });
}

function tileIcon(token, cls = "", symbol) {
  const svg = el("svg:svg", { viewBox: `${-R - 2} ${-APOTHEM - 2} ${2 * R + 4} ${2 * APOTHEM + 4}`, class: cls });
  svg.dataset.tile = token;
  const title = el("svg:title", {}, tileName(token));
  svg.appendChild(title);
  drawTile(svg, token, 0, 0, R, symbol);
  return svg;
}

// ---- the board ----------------------------------------------------------------------------------
async function getLayout(name) {
  if (!S.layouts[name]) S.layouts[name] = await api("GET", `/api/layouts/${name}`);
  return S.layouts[name];
}

// Positions of every board entry: the layout's cells, then the holding slots in a column to the right.
function positions(layout, boardSize) {
  const pos = layout.cells.map((c) => [c.x * R, c.y * R]);
  const maxX = Math.max(...pos.map((p) => p[0]));
  for (let k = layout.cells.length; k < boardSize; k++) pos.push([maxX + 2.6 * R, (k - layout.cells.length - 1) * 2.2 * APOTHEM]);
  return pos;
}

// Where a cell is, in words, for a screen reader: "column 3 of 5, 2nd from the top" (a stamen cell says so).
function cellPlace(layout, i) {
  if (i >= layout.cells.length) return t("cell.slot", { n: i - layout.cells.length + 1 });
  const x = (c) => Math.round(c.x * 100);
  const columns = [...new Set(layout.cells.map(x))].sort((a, b) => a - b);
  const column = layout.cells.filter((c) => x(c) === x(layout.cells[i])).map((c) => c.y).sort((a, b) => a - b);
  const nth = column.indexOf(layout.cells[i].y) + 1;
  const where = nth === 1 ? t("cell.top") : t("cell.nth", { n: nth, ordinal: true });
  return t("cell.column", { col: columns.indexOf(x(layout.cells[i])) + 1, cols: columns.length, where }) +
    (layout.cells[i].stamen ? `, ${t("cell.stamen")}` : "");
}

// What a screen reader says for a cell: where it is and what is on it ("cell 7 (column 3 of 5, top), 9-6-4, sun").
function cellLabel(layout, i, token) {
  const symbol = token && symbolsShown() && S.state.symbols[token] ? `, ${t(`sym.${S.state.symbols[token]}`)}` : "";
  return t("cell.label", { i, place: cellPlace(layout, i), what: token ? tileName(token) + symbol : t("cell.empty") });
}

function drawBoard(svg, layout, board, opts = {}) {
  // a board is a group of named cells: as role "img" its cells' names were hidden and only loose digits were read
  svg.setAttribute("role", "group");
  // keep the keyboard's place on the board as it is redrawn (not after a click: Enter then draws the next tile)
  const focused = S.keyboard && svg.contains(document.activeElement) ? document.activeElement.getAttribute("data-cell") : null;
  svg.replaceChildren();
  const pos = positions(layout, board.length);
  const xs = pos.map((p) => p[0]), ys = pos.map((p) => p[1]);
  const pad = 6;
  const minX = Math.min(...xs) - R - pad, minY = Math.min(...ys) - APOTHEM - pad - (board.length > layout.cells.length ? 24 : 0);
  svg.setAttribute("viewBox", `${minX} ${minY} ${Math.max(...xs) + R + pad - minX} ${Math.max(...ys) + APOTHEM + pad - minY}`);
  if (board.length > layout.cells.length) {
    const [hx] = pos[layout.cells.length];
    svg.appendChild(el("svg:text", { x: hx, y: minY + 16, class: "slot-label" }, t("board.holding")));
  }
  const hintOf = new Map((opts.hints || []).map((h) => [h.cell, h]));
  const bestHint = (opts.hints || [])[0];  // the server sends the best first
  const legal = new Set(opts.legal || []), targets = new Set(opts.targets || []), movable = new Set(opts.movable || []);
  const marked = new Set(opts.marked || []), pickable = new Set(opts.pickable || []);
  board.forEach((token, i) => {
    const [x, y] = pos[i];
    const classes = ["cell"];
    if (i < layout.cells.length && layout.cells[i].stamen) classes.push("stamen");
    if (!token && legal.has(i)) classes.push("legal");
    if (!token && targets.has(i)) classes.push("target");
    if (token && movable.has(i)) classes.push("movable");
    if (token && pickable.has(i)) classes.push("pickable");  // a held tile that may go onto the stamen
    if (token && marked.has(i)) classes.push("marked");
    const g = el("svg:g", { class: classes.join(" "), "data-cell": i, "data-x": x, "data-y": y });
    if (token) {
      g.setAttribute("data-tile", token);
      drawTile(g, token, x, y, R - 1);
    } else {
      g.appendChild(el("svg:polygon", { points: hexPoints(x, y, R - 2), class: "cell-bg" }));
      // a mark, not only a fill a shade greener: under a placement rule the allowed cells must be told apart
      // without telling green from grey
      if ((legal.has(i) || targets.has(i)) && !hintOf.has(i)) {
        g.appendChild(el("svg:circle", { cx: x, cy: y, r: 5, class: "legal-dot" }));
      }
      const hinted = hintOf.get(i);
      if (hinted !== undefined) {
        classes.push("hinted");
        if (hinted === bestHint) classes.push("hint-best");
        g.setAttribute("class", classes.join(" "));
        g.appendChild(el("svg:text", { x, y, class: "hint-num", "data-expected": hinted.expected }, decimal(hinted.expected)));
      }
      if (legal.has(i) && opts.ghost) {
        const ghost = el("svg:g", { class: "ghost" });
        drawTile(ghost, opts.ghost, x, y, R - 4);
        ghost.style.display = "none";
        g.appendChild(ghost);
        g.addEventListener("mouseenter", () => { ghost.style.display = ""; });
        g.addEventListener("mouseleave", () => { ghost.style.display = "none"; });
      }
    }
    const actionable = token ? movable.has(i) || pickable.has(i) : legal.has(i) || targets.has(i);
    const hinted = hintOf.get(i);
    const label = (token || !actionable ? cellLabel(layout, i, token) : t("cell.name", { i, place: cellPlace(layout, i) })) +
      (hinted !== undefined && !token ? `, ${t("cell.hint", { x: decimal(hinted.expected) })}` : "");
    if (opts.onClick && actionable) {
      pressable(g, label, () => opts.onClick(i, token));
      // however the cell got the focus (arrows, a click, the script): the board's Tab stop follows it.  On the
      // cell, not the svg: Chromium makes an SVG element with a focus listener a Tab stop of its own
      g.addEventListener("focus", () => rove(svg, g));
    } else {
      g.setAttribute("role", "img");  // named, its drawing presentational
      g.setAttribute("aria-label", label);
      if (opts.onClick) g.addEventListener("click", () => opts.onClick(i, token));
    }
    svg.appendChild(g);
  });
  // one Tab stop per board: the cell the keyboard was on, else the first to act on (the arrows go between them)
  const again = focused !== null ? svg.querySelector(`[data-cell="${focused}"][tabindex]`) : null;
  const stop = again || svg.querySelector("g[tabindex]");
  if (stop) rove(svg, stop);
  if (focused !== null && stop) stop.focus();
  if (!svg.dataset.arrows) {  // once per board: the arrow keys move the focus between the cells to act on
    svg.dataset.arrows = "1";
    svg.addEventListener("keydown", (e) => arrowOnBoard(svg, e));
  }
  for (const line of opts.scoring || []) {  // at the end: mark each scoring line
    const pts = line.cells.map((c) => pos[c].join(",")).join(" ");
    svg.appendChild(el("svg:polyline", { points: pts, class: "scoring-shadow" }));
    svg.appendChild(el("svg:polyline", { points: pts, class: "scoring-line" }));
  }
  // the marks ran over the numbers on their stripes: the digits of the cells they cross go on top (a layer of
  // their own, after the marks), so that each stays readable in its dark halo
  const crossed = new Set((opts.scoring || []).flatMap((line) => line.cells));
  if (crossed.size) {
    const over = el("svg:g", { class: "digits-over", "aria-hidden": "true" });
    for (const c of crossed) {
      const g = svg.querySelector(`g.cell[data-cell="${c}"]`);
      if (g) for (const digit of g.querySelectorAll(":scope > .digit")) over.appendChild(digit);
    }
    svg.appendChild(over);
  }
}

// A board is one Tab stop (a "roving tabindex"): Tab passed through up to 21 cells to reach the hint button.
function rove(svg, to) {
  for (const g of svg.querySelectorAll("g[tabindex]")) g.setAttribute("tabindex", g === to ? "0" : "-1");
}

// Arrow keys on a board: the focus goes to the nearest cell to act on in that direction; Home and End go to the
// first and the last (in cell order), so every such cell is in reach whatever the arrows skip.
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
function arrowOnBoard(svg, e) {
  const from = e.target.closest && e.target.closest("g[tabindex]");
  if (!from || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "Home" || e.key === "End") {
    const cells = [...svg.querySelectorAll("g[tabindex]")];
    e.preventDefault();
    cells[e.key === "Home" ? 0 : cells.length - 1].focus();
    return;
  }
  const step = ARROWS[e.key];
  if (!step) return;
  const at = (g) => [+g.dataset.x, +g.dataset.y];
  const [x0, y0] = at(from);
  let best = null, bestCost = Infinity;
  for (const g of svg.querySelectorAll("g[tabindex]")) {
    const [dx, dy] = [at(g)[0] - x0, at(g)[1] - y0];
    const along = dx * step[0] + dy * step[1];
    if (g === from || along <= 0) continue;
    const cost = Math.hypot(dx, dy) + 2 * Math.abs(dx * step[1] - dy * step[0]);  // straight on beats aside
    if (cost < bestCost) { best = g; bestCost = cost; }
  }
  e.preventDefault();  // the page does not scroll while the focus moves (or stays, at the edge)
  if (best) best.focus();
}

// ---- views ---------------------------------------------------------------------------------------
function show(view) {
  // another screen starts at its top: on a phone the scroll of the last one left the new one half off screen
  const changed = $(view).hidden;
  for (const id of ["home", "lobby", "game", "caller"]) $(id).hidden = id !== view;
  if (changed) { window.scrollTo(0, 0); sayAgain(view); }
}

// A screen reader reads out a live region's words when they change while it is shown, not the words it has as it
// appears: the status line of a screen just shown (written as the screen came) went unsaid.  A moment later, the
// region shown, the same words are written again, and are read out (unless they changed meanwhile: that was read).
const SAY_AGAIN_MS = 100;
let sayingAgain = 0;  // words to be written again, not yet written (the tests wait for none before they listen)
function sayAgain(view) {
  for (const node of $(view).querySelectorAll("[role=status]")) {
    const text = node.textContent, first = node.firstChild;
    if (!text) continue;  // nothing to say yet: the words to come are read as they are written
    sayingAgain += 1;
    setTimeout(() => {
      sayingAgain -= 1;
      if (!$(view).hidden && node.firstChild === first && node.textContent === text) node.textContent = text;
    }, SAY_AGAIN_MS);
  }
}

function me() { return S.state && S.state.me; }
function myPlayer() { return S.state.players[S.state.you]; }
function isHost() { return S.state.you === S.state.host; }
// the host starts the next round; once an AI stands in for a host who went away, anyone in the room may
function mayStartNext() {
  const st = S.state, mine = st.players[st.you];
  return isHost() || (!!st.players[st.host].standin && !!mine && mine.kind === "human");
}

async function render() {
  const st = S.state;
  applyPalette();
  $("room-label").textContent = st ? t("head.room", { code: st.code }) : "";
  if (!st) { renderInvite(); renderSymbolsEditor(); show("home"); keepFocus("home"); return; }
  if (st.status === "lobby") { renderLobby(); show("lobby"); keepFocus("lobby"); return; }
  if (st.mode === "caller") { renderCaller(); show("caller"); keepFocus("caller"); return; }
  if (await renderGame() === false) return;  // out of date: the newer render shows the game
  show("game");
  keepFocus("game");
}

// The control that had the focus may be gone (a button of the screen left, a cell placed on): the focus then fell
// to the page itself, and a screen reader said nothing of the new screen.  It goes to a sensible place instead:
// on the board, the first cell to act on; else the screen's first heading (or the game's status line).
function keepFocus(view) {
  const active = document.activeElement;
  if (!S.keyboard) return;  // a mouse or a finger: the focus stays where it fell, and Enter keeps its meaning
  if (active && active !== document.body && active.isConnected && active.offsetParent !== null
      && !active.closest("[hidden]")) return;
  const heading = [...$(view).querySelectorAll("h2, h3")].find((h) => h.offsetParent !== null);
  const draw = view === "game" && !$("draw-bar").hidden ? $("draw-btn") : null;  // Enter: the next tile, as ever
  // announcing: the tiles to announce, not the "Players" heading below them
  const target = draw || $(view).querySelector("#board [tabindex='0'], #announce:not([hidden]) [tabindex='0']") || heading
    || (view === "game" ? $("status") : null);
  if (!target) return;
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");  // focusable from the script only
  target.focus({ preventScroll: true });
}

// A join link opened (#join=CODE, or #room=CODE with no seat here): the home page's first card asks for the name
// and joins that room, with nothing to scroll past on a phone; the rest of the page stays below.
function renderInvite() {
  $("home").classList.toggle("invited", !!S.invite);
  $("invite-code").textContent = S.invite || "";
}

function renderLobby() {
  const st = S.state;
  $("lobby-code").textContent = st.code;
  const link = `${location.origin}/#join=${st.code}`;
  $("lobby-link").textContent = link; $("lobby-link").href = link;
  $("lobby-copy").hidden = !navigator.clipboard;  // the clipboard needs https or localhost
  $("lobby-rules").textContent = t(st.mode === "caller" ? "lobby.rules_caller" : "lobby.rules", { preset: presetName(st.preset) || t("preset.custom") });
  $("lobby-players").replaceChildren(...st.players.map((p) => {
    const li = el("li", {}, `${p.name}${p.kind === "ai" ? ` (${t("lobby.ai", { agent: p.agent })})` : ""}` +
      `${p.index === st.host ? ` — ${t("lobby.host")}` : ""}${p.index === st.you ? ` (${t("lobby.you")})` : ""}`);
    // the host takes out any other seat (an AI added by mistake, someone who will not play); a guest their own
    const removable = p.index !== st.host && (isHost() || p.index === st.you);
    if (removable) {
      const own = p.index === st.you;
      // one's own seat: named by its words ("Give up my seat"), as a person using speech says them; another's
      // says whose ("Remove Bob"), the words first
      const b = el("button", { class: "remove", ...(own ? {} : { "aria-label": t("lobby.remove_label", { name: p.name }) }),
        title: own ? t("lobby.give_up_title") : t("lobby.remove_title", { name: p.name }) },
      own ? t("lobby.give_up") : t("lobby.remove"));
      b.addEventListener("click", async () => {
        const code = S.session.code;
        S.leaving = own;
        // the name too: a page that had not yet seen a seat before this one go would remove the wrong one
        if (await act("remove", { player: p.index, name: p.name }) && own) localStorage.removeItem(`tie-${code}`);
        S.leaving = false;
      });
      li.append(" ", b);
    }
    return li;
  }));
  $("lobby-host").hidden = !isHost();
  $("lobby-wait").hidden = isHost();
  $("lobby-wait").textContent = st.you === null ? t("lobby.watching_wait") : t("lobby.wait");
  // "Leave the room" keeps the seat; "Give up my seat" frees it: said beside the buttons, not only in their titles
  const guest = st.you !== null && st.you !== st.host;
  $("lobby-leave-help").hidden = st.you === null;
  $("lobby-leave-help").textContent = guest ? t("lobby.leave_help_guest") : t("lobby.leave_help_host");
  $("lobby-add-ai").hidden = st.mode === "caller" || st.options.solitaire;  // solitaire: one player, alone
  $("lobby-add-person").hidden = st.mode !== "caller";
}

function gameOverText() {
  const st = S.state;
  const names = listAnd(st.winners.map((w) => st.players[w].name));
  return st.players.length > 1 && names ? t("status.game_over_win", { names, n: st.winners.length }) : t("status.game_over");
}

function statusText() {
  const st = S.state, m = me();
  if (st.status === "finished") return gameOverText();
  if (st.status === "round_over") {
    // a best-of match past its boards goes on only while the most boards won are shared (rulebook 001)
    const deciding = st.options.match === "best-of" && st.round + 1 >= st.rounds ? t("status.deciding_note") : "";
    const which = st.round + 1 > st.rounds ? t("status.deciding_round", { n: st.round + 1 - st.rounds })
      : t("status.round_of", { round: st.round + 1, rounds: st.rounds });
    return t("status.round_over", { which }) + boardTaken(st) + deciding +
      (mayStartNext() ? "" : ` — ${t("status.wait_next", { name: st.players[st.host].name })}`);
  }
  if (!m) return t("status.watching");
  if (m.phase === "standin") return t("status.standin");
  if (S.moving) return t("status.move", { tile: tileName(S.moving) });  // also while the next draw waits
  if (m.phase === "place") {
    const tile = S.selected || m.pending[0];
    const rule = (m.guidance || {})[tile];  // the engine's words for what the placement rule asks now
    return t("status.place", { tile: tileName(tile) }) + (rule ? ` — ${guidanceWords(rule)}` : "");
  }
  if (st.awaiting_draw) return t("status.awaiting_draw");
  if (m.phase === "announce") return t("status.announce");
  if (m.phase === "settle") {
    return S.holdPick ? t("status.settle_put", { tile: tileName(S.holdPick) }) : t("status.settle");
  }
  const waiting = st.players.filter((p) => p.waiting).map((p) => p.name);
  if (st.chooser !== undefined && st.chooser !== null && !waiting.length) return t("status.announcing", { name: st.players[st.chooser].name });
  return waiting.length ? t("status.waiting_for", { names: waiting.join(", ") }) : t("status.waiting");
}

// A best-of match: who took the board just played (the sole top score, as Match.boards_won counts it; a deciding
// board is played for by the leaders tied after the N boards), or that nobody did: "" in other matches.
function boardTaken(st) {
  if (st.options.match !== "best-of" || !st.results.length || st.players.length < 2) return "";
  const everyone = st.players.map((p) => p.index), won = everyone.map(() => 0);
  const take = (scores, contenders) => {
    const top = Math.max(...contenders.map((p) => scores[p]));
    const best = contenders.filter((p) => scores[p] === top);
    if (best.length === 1) won[best[0]] += 1;
    return best;
  };
  let best = [];
  st.results.slice(0, st.rounds).forEach((scores) => { best = take(scores, everyone); });
  const leaders = everyone.filter((p) => won[p] === Math.max(...won));
  st.results.slice(st.rounds).forEach((scores) => { best = take(scores, leaders); });
  const names = best.map((p) => st.players[p].name);
  if (best.length === 1) return ` — ${t("status.takes", { name: names[0] })}`;
  return ` — ${t("status.nobody_takes", { names: listAnd(names) })}`;
}

// What the game waits for while this player has nothing to do: "waiting for Bob", "Bob is announcing…", or "".
function othersText() {
  const st = S.state;
  const waiting = st.players.filter((p) => p.waiting && p.index !== st.you).map((p) => p.name);
  if (waiting.length) return t("others.waiting", { names: waiting.join(", ") });
  if (st.chooser !== undefined && st.chooser !== null && st.chooser !== st.you) return t("status.announcing", { name: st.players[st.chooser].name });
  return "";
}

// Daffodil holding area: every tile drawn and placed, the player still to move held tiles onto the stamen.
function settling(p) {
  const st = S.state;
  return !!p.waiting && st.status === "playing" && st.holding.length > 0 && st.left === 0 &&
    p.placed === (st.drawn || []).length;
}

async function renderGame() {
  const st = S.state, m = me();
  const layout = await getLayout(st.layout);
  // a newer state came while the layout loaded (a page's first one): its own render draws it.  Drawing this one
  // after it put an old board under a new status line -- no cell to click while the game waited for the player
  if (S.state !== st) return false;
  const mine = st.you !== null && st.you !== undefined ? myPlayer() : null;
  if (m && m.phase === "place" && (!S.selected || !m.pending.includes(S.selected))) S.selected = m.pending[0];
  if (m && S.moving && !m.movable.includes(S.moving)) S.moving = null;
  const board = mine && mine.board ? mine.board.slice() : Array(st.board_size).fill(null);
  const key = hintKey();
  if (S.hint && S.hint.key !== key) S.hint = null;  // placed, moved or switched tile: the hint is stale
  drawBoard($("board"), layout, board, boardOptions(st, m, mine, board));
  $("board").toggleAttribute("hidden", !mine);  // (an svg has no .hidden) an onlooker has no board: the players' boards are below, once they may be seen
  $("game").classList.toggle("watching", !mine);
  renderHintBar(key);
  const drawHadFocus = document.activeElement === $("draw-btn");
  $("draw-bar").hidden = !(st.awaiting_draw && m && m.phase !== "place");
  keyboardFocus(st, m, drawHadFocus);
  say($("status"), statusText());
  renderCurrentTiles(st, m);
  renderAnnounce(m);
  $("settle").hidden = !(m && m.phase === "settle");
  renderStandin(st, m);
  renderPlayersTable(st);
  $("drawn-count").textContent = `${(st.drawn || []).length} / ${st.tiles_per_round}`;
  $("history").replaceChildren(...(st.drawn || []).map((t) => tileIcon(t)));
  const result = $("result");
  result.hidden = !(mine && mine.lines);
  if (!result.hidden) renderResult(st, mine, layout);
  renderOthers(st, mine, layout);
  $("next-round").hidden = !(st.status === "round_over" && mayStartNext());
  $("again").hidden = !(st.mode === "solo" && st.status === "finished" && mine);
  showRematch($("rematch"), st);
  $("leave").textContent = st.mode === "solo" ? t("game.new_game") : t("game.leave_room");
  $("leave").title = st.mode === "solo" ? t("game.leave_title_solo") : t("game.leave_title_room");
  if (!result.hidden) renderAnalysis($("analysis-bar"), $("analysis-info"), $("analysis"));
}

// What the player's board shows and lets them do now: legal cells and the tile's ghost, tiles that may move, the
// holding area's end moves (``board`` is changed to show them), scoring lines, hints.
function boardOptions(st, m, mine, board) {
  const opts = { onClick: onCellClick };
  if (m && m.phase === "place" && !S.moving) { opts.legal = m.legal[S.selected] || []; opts.ghost = S.selected; }
  if (m && m.movable && m.movable.length && st.status === "playing" && m.phase !== "settle") {  // settling moves only held tiles
    opts.movable = board.map((t, i) => (m.movable.includes(t) ? i : -1)).filter((i) => i >= 0);
  }
  if (S.moving) opts.targets = (m && m.move_targets && m.move_targets[S.moving]) || [];  // the engine's, per rule
  if (m && m.phase === "settle") {
    for (const [tile, cell] of S.releases) { const from = board.indexOf(tile); board[from] = null; board[cell] = tile; }
    if (S.holdPick) opts.legal = (m.release[S.holdPick] || []).filter((c) => !board[c]);
    opts.pickable = st.holding.filter((c) => board[c] && (m.release[board[c]] || []).length);
  }
  if (mine && mine.lines) opts.scoring = mine.lines.filter(scores);
  if (S.hint && S.hint.status === "ready" && !S.hint.announce) {
    const open = S.hint.moving ? opts.targets || [] : opts.legal || [];  // moving: the cells it may go to
    opts.hints = S.hint.hints.filter((h) => open.includes(h.cell));
  }
  return opts;
}

// The drawn tiles above the board: the ones to place (a choice when two are drawn), or the one just placed.
function renderCurrentTiles(st, m) {
  const cur = $("current");
  cur.replaceChildren();
  // settling: the last drawn tile is already on the board, showing it big looked like one more to place
  // announcing: the last tile (on the board already) sat above the tiles to announce, looking like one of them
  // an AI standing in: it places the tile; shown big, it pushed "Take my seat back" below the fold on a phone
  const showTiles = st.status !== "playing" || (m && ["settle", "announce", "standin"].includes(m.phase)) ? []
    : m && m.phase === "place" ? m.pending : st.current || [];
  const choice = !!m && m.phase === "place" && m.pending.length > 1;  // two drawn: pick the one to place
  // placed already, waiting for the others (or, confirming each tile, for the player's own "Next tile"; or done with
  // the round's last tile): the tile shown big looked like one still to place; it is shown small and dimmed, saying so
  const placed = !!m && ["wait", "done"].includes(m.phase) && showTiles.length > 0;
  for (const token of showTiles) {
    const icon = tileIcon(token, choice && token === S.selected ? "selected" : "");
    // only a choice is a control: a lone tile clicked, or reached with Tab, did nothing
    if (choice) {
      pressable(icon, t("tile.label", { tile: tileName(token) }), () => { S.selected = token; S.moving = null; render(); });
      icon.setAttribute("aria-pressed", String(token === S.selected));  // the one to place: said, not only a glow
    }
    cur.appendChild(icon);
  }
  cur.classList.toggle("placed", placed);
  if (placed) {
    const who = othersText();
    cur.appendChild(el("span", { class: "placed-note muted" }, t("game.placed") + (who ? ` — ${who}` : "")));
  }
  cur.hidden = !showTiles.length;  // its room kept for a tile left a gap (announcing, the round's result)
}

// No caller: the tiles the player may announce, each with its hint once asked for.
function renderAnnounce(m) {
  const ann = $("announce");
  ann.hidden = !(m && m.phase === "announce");
  if (ann.hidden) return;
  // with an announce hint: each tile's expected final score for this board, the best one marked
  const ready = S.hint && S.hint.status === "ready" && S.hint.announce ? S.hint : null;
  // against other players each tile shows its margin over their mean, as that is what it is ranked by
  const expected = new Map((ready ? ready.hints : []).map((h) => [h.tile, h.margin === undefined ? h.expected : h.margin]));
  const top = ready && ready.hints.length ? ready.hints[0].tile : null;
  ann.replaceChildren(...announceable().map((token) => {
    const icon = tileIcon(token);
    const shown = !expected.has(token) ? null
      : ready.hints[0].margin === undefined ? decimal(expected.get(token)) : signed(expected.get(token));
    // the hint in the tile's name too: shown beside it only, a screen reader did not hear it
    pressable(icon, t("tile.announce", { tile: tileName(token) }) + (shown === null ? "" : `, ${t("cell.hint", { x: shown })}`),
      () => act("announce", { tile: token }));
    if (shown === null) return icon;
    const label = el("small", { class: "ann-hint" }, shown);
    const box = el("span", { class: `ann-tile${token === top ? " hint-best" : ""}`, "data-expected": expected.get(token) });
    box.append(icon, label);
    return box;
  }));
}

// Everyone at the table: what they are doing, tiles placed, the round's score once over, the totals.
function renderPlayersTable(st) {
  const over = st.status !== "playing";
  const head = el("tr");
  const bestOf = st.options.match === "best-of";  // boards won decide, not the total
  // a best-of match: boards won decide, and a running total carried from board to board would mislead
  // every column headed in words (a screen reader names a cell by its header); the round's column once it is over
  const heads = [t("table.player"), t("table.placed"), ...(over ? [t("table.round")] : []), bestOf ? t("table.boards_won") : t("table.total")];
  heads.forEach((h, k) => head.appendChild(el("th", { class: k ? "num" : "" }, h)));
  const rows = st.players.map((p) => {
    const tr = el("tr", { class: p.index === st.you ? "me" : "" });
    // AI players move in the background; at the end of a round with a holding area people settle, not place
    const busy = !p.waiting ? "" : ` — ${t(p.kind === "ai" ? "table.thinking" : settling(p) ? "table.settling" : "table.placing")}`;
    const kind = p.standin ? ` (${t("table.ai_standin")})` : p.kind === "ai" ? ` (${t("table.ai")})` : "";
    tr.appendChild(el("td", { class: "name" }, `${p.name}${kind}${busy}`));
    tr.appendChild(el("td", { class: "num" }, `${p.placed ?? 0}`));
    if (over) tr.appendChild(el("td", { class: "num" }, p.round_score !== undefined ? `${p.round_score}` : ""));
    tr.appendChild(el("td", { class: "num" }, `${(bestOf ? st.standings : st.totals)[p.index] ?? 0}`));
    return tr;
  });
  $("players").replaceChildren(head, ...rows);
}

// The round just over, for the player: their score (and a new personal best), everyone's, and their lines.
function renderResult(st, mine, layout) {
  say($("final-score"), mine.round_score);
  $("new-best").hidden = !noteRound(st, mine);
  // a round bonus (Best Sunray/Moonbeam) has a column of its own; under other rules there is none (Sunrays' rows of
  // suns and moons are in the board's score), and a column of zeros only puzzled
  const bonus = st.options.scoring === "best-sunray" || st.players.some((p) => p.bonus);
  const rt = [el("tr")];
  rt[0].append(el("th", {}, t("table.player")), el("th", { class: "num" }, t("table.board")));
  if (bonus) rt[0].append(el("th", { class: "num" }, t("table.bonus")));
  $("bonus-note").hidden = !bonus;  // what the bonus is: under the table, not only in the heading's title
  rt[0].append(el("th", { class: "num" }, t("table.round")));
  for (const p of st.players) {
    const tr = el("tr", { class: p.index === st.you ? "me" : "" });
    tr.append(el("td", { class: "name" }, p.name), el("td", { class: "num" }, p.score));
    if (bonus) tr.append(el("td", { class: "num" }, p.bonus));
    tr.append(el("td", { class: "num" }, p.round_score));
    rt.push(tr);
  }
  $("result-table").replaceChildren(...rt);
  const lt = [el("tr")];
  lt[0].append(el("th", {}, t("lines.line")), el("th", {}, t("lines.cells")), el("th", {}, t("lines.status")),
    el("th", { class: "num" }, t("lines.points")));
  for (const l of mine.lines) {
    const tr = el("tr", { class: scores(l) ? "scoring" : "" });
    tr.append(el("td", { class: "word" }, t(`dir.${l.direction}`, {}, l.direction)), el("td", { class: "mono" }, l.cells.join(" ")),
      el("td", { class: "word" }, lineStatus(l, mine.board)),  // "interrompue" whole, not "inte/rro/mpue"
      el("td", { class: "num" }, l.points + l.bonus));
    lt.push(tr);
  }
  $("lines-table").replaceChildren(...lt);
  $("board-text").textContent = mine.board.slice(0, layout.cells.length).map((t) => t || ".").join(" ");
}

// The other players' boards: visible with no caller, or once the round is over.
function renderOthers(st, mine, layout) {
  const others = $("others");
  others.replaceChildren();
  for (const p of st.players) {
    if (p.index === st.you || !p.board) continue;
    const fig = el("figure");
    const svg = el("svg:svg", { "aria-label": t("board.of", { name: p.name }) });
    drawBoard(svg, layout, p.board, { scoring: (p.lines || []).filter(scores) });
    fig.append(svg, el("figcaption", {}, `${p.name}${p.score !== undefined ? ` — ${p.score}` : ""}`));
    others.appendChild(fig);
  }
  if (!mine && !others.children.length) {  // an onlooker, with a caller: the boards are private until the end
    others.appendChild(el("p", { class: "muted" }, t("game.boards_later")));
  }
}

// The keyboard's way through a game: after a placement (or a move) the focus goes to what continues the game,
// "Next tile" when confirming each tile (it stayed on the tile just placed, so Enter picked it up again; the tile
// is still reached with Shift+Tab); after "Next tile", to the board for the new tile; after a pick-up cancelled
// with Escape, back to the tile.
function keyboardFocus(st, m, drawHadFocus) {
  const bar = $("draw-bar"), after = S.focusAfter;
  if (after && after.tile) {
    S.focusAfter = null;
    const g = $("board").querySelector(`g[data-tile="${after.tile}"][tabindex]`);
    if (g) g.focus();
  } else if (after && after.from !== undefined) {
    if (!bar.hidden && S.keyboard) { S.focusAfter = null; $("draw-btn").focus(); }
    // nothing to press: the next tile came at once, another player's turn ended the wait, or the round ended
    else if (st.version > after.from && !(m && m.phase === "wait")) S.focusAfter = null;
  }
  if (drawHadFocus && bar.hidden && S.keyboard) {  // drawn: on to the board, where the new tile goes
    const next = $("board").querySelector("g.legal[tabindex]") || $("board").querySelector("[tabindex]");
    if (next) next.focus();
  }
}

// A line scores by its stripes, or (Sunrays and Moonbeams) by a full row of suns or moons: such a row's stripes
// may be broken, and it still scores its bonus, so it is marked on the board and named in the table.
function scores(l) { return l.points + (l.bonus || 0) > 0; }

function lineStatus(l, board) {
  const parts = l.status === "complete" ? [`${l.cells.length} × ${l.value}`] : [];
  if (l.bonus > 0) {
    const symbol = l.cells.map((c) => (S.state.symbols || {})[board[c]]).find(Boolean);
    const each = l.bonus / l.cells.length;
    parts.push(symbol && Number.isInteger(each) ? t(`line.${symbol}s`, { n: l.cells.length, each }) : t("line.bonus", { n: l.bonus }));
  }
  return parts.length ? parts.join(" + ") : t(`line.${l.status}`, {}, l.status);
}

// ---- a player who went away: the server says whom the viewer may let an AI play for, and from when ---------
// While the viewer has nothing to do but wait, a seat whose grace period runs shows when the offer comes
// ("An AI may play for Bob in 42 s"), counting down; once it is over, the button.
function renderStandin(st, m) {
  // between rounds the server offers the host's seat only: the next round waits for the host to start it
  const playing = st.status === "playing", between = st.status === "round_over";
  const absent = playing || between ? st.players.filter((p) => p.standin_after === 0) : [];
  const idle = !!m && ["wait", "done"].includes(m.phase);
  const soon = (playing && idle) || between ? st.players.filter((p) => p.standin_after > 0) : [];
  $("standin-bar").replaceChildren(...absent.map((p) => {
    const b = el("button", { "data-player": p.index }, t("standin.let", { name: p.name }));
    b.addEventListener("click", () => act("standin", { player: p.index }));
    return b;
  }));
  $("standin-bar").hidden = !absent.length;
  $("standin-wait").replaceChildren(...soon.map((p) => el("span", {
    class: "standin-count muted", "data-player": p.index, "data-name": p.name,
    "data-until": S.stateAt + p.standin_after * 1000,
    title: t("standin.title", { name: p.name }),
  })));
  $("standin-wait").hidden = !soon.length;
  clearInterval(S.standinTick);
  S.standinTick = null;
  if (soon.length) {
    tickStandin();
    S.standinTick = setInterval(tickStandin, 1000);
  }
  $("reclaim-bar").hidden = !(m && m.phase === "standin");
}

function tickStandin() {
  const waits = document.querySelectorAll("#standin-wait .standin-count");
  if (!waits.length) { clearInterval(S.standinTick); S.standinTick = null; return; }
  for (const span of waits) {
    const left = Math.ceil((+span.dataset.until - Date.now()) / 1000);
    span.textContent = left > 0 ? t("standin.in", { name: span.dataset.name, n: left }) : t("standin.soon", { name: span.dataset.name });
  }
}

// No event marks the end of a grace period, so ask for the state again when the first one ends.
function scheduleStandinCheck(state) {
  clearTimeout(S.standinTimer);
  const waits = state.players.map((p) => p.standin_after).filter((w) => w > 0);
  if (!waits.length) return;
  S.standinTimer = setTimeout(async () => {
    if (!S.session || S.session.code !== state.code) return;
    try {
      const data = await api("GET", `/api/rooms/${state.code}`);
      if (isCurrent(data.state)) setState(data.state);
    } catch (e) { /* the next update tells */ }
  }, Math.min(...waits) * 1000 + 200);
}

// ---- after a round: the best board the tiles allowed, the AI on the same tiles, the costliest moves ---
function analysisKey() { return `${S.state.code}:${S.state.round}`; }
function roundOver() { return ["round_over", "finished"].includes(S.state.status); }

async function requestAnalysis() {
  const key = analysisKey();
  if (!roundOver() || (S.analysis && S.analysis.key === key && S.analysis.status !== "error")) return;
  // the button is disabled while loading, and the focus it had went to the screen's heading (keepFocus)
  const asked = document.activeElement && document.activeElement.matches("#analyse-btn, #caller-analyse-btn");
  S.analysis = { key, status: "loading" };
  render();
  let next;
  try {
    const data = await api("GET", `/api/rooms/${S.state.code}/analysis`);
    next = { key, status: "ready", report: data.analysis };
  } catch (e) { next = { key, status: "error", error: e.message }; }
  if (!S.analysis || S.analysis.key !== key) return;
  S.analysis = next;
  await render();
  // the button that asked is disabled now, which drops keyboard focus: carry it to the analysis
  const box = document.querySelector("#analysis:not([hidden]), #caller-analysis:not([hidden])");
  const active = document.activeElement;
  if (box && (!active || active === document.body || active.disabled || (asked && active.matches("h2, h3, #status")))) {
    box.setAttribute("tabindex", "-1");
    box.focus();
  }
}

async function renderAnalysis(bar, info, box) {
  const st = S.state, a = S.analysis && S.analysis.key === analysisKey() ? S.analysis : null;
  bar.hidden = !roundOver();
  bar.querySelector("button").disabled = !!a && a.status !== "error";
  say(info, !a ? "" : a.status === "loading" ? t("an.loading") : a.status === "error" ? a.error : "");
  info.classList.toggle("error", !!a && a.status === "error");
  box.hidden = !(roundOver() && a && a.status === "ready");
  if (box.hidden) return;
  // built once for a report in a language and colours: rebuilt on every render (a room's news), it put the
  // step-through back to the last move and dropped the keyboard's focus on its buttons
  const built = `${a.key}|${LANG}|${paletteName()}`;
  if (box.built === built && box.report === a.report) return;
  box.built = built; box.report = a.report;
  const report = a.report, best = report.best_possible;
  const mine = st.you !== null && st.you !== undefined ? report.players[st.you] : null;
  // the best board laid in the order the tiles came; rarely the search is cut short: the best found and a bound
  const cut = best.reachable === false;
  const hasBound = best.upper_bound !== undefined && best.upper_bound !== null;
  const value = !cut ? `${best.score}` : hasBound ? t("an.between", { lo: best.score, hi: best.upper_bound })
    : t("an.at_most", { n: best.score });
  const parts = [el("p", { class: "best-line" }, t("an.best", { value }) +
    (mine && mine.score !== null ? ` (${t("an.you", { score: mine.score, missed: mine.missed })})` : ""))];
  if (cut) parts.push(el("p", { class: "muted" }, hasBound ? t("an.cut_bound") : t("an.cut_none")));
  if (best.unconstrained !== undefined && best.unconstrained > (hasBound ? best.upper_bound : best.score)) {
    parts.push(el("p", { class: "muted" }, t("an.any_order", { n: best.unconstrained })));
  }
  const figure = el("figure");
  const svg = el("svg:svg", { class: "best-board", "aria-label": t("an.best_board") });
  drawBoard(svg, await getLayout(st.layout), best.board.split(" ").map((t) => (t === "." ? null : t)),
    { scoring: best.lines || [] });
  figure.append(svg, el("figcaption", { class: "muted" }, t("an.caption")));
  parts.push(figure);
  if (report.agent && report.agent.agent) {
    parts.push(el("p", {}, t("an.agent", { agent: report.agent.agent, score: report.agent.score })));
  }
  if (mine && mine.moves.length) {
    const same = mine.moves.filter((m) => m.cell === m.best_cell).length;
    parts.push(el("p", {}, `${t("an.same", { same, n: mine.moves.length, evaluator: report.evaluator })} ` +
      (mine.worst_moves.length ? t("an.costliest") : t("an.no_cost"))));
    // the steps first: each costly move leads to its step, where both cells are shown on the board
    const steps = stepThrough(await getLayout(st.layout), mine.moves, st.board_size, report.evaluator, mine.releases || []);
    const rows = [el("tr")];
    rows[0].append(el("th", { class: "num" }, t("an.h_move")), el("th", {}, t("an.h_tile")), el("th", { class: "num" }, t("an.h_cell")),
      el("th", { class: "num" }, t("an.h_best")), el("th", { class: "num" }, t("an.h_cost")));
    for (const m of mine.worst_moves) {
      const tr = el("tr", { "data-move": m.move, title: t("an.row_title", { n: m.move }) });
      const go = el("button", { type: "button", class: "to-move", "aria-label": t("an.row_label", { n: m.move }) }, `${m.move}`);
      const cell = el("td", { class: "num" });
      cell.append(go);
      // a tile's name on one line ("1-" over "7-3" was hard to read)
      tr.append(cell, el("td", { class: "word tile-name" }, tileName(m.tile)), el("td", { class: "num" }, m.cell),
        el("td", { class: "num" }, m.best_cell), costCell(m));
      tr.addEventListener("click", () => steps.goTo(m.move));  // the whole row: a finger need not hit the number
      rows.push(tr);
    }
    if (mine.worst_moves.length) {
      // on a narrow phone the table scrolls in its own box, never the page
      const table = el("table", { class: "table worst-moves" });
      table.append(...rows);
      const scroll = el("div", { class: "table-scroll" });
      scroll.append(table);
      parts.push(scroll);
      // under the table: what its "±" means
      const measured = mine.worst_moves.find((m) => m.played_out);
      if (measured) parts.push(el("p", { class: "muted" }, t("an.played_out", { n: measured.played_out.rounds })));
    }
    parts.push(steps);
  } else {  // a table game: no moves, only the boards or scores typed in
    const rows = [el("tr")];
    rows[0].append(el("th", {}, t("table.player")), el("th", { class: "num" }, t("an.h_score")), el("th", { class: "num" }, t("an.h_below")));
    for (const p of report.players) {
      const tr = el("tr");
      tr.append(el("td", {}, p.name), el("td", { class: "num" }, p.score ?? "–"), el("td", { class: "num" }, p.missed ?? "–"));
      rows.push(tr);
    }
    parts.push(el("table", { class: "table" }));
    parts[parts.length - 1].append(...rows);
  }
  box.replaceChildren(...parts);
}

// The player's round move by move: the board after each move, the tile just placed outlined, and the
// cell the analysing search preferred (with its expected final score) where it was another; then, under
// the holding area (daffodil variant 4), one last step with the held tiles moved onto the stamen.  The ‹ › buttons
// and the slider are right under the board and the words below them, so that on a phone the board and the buttons
// stay on screen together, tap after tap.  ``goTo(move)`` (a costly move's row) shows a move and brings it into view.
function stepThrough(layout, moves, size, evaluator, releases) {
  const steps = moves.length + (releases.length ? 1 : 0);
  const svg = el("svg:svg", { class: "step-board", "aria-label": t("step.board") });
  const slider = el("input", { type: "range", min: 1, max: steps, value: steps, "aria-label": t("step.slider") });
  const caption = el("p", { class: "step-caption", "aria-live": "polite" });
  const box = el("div", { class: "step-through" });
  const tile = (token) => el("span", { class: "tile-name" }, tileName(token));  // never broken at its hyphens
  const show = (k) => {
    const analysis = box.parentNode;  // (none yet as the step-through is made)
    for (const tr of analysis ? analysis.querySelectorAll(".worst-moves tr[data-move]") : []) {
      tr.classList.toggle("current-move", +tr.dataset.move === k);
    }
    const board = Array(size).fill(null);
    moves.slice(0, k).forEach((m) => { if (m.cell < size) board[m.cell] = m.tile; });
    if (k > moves.length) {
      releases.forEach((r) => { board[r.cell] = r.tile; });
      drawBoard(svg, layout, board, { marked: releases.map((r) => r.cell) });
      caption.replaceChildren(t("step.end"));
      releases.forEach((r, i) => caption.append(i ? ", " : "", tile(r.tile), t("step.release", { cell: r.cell })));
      caption.append(".");
      slider.setAttribute("aria-valuetext", t("step.end_moves"));
      return;
    }
    const m = moves[k - 1];
    const num = (x) => (typeof x === "number" ? decimal(x) : "–");  // no estimate: null
    const other = m.best_cell !== m.cell && typeof m.best_cell === "number" && m.best_cell >= 0 && m.best_cell < size &&
      !board[m.best_cell] && typeof m.expected_best === "number";
    drawBoard(svg, layout, board, { marked: [m.cell], hints: other ? [{ cell: m.best_cell, expected: m.expected_best }] : [] });
    slider.setAttribute("aria-valuetext", t("step.valuetext", { k, n: moves.length, tile: tileName(m.tile), cell: m.cell }));
    caption.replaceChildren(t("step.move", { k }), tile(m.tile), t("step.placed", { cell: m.cell, x: num(m.expected) }) +
      (other ? t("step.other", { evaluator, cell: m.best_cell, x: num(m.expected_best) }) : t("step.same")) +
      (m.played_out ? t("step.played_out", { x: decimal(m.played_out.loss), ci: decimal(m.played_out.ci95) }) : ""));
  };
  const step = (d) => { slider.value = Math.min(steps, Math.max(1, +slider.value + d)); show(+slider.value); };
  slider.addEventListener("input", () => show(+slider.value));
  const back = el("button", { type: "button", class: "step-btn", "aria-label": t("step.prev") }, "‹");
  const on = el("button", { type: "button", class: "step-btn", "aria-label": t("step.next") }, "›");
  back.addEventListener("click", () => step(-1));
  on.addEventListener("click", () => step(1));
  const controls = el("div", { class: "row step-controls" });
  controls.append(back, slider, on);
  // the board, its buttons and the words: brought into view together (the words last: as they grow or shrink,
  // nothing above them moves)
  const view = el("div", { class: "step-view" });
  view.append(svg, controls, caption);
  box.append(el("h3", {}, t("step.title")), view);
  box.goTo = (k) => {
    slider.value = Math.min(steps, Math.max(1, k));
    show(+slider.value);
    view.scrollIntoView({ block: "nearest" });
  };
  show(steps);
  return box;
}

// ---- hints: expected final score per allowed cell, from the player's own board and tile only ---------
function hintKey() {
  const st = S.state, m = me();
  if (!m || st.status !== "playing") return null;
  const board = (myPlayer().board || []).map((t) => t || ".").join(" ");
  if (m.phase === "announce") {
    return `${st.code}|${st.round}|${board}|announce|${(st.announced || []).join(" ")}|${otherBoards().join("|")}`;
  }
  if (S.moving) return `${st.code}|${st.round}|${board}|move|${S.moving}|${m.pending.join(" ")}`;  // a tile just placed, picked up
  if (m.phase !== "place" || !S.selected) return null;
  return `${st.code}|${st.round}|${board}|${S.selected}|${m.pending.join(" ")}`;
}

// The board a hint for moving ``tile`` is asked on: the tiles placed since the draw lifted off (they may all
// still move; the others of them count as in hand), and the placement before them as the previous one.
function liftedBoard(m, board) {
  return board.map((t) => (t && m.movable.includes(t) ? null : t));
}

// announcing with others at the table: their boards (shown to everyone) weigh in, as they do for the AI players
function otherBoards() {
  const st = S.state;
  return st.players.filter((p, i) => i !== st.you && p.board).map((p) => p.board.map((t) => t || ".").join(" "));
}

function announceable() {
  const st = S.state;
  return (st.remaining || []).filter((t) => !(st.announced || []).includes(t));
}

function renderHintBar(key) {
  const bar = $("hint-bar"), info = $("hint-info");
  bar.hidden = !key;
  $("hint-key").closest("label").hidden = S.state.you === null || S.state.you === undefined;  // an onlooker asks for no hints
  const h = S.hint;
  $("hint-btn").disabled = !!(h && h.status === "loading");
  info.classList.toggle("error", !!(h && h.status === "error"));
  if (!h) { say(info, ""); return; }
  if (h.status === "loading") say(info, t("hint.loading"));
  else if (h.status === "error") say(info, t("hint.error", { error: h.error }));
  else if (!h.hints.length) say(info, t("hint.none"));
  else if (h.moving) {  // where the tile is now, against the best cell for it
    const here = myPlayer().board.indexOf(h.moving);
    const stay = h.hints.find((x) => x.cell === here);
    say(info, t("hint.best", { cell: h.hints[0].cell, x: decimal(h.hints[0].expected) })
      + (stay ? `; ${t("hint.here", { cell: here, x: decimal(stay.expected) })}` : ""));
  }
  else if (h.announce) {
    const top = h.hints[0];
    // tiles level with it on the margin (all of them on an empty board): it leads by the player's own board
    const tied = top.margin === undefined ? 0 : h.hints.filter((x) => x !== top && x.margin === top.margin).length;
    say(info, t("hint.announce", { tile: tileName(top.tile), cell: top.cell, x: decimal(top.expected) })
      + (top.margin === undefined ? "" : `, ${t("hint.rivals", { x: decimal(top.rivals), margin: signed(top.margin) })}`)
      + (tied ? `; ${t("hint.tied", { n: tied })}` : ""));
  } else say(info, t("hint.best", { cell: h.hints[0].cell, x: decimal(h.hints[0].expected) }));
}

// The key h for a hint, unless the player turned it off beside the game (a key of one letter may be pressed by
// mistake, or typed by speech input: WCAG 2.1.4); the device remembers it.  Off, the Hint button no longer names it.
const HINT_KEY = "tie-hint-key";
function showHintKey() {
  const on = $("hint-key").checked, button = $("hint-btn");
  button.querySelector("kbd").hidden = !on;
  if (on) button.setAttribute("aria-keyshortcuts", "h"); else button.removeAttribute("aria-keyshortcuts");
  const title = on ? "game.hint_title" : "game.hint_title_nokey";
  button.dataset.i18nAttr = `title:${title}`;  // (kept so when the language changes)
  button.title = t(title);
}

async function requestHint() {
  const key = hintKey();
  if (!key || (S.hint && S.hint.key === key && S.hint.status !== "error")) return;
  const st = S.state, m = me();
  const announce = m.phase === "announce";
  const moving = S.moving;
  const board = moving ? liftedBoard(m, myPlayer().board) : myPlayer().board;
  const body = { board: board.map((t) => t || ".").join(" "), options: st.options };
  if (announce) { body.announce = true; body.others = otherBoards(); }
  else if (moving) {
    body.tile = moving;
    // placed with it since the draw: lifted too; and drawn with it, not placed yet: certain to come
    body.in_hand = [...m.movable.filter((t) => t !== moving), ...m.pending];
  } else {
    body.tile = S.selected;
    body.in_hand = m.pending.filter((t) => t !== S.selected);  // drawn with it: certain to come
  }
  const previous = moving ? m.before_movable : m.previous;
  if (previous) { body.previous_tile = previous.tile; body.previous_cell = previous.cell; }
  S.hint = { key, status: "loading", announce, moving };
  render();
  let next;
  try {
    const data = await api("POST", "/api/hint", body);
    const open = new Set(announce ? announceable() : []);  // already announced for this group: not a choice
    next = { key, status: "ready", announce, moving, hints: announce ? data.hints.filter((h) => open.has(h.tile)) : data.hints };
  } catch (e) { next = { key, status: "error", announce, moving, error: e.message }; }
  if (S.hint && S.hint.key === key) { S.hint = next; render(); }  // else the board moved on meanwhile
}

function onCellClick(cell, token) {
  const st = S.state, m = me();
  if (!m || st.status !== "playing") return;
  if (m.phase === "settle") {
    if (token && st.holding.includes(cell) && (m.release[token] || []).length) { S.holdPick = token; render(); return; }
    if (S.holdPick && !token && (m.release[S.holdPick] || []).includes(cell)) {
      S.releases.push([S.holdPick, cell]); S.holdPick = null; render();
    }
    return;
  }
  if (token && m.movable.includes(token)) { S.moving = S.moving === token ? null : token; render(); return; }
  if (token) return;
  // by keyboard, the focus then goes on to what continues the game (keyboardFocus)
  const placing = (action, body) => {
    const focus = S.keyboard ? { from: st.version } : null;
    S.focusAfter = focus;
    act(action, body).then((done) => { if (done === false && S.focusAfter === focus) S.focusAfter = null; });
  };
  if (S.moving) { const tile = S.moving; S.moving = null; placing("move", { cell, tile }); return; }
  if (m.phase === "place" && (m.legal[S.selected] || []).includes(cell)) placing("place", { cell, tile: S.selected });
}

// Escape puts back a tile picked up to move (or a held tile picked for the stamen): it stays where it was.
function cancelPickUp() {
  const tile = S.moving || S.holdPick;
  if (!tile || $("game").hidden) return false;
  S.moving = null; S.holdPick = null;
  S.focusAfter = { tile };
  render();
  return true;
}

// Reading the calls aloud (the caller screen at a physical table), where the browser can speak.
const canSpeak = () => "speechSynthesis" in window && typeof SpeechSynthesisUtterance === "function";

function speakNewCall(st) {
  const mark = { round: st.round, calls: (st.drawn || []).length };
  // a call taken back is not news: only more calls (or a new round's) are read
  const fresh = S.spoken !== null && (S.spoken.round !== mark.round || S.spoken.calls < mark.calls)
    && (st.call || []).length > 0;
  if (S.spoken !== null && S.spoken.round === mark.round && S.spoken.calls > mark.calls && canSpeak()) {
    window.speechSynthesis.cancel();  // a call taken back: stop saying it
  }
  S.spoken = mark;  // a page opened or ticked mid-round reads only the calls that come after
  if (!fresh || !$("speak-calls").checked || !canSpeak()) return;
  // "5-7-4" is read as "5, 7, 4" (not "five minus seven"); wildcards by name, in the page's language and voice
  const words = st.call.map((w) => callWords(w).replace(/-/g, ", ")).join(". ");
  const utterance = new SpeechSynthesisUtterance(words);
  utterance.lang = speechLang();
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(utterance);
}

function renderCaller() {
  const st = S.state;
  const cur = $("caller-current");
  cur.replaceChildren(...(st.current || []).map((t) => tileIcon(t)));
  cur.classList.toggle("several", (st.current || []).length > 1);  // two tiles side by side fit a phone too
  // the round is over: the last tile called, shown big, pushed the scores below the fold on a phone; it is shown
  // small and dimmed beside its words, which are no longer called out big (as the game screen shows a tile placed)
  const over = st.status !== "playing" && (st.current || []).length > 0;
  cur.classList.toggle("over", over);
  $("caller-say").hidden = over;
  if (over) {
    cur.appendChild(el("span", { class: "placed-note muted" }, t("caller.last",
      { n: st.current.length, tiles: (st.call ? st.call.map(callWords) : st.current.map(tileName)).join(", ") })));
  }
  // the server's words: numbers kept on one line; a wildcard's name ("double wildcard with 3") wraps, smaller
  // a live region: replaced only when the call changes, not at every render (it was read out again)
  const said = (st.call || []).map(callWords);
  if ($("caller-say").dataset.said !== said.join("|")) {
    $("caller-say").dataset.said = said.join("|");
    $("caller-say").replaceChildren(...(st.call || []).map((words, k) => el("span", { class: /[a-z]/i.test(words) ? "named" : "" }, said[k])));
  }
  $("speak-calls-label").hidden = !canSpeak() || st.status === "finished";
  speakNewCall(st);
  $("caller-progress").textContent = t("caller.progress", { n: (st.drawn || []).length, total: st.tiles_per_round,
    round: st.round + 1, rounds: st.rounds }) +
    (st.status === "round_over" && !isHost() ? ` — ${t("status.wait_next", { name: st.players[st.host].name })}` : "");
  $("caller-history").replaceChildren(...(st.drawn || []).map((t) => tileIcon(t)));
  const host = isHost();
  $("call-btn").hidden = !host || st.status !== "playing";  // nothing to call until the next round starts
  $("call-btn").disabled = st.status !== "playing" || st.left === 0;
  // a second tap the table was not ready for: the same tile comes again with the next call (not under an entry)
  $("uncall-btn").hidden = !host || st.status !== "playing" || !(st.drawn || []).length
    || Object.keys(st.entries || {}).length > 0;
  $("end-round").hidden = !host || st.status !== "playing";
  $("end-round").disabled = st.left !== 0;
  $("end-round").title = st.left !== 0 ? t("caller.end_title", { n: st.tiles_per_round }) : "";
  // why it cannot be pressed yet, in words a disabled button (no Tab stop, no hover on a phone) can point to
  if (st.left !== 0) $("end-round").setAttribute("aria-describedby", "entry-note");
  else $("end-round").removeAttribute("aria-describedby");
  $("caller-next").hidden = !host || st.status !== "round_over";
  showRematch($("caller-rematch"), st);
  $("caller-add").hidden = !host || !st.joinable;  // a person the host forgot, during the first round
  say($("caller-status"), callerStatus(st, host));
  // score table: rounds so far, this round's entries, totals
  const head = el("tr");
  head.appendChild(el("th", {}, t("table.player")));
  st.results.forEach((_, k) => head.appendChild(el("th", { class: "num" }, t("caller.r", { n: k + 1 }))));
  if (st.status === "playing") head.appendChild(el("th", { class: "num" }, t("caller.now")));
  head.appendChild(el("th", { class: "num" }, t("table.total")));
  const bestOf = st.options.match === "best-of";  // boards won decide, not the total
  if (bestOf) head.appendChild(el("th", { class: "num" }, t("caller.boards")));
  // the host's row says "(you)" (the style sheet adds it), not bold: on the final table it looked like the winner's
  const winners = st.status === "finished" ? new Set(st.winners) : new Set();
  const rows = st.players.map((p) => {
    const tr = el("tr", { class: [p.index === st.you ? "me" : "", winners.has(p.index) ? "winner" : ""].join(" ").trim() });
    // a long name breaks between its words only, a word too long for the column ending in "…" (the whole name
    // in the name's title): broken anywhere, "Maximiliana_Wolkenst / ein" was hard to read
    const who = el("td", { class: "who" });
    who.appendChild(el("span", { title: p.name }, p.name));  // on the name, which a Remove button may follow
    // the first round takes late players, strangers from the list too: the host may take out a seat with no
    // entry yet (the server refuses any other)
    if (host && st.status === "playing" && !st.results.length && p.index !== st.host && !(st.entries || {})[p.index]) {
      const b = el("button", { class: "remove", "aria-label": t("lobby.remove_label", { name: p.name }),
        title: t("lobby.remove_title", { name: p.name }) }, t("lobby.remove"));
      b.addEventListener("click", () => act("remove", { player: p.index, name: p.name }));
      who.append(" ", b);
    }
    tr.appendChild(who);
    st.results.forEach((r, k) => {
      const e = k === st.results.length - 1 && st.status !== "playing" ? (st.entries || {})[p.index] : null;
      const td = el("td", { class: "num" }, r[p.index]);
      if (e && e.bonus) td.title = bonusWords(e);  // the round bonus, explained
      tr.appendChild(td);
    });
    if (st.status === "playing") {
      const e = (st.entries || {})[p.index];
      tr.appendChild(el("td", { class: "num", title: e && e.board ? e.board : "" }, e ? `${e.score}${e.board ? " ▦" : ""}` : "–"));
    }
    tr.appendChild(el("td", { class: "num" }, st.totals[p.index]));
    if (bestOf) tr.appendChild(el("td", { class: "num" }, st.standings[p.index]));
    return tr;
  });
  $("caller-table").replaceChildren(head, ...rows);
  renderEnteredBoards(st);
  const pick = $("entry-player");
  const keep = pick.value;
  pick.replaceChildren(...st.players.filter((p) => host || p.index === st.you).map((p) => el("option", { value: p.index }, p.name)));
  if (keep) pick.value = keep;
  $("entry-form").hidden = st.status !== "playing" || st.you === null;  // an onlooker enters nothing
  // boards and scores go in once every tile is called (the server refuses them before: a score typed early
  // became the player's final one)
  const open = st.status === "playing" && st.left === 0;
  $("entry-fields").hidden = !open;
  // the 60s compare rays, and a typed score shows none (as `takeiteasy call` says)
  $("entry-rays-note").hidden = st.options.scoring !== "best-sunray";
  $("entry-note").hidden = open;
  $("entry-note").textContent = t("caller.entry_note", { n: st.tiles_per_round, m: (st.drawn || []).length });
  if (open) {
    const n = st.board_size - st.holding.length;  // the board's cells (the daffodil's 21), not the holding slots
    $("entry-board").placeholder = t("caller.entry_placeholder", { n });
    fillEntry(st);
    renderEntryLayout(st);
  }
  renderAnalysis($("caller-analysis-bar"), $("caller-analysis-info"), $("caller-analysis"));
}

// The player the entry form is for, and what is entered for them this round ({score, board, bonus?}, or none).
function entryPlayer() { return +$("entry-player").value; }
function entryOf(st, player) { return (st.entries || {})[player]; }

// The words for an entry with a round bonus: "308 (248 + 60 Best Sunray/Moonbeam)".
function bonusWords(e) { return t("caller.bonus_words", { total: e.score + e.bonus, score: e.score, bonus: e.bonus }); }

// The entry form shows what is entered already for the chosen player (a board to mend one tile of, or the score):
// filled in while the form holds only what was last filled in (another player chosen, the entry changed on another
// device), never over what is being typed or laid out (a board laid out, then its player chosen, stays).
function fillEntry(st) {
  const player = entryPlayer(), e = entryOf(st, player);
  const now = { key: `${st.code}:${st.round}:${player}`, board: e && e.board ? e.board : "",
    score: e && !e.board ? String(e.score) : "" };
  const was = S.entryShown;  // null: nothing filled in yet, or an entry just accepted (shown as it now is)
  if (was && ($("entry-board").value !== was.board || $("entry-score").value !== was.score)) return;  // typed
  if (was && was.key === now.key && was.board === now.board && was.score === now.score) return;
  $("entry-board").value = now.board;
  $("entry-score").value = now.score;
  S.entryShown = now;
  S.entry = null;  // the lay-out board starts again from the entered board
}

// The tokens of a board typed in the box, if it is a whole board of called tiles (else null).
function boardCells(text, st, size) {
  const tokens = text.trim().split(/\s+/);
  const called = new Set(st.drawn || []);
  if (tokens.length !== size || tokens.some((t) => t !== "." && !called.has(t))) return null;
  if (new Set(tokens.filter((t) => t !== ".")).size !== tokens.filter((t) => t !== ".").length) return null;
  return tokens.map((t) => (t === "." ? null : t));
}

// The next player after ``from`` (in the menu's order, round to the first) with nothing entered yet, if any.
function nextWithoutEntry(st, from) {
  const order = [...$("entry-player").options].map((o) => +o.value);
  const at = order.indexOf(from);
  for (let k = 1; k < order.length; k++) {
    const p = order[(at + k) % order.length];
    if (!entryOf(st, p)) return p;
  }
  return null;
}

// Every board (or score) entered this round, drawn small with its scoring lines and their breakdown, and the
// round bonus once the round is over: readable on a phone, with no hover.  Open by itself once the round is over.
const SCORED = new Map();  // "options|board" -> the server's lines for it (or "asked")
async function renderEnteredBoards(st) {
  const box = $("caller-boards-box");
  const shown = st.players.filter((p) => entryOf(st, p.index));
  box.hidden = !shown.length || st.round < 0;
  if (box.hidden) return;
  const over = st.status !== "playing";
  const mark = `${st.code}:${st.round}:${over}`;
  if (box.dataset.mark !== mark) { box.dataset.mark = mark; box.open = over; }
  $("caller-boards-count").textContent = `(${t("caller.boards_count", { n: shown.length, m: st.players.length })})`;
  const layout = await getLayout(st.layout);
  if (S.state !== st) return;  // a newer state draws them
  const n = layout.cells.length, options = JSON.stringify(st.options);
  $("caller-boards").replaceChildren(...shown.map((p) => {
    const e = entryOf(st, p.index);
    const fig = el("figure", { "data-player": p.index });
    const total = el("span", { class: "entry-total" }, e.bonus ? `${p.name} — ${bonusWords(e)}` : `${p.name} — ${e.score}`);
    const caption = el("figcaption", {}, "");
    caption.append(total);
    if (!e.board) {
      caption.append(el("span", { class: "entry-lines" }, t("caller.score_only")));
      fig.append(caption);
      return fig;
    }
    const board = e.board.split(/\s+/).slice(0, n).map((t) => (t === "." ? null : t));
    const key = `${options}|${e.board}`, lines = SCORED.get(key);
    const scoring = Array.isArray(lines) ? lines.filter(scores) : [];
    const svg = el("svg:svg", { "aria-label": t("board.of", { name: p.name }) });
    drawBoard(svg, layout, board, { scoring });
    const words = scoring.map((l) => lineStatus(l, board)).join(", ");
    caption.append(el("span", { class: "entry-lines" }, Array.isArray(lines) ? words || t("caller.no_lines") : "…"),
      el("span", { class: "mono muted" }, e.board));
    fig.append(svg, caption);
    if (!lines) {  // the line breakdown, asked of the server once per board
      SCORED.set(key, "asked");
      api("POST", "/api/score", { board: e.board, options: st.options })
        .then((r) => { SCORED.set(key, r.lines); if (S.state) renderEnteredBoards(S.state); })
        .catch(() => { SCORED.delete(key); });
    }
    return fig;
  }));
}

// What the table does now: call, enter the boards, end the round, or who won.
function callerStatus(st, host) {
  if (st.status === "finished") return gameOverText();
  if (st.you === null) {  // an onlooker
    return st.status === "round_over" ? t("caller.watch_over", { round: st.round + 1, rounds: st.rounds })
      : t("caller.watch_calls", { n: (st.drawn || []).length, total: st.tiles_per_round });
  }
  if (st.status === "round_over") {
    return t("status.round_over", { which: t("status.round_of", { round: st.round + 1, rounds: st.rounds }) }) + " — " +
      (host ? t("caller.start_next") : t("status.wait_next", { name: st.players[st.host].name }));
  }
  if (st.left > 0) return host ? t("caller.call_next") : t("caller.place_called");
  const missing = noEntry(st);
  if (host) return missing.length ? t("caller.enter_missing", { names: missing.join(", ") }) : t("caller.all_in");
  return (st.entries || {})[st.you] ? t("caller.yours_in") : t("caller.enter_yours");
}

function noEntry(st) { return st.players.filter((p) => !(st.entries || {})[p.index]).map((p) => p.name); }

// A board to enter, laid out with the called tiles instead of typed: it fills the notation box.
async function renderEntryLayout(st) {
  const key = `${st.code}:${st.round}`;
  if (!S.entry || S.entry.key !== key) S.entry = { key, cells: null, pick: null };
  const layout = await getLayout(st.layout);
  const entry = S.entry;
  // the board in the box (entered before, or typed whole) is where the lay-out starts
  if (!entry.cells) entry.cells = boardCells($("entry-board").value, st, layout.cells.length) || Array(layout.cells.length).fill(null);
  const laid = new Set(entry.cells.filter(Boolean));
  const left = (st.drawn || []).filter((t) => !laid.has(t));
  if (entry.pick && !left.includes(entry.pick)) entry.pick = null;
  const again = () => renderEntryLayout(S.state);
  $("entry-tiles").replaceChildren(...left.map((token) => {
    const icon = tileIcon(token, token === entry.pick ? "selected" : "");
    pressable(icon, t("tile.label", { tile: tileName(token) }), async () => {
      entry.pick = entry.pick === token ? null : token;
      await again();
      // the tiles were redrawn, which dropped the keyboard's focus: on to the board's empty cell for the tile
      // picked, or back to the tile let go
      const board = $("entry-svg");
      const to = entry.pick ? board.querySelector("g.legal[tabindex='0']") || board.querySelector("g.legal[tabindex]")
        : $("entry-tiles").querySelector(`svg[data-tile="${token}"]`);
      if (S.keyboard && to) to.focus();
    });
    icon.setAttribute("aria-pressed", String(token === entry.pick));
    return icon;
  }));
  const empty = [], full = [];
  entry.cells.forEach((t, i) => (t ? full : empty).push(i));
  drawBoard($("entry-svg"), layout, entry.cells, {
    legal: entry.pick ? empty : [], movable: full,
    onClick: (cell, token) => {
      if (token) { entry.cells[cell] = null; entry.pick = token; }  // take it back, ready to go elsewhere
      else if (entry.pick) { entry.cells[cell] = entry.pick; entry.pick = null; }
      else return;
      $("entry-board").value = entry.cells.some(Boolean) ? entry.cells.map((t) => t || ".").join(" ") : "";
      if ($("entry-board").value) $("entry-score").value = "";  // a board's score is worked out from it
      again();
    },
  });
}

// ---- live updates ----------------------------------------------------------------------------------
// not older than the state shown (answers and live updates may arrive in either order)
function isCurrent(state) {
  return !S.state || state.code !== S.state.code || state.version >= S.state.version;
}

// The room as the server has it now (after a refused action whose refusal says the page is out of date).
async function refreshState() {
  const session = S.session;
  if (!session) return;
  try {
    const data = await api("GET", `/api/rooms/${session.code}`);
    if (S.session === session && isCurrent(data.state)) setState(data.state);
  } catch (e) { /* the live connection or the polling tells */ }
}

function setState(state) {
  if (!state) return;
  if (S.session && S.session.token && state.you === null) { seatGone(); return; }  // removed, or gave it up
  if (S.state && S.state.round !== state.round) { S.releases = []; S.holdPick = null; }
  S.state = state;
  S.stateAt = Date.now();
  noteStandin(state);
  scheduleStandinCheck(state);
  render();
}

// The dot in the header, in colour and in words (its title and label)
const CONNECTION_WORDS = { live: "conn.live", poll: "conn.poll", down: "conn.down", "": "conn.none" };
function showConnection(kind) {
  const dot = $("conn");
  dot.className = kind;
  dot.title = t(CONNECTION_WORDS[kind]);
  dot.setAttribute("aria-label", t(CONNECTION_WORDS[kind]));
}

function connect() {
  disconnect();
  const { code, token } = S.session;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  const query = token ? `?token=${encodeURIComponent(token)}` : "";  // an onlooker has none
  try { ws = new WebSocket(`${proto}://${location.host}/api/rooms/${code}/ws${query}`); }
  catch { startPolling(); return; }
  S.ws = ws;
  ws.onopen = () => { showConnection("live"); S.wsRetry = 0; stopPolling(); };
  ws.onmessage = (ev) => {
    const data = JSON.parse(ev.data);
    if (data.type === "state" && isCurrent(data.state)) setState(data.state);
    if (data.type === "error") toast(data.error);
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.ws = null; showConnection("poll");
    startPolling();
    // soon at first, then every 30 s for as long as the page is in the room (polling meanwhile)
    const delay = S.wsRetry < 5 ? 2000 * ++S.wsRetry : 30000;
    setTimeout(() => { if (S.session && !S.ws) connect(); }, delay);
  };
}

function disconnect() {
  if (S.ws) { const ws = S.ws; S.ws = null; ws.close(); }
  stopPolling();
  showConnection("");
}

function startPolling() {
  if (S.pollTimer) return;
  S.pollTimer = setInterval(async () => {
    if (!S.session) return;
    try {
      const data = await api("GET", `/api/rooms/${S.session.code}?since=${S.state ? S.state.version : -1}`);
      if (S.ws) return;  // the live connection came back meanwhile
      showConnection("poll");
      if (data.changed) setState(data.state);
    } catch (e) {
      if (e.status === 403 && S.session && S.session.token) { seatGone(); return; }  // the seat was removed
      if (!S.ws) showConnection("down");  // and keep polling
    }
  }, 1500);
}
function stopPolling() { clearInterval(S.pollTimer); S.pollTimer = null; }

function enterRoom(joined) {
  S.session = { code: joined.code, token: joined.token, player: joined.player, at: Date.now() };
  S.invite = null;
  const address = joined.token ? `#room=${joined.code}` : `#watch=${joined.code}`;
  if (joined.token) {  // an onlooker has no seat to come back to
    localStorage.setItem(`tie-${joined.code}`, JSON.stringify(S.session));
    localStorage.setItem("tie-last", joined.code);
  }
  // entered from the home page: a history entry of its own, so that the browser's Back button leads home
  if (addressedRoom() === joined.code) history.replaceState({ ...(history.state || {}), room: joined.code }, "", address);
  else history.pushState({ room: joined.code, pushed: true }, "", address);
  S.selected = null; S.moving = null; S.releases = []; S.holdPick = null; S.hint = null; S.focusAfter = null;
  setState(joined.state);
  connect();
}

// This browser's seat is no longer in the room (the lobby's "Give up my seat", or the host removed it):
// forget it, and go home
function seatGone() {
  const code = S.session.code;
  localStorage.removeItem(`tie-${code}`);
  toast(S.leaving ? t("msg.gave_up", { code }) : t("msg.seat_gone", { code }), "info");
  S.leaving = false;
  leave();
}

function leave() {
  const code = S.session && S.session.code;
  disconnect();
  clearTimeout(S.standinTimer);
  clearInterval(S.standinTick); S.standinTick = null;
  S.session = null; S.state = null; S.spoken = null; S.invite = null;
  localStorage.removeItem("tie-last");
  if (history.state && history.state.pushed && history.state.room === code) history.back();  // to the home entry
  else history.replaceState(null, "", "#");
  render();
  loadRooms();
  loadScores();
  loadMyRooms();
}

// "Leave the room" (or the title) from a game: the seat is kept, and a room of friends waits for it.  Leaving while
// the game waits for this player's own move holds the others up at once, so the page asks first; leaving at another
// time says so on the home page.
function leaveRoom() {
  const st = S.state, m = me();
  const company = !!st && st.mode === "room" && st.you !== null && st.you !== undefined &&
    st.players.some((p) => p.index !== st.you && p.kind === "human");
  const underWay = company && ["playing", "round_over"].includes(st.status);
  const holding = underWay && st.status === "playing" && !!m && ["place", "announce", "settle"].includes(m.phase);
  if (holding && !window.confirm(t("msg.leave_confirm", { code: st.code }))) return;
  const code = st && st.code, stoodIn = underWay && !!st.players[st.you].standin;
  leave();
  if (underWay && !holding) {
    toast(t(stoodIn ? "msg.left_standin" : "msg.left_wait", { code }), "info");
  }
}

// Rooms this browser has a seat in that are not over: a player who left (or closed the tab) mid-game holds up
// the others, so the way back is on the home page.  The newest few, each asked for its state.
const MY_ROOMS_SHOWN = 5, MY_ROOMS_ASKED = 40;  // rooms listed; seats asked about, newest first
async function loadMyRooms() {
  const saved = Object.keys(localStorage).filter((k) => /^tie-[A-Z0-9]{4,8}$/.test(k)).map((k) => {
    try { return JSON.parse(localStorage.getItem(k)); } catch { return null; }
  }).filter((s) => s && s.code && s.token).sort((a, b) => (b.at || 0) - (a.at || 0)).slice(0, MY_ROOMS_ASKED);
  const items = [];
  for (const seat of saved) {
    if (items.length >= MY_ROOMS_SHOWN) break;  // finished rooms are passed over, so they push no open one out
    let st;
    try {
      const response = await fetch(`/api/rooms/${seat.code}`, { headers: { "x-player-token": seat.token } });
      // the room is gone, or no longer knows the seat (removed in its lobby): forget it
      if ([403, 404].includes(response.status)) { localStorage.removeItem(`tie-${seat.code}`); continue; }
      if (!response.ok) continue;
      st = (await response.json()).state;
    } catch { continue; }
    if (S.session || st.status === "finished") continue;
    const li = el("li");
    const b = el("button", { class: "primary", "aria-describedby": `mine-${st.code}` }, t("home.back_to_it"));  // which game
    b.addEventListener("click", () => resume(st.code));
    const what = { lobby: t("rooms.lobby"), playing: t("rooms.under_way", { round: st.round + 1 }),
      round_over: t("rooms.over", { round: st.round + 1 }) }[st.status] || st.status;
    li.append(el("span", { id: `mine-${st.code}` }, `${st.code} · ${st.mode === "caller" ? t("rooms.caller") : presetName(st.preset) || t("preset.custom")} · ${what}`), b);
    items.push(li);
  }
  if (S.session) return;  // a room was entered meanwhile
  $("my-rooms").replaceChildren(...items);
  $("my-rooms-box").hidden = !items.length;
}

// ---- the table's own tiles: which carry a sun (the shipped map is a guess), and the edition's colours -----
const SYMBOLS_KEY = "tie-symbols", PALETTE_KEY = "tie-palette";
const OTHER_SYMBOL = { sun: "moon", moon: "sun" };

function presetOf(name) { return S.presets.find((p) => p.name === name); }

// Whether a preset's rules look at the suns and moons (as the engine's Ruleset.uses_symbols: sun/moon placement,
// or any scoring but the standard one)
function presetUsesSymbols(name) {
  const p = presetOf(name);
  return !!p && (p.options.placement === "sunmoon" || (p.options.scoring || "standard") !== "standard");
}

// The tiles of a preset's set: the 27 standard ones, and the four wildcards on the daffodil board (or if asked).
function presetTiles(name) {
  const o = (presetOf(name) || {}).options || {};
  const wild = o.wildcards === null || o.wildcards === undefined ? o.board === "daffodil" : !!o.wildcards;
  return S.tokens.filter((t) => wild || !t.includes("*"));
}

// The map this device keeps: tiles whose symbol differs from the shipped map (anything else in it is dropped).
function readMySymbols() {
  const mine = {};
  try {
    const kept = JSON.parse(localStorage.getItem(SYMBOLS_KEY));
    for (const [token, symbol] of Object.entries(kept && typeof kept === "object" ? kept : {})) {
      if (S.symbolOf[token] && OTHER_SYMBOL[symbol] && symbol !== S.symbolOf[token]) mine[token] = symbol;
    }
  } catch { /* a damaged map: the shipped one */ }
  return mine;
}

function saveMySymbols() {
  try {
    if (Object.keys(S.mySymbols).length) localStorage.setItem(SYMBOLS_KEY, JSON.stringify(S.mySymbols));
    else localStorage.removeItem(SYMBOLS_KEY);
  } catch { /* storage full or off: the map lasts as long as the page */ }
}

function mySymbol(token) { return S.mySymbols[token] || S.symbolOf[token]; }

// A room's options for the table's map, under rules that use it: the map's JSON text, only the tiles that differ.
function symbolOptions(preset) {
  if (!presetUsesSymbols(preset) || !Object.keys(S.mySymbols).length) return null;
  return { symbols: JSON.stringify({ symbols: S.mySymbols }) };
}

// The home page's map editor, shown under rules that use the symbols: every tile of the set with its sun or moon
// (a button: a tap, Enter or Space turns it), the tiles that differ from the shipped map outlined.
function renderSymbolsEditor() {
  const preset = $("preset").value, box = $("symbols-box");
  box.hidden = !presetUsesSymbols(preset);
  if (box.hidden) return;
  const tiles = presetTiles(preset);
  const changed = tiles.filter((t) => S.mySymbols[t]).length;
  $("symbols-summary").textContent = changed ? t("sym.yours", { n: changed }) : t("sym.shipped");
  const focused = document.activeElement && $("symbols-map").contains(document.activeElement)
    ? document.activeElement.dataset.tile : null;
  $("symbols-map").replaceChildren(...tiles.map((token) => {
    const symbol = mySymbol(token), name = tileName(token), said = t(`sym.${symbol}`);
    const b = el("button", {
      type: "button", class: `sym-tile${S.mySymbols[token] ? " changed" : ""}`, "data-tile": token,
      "aria-label": `${name}, ${said}`, "aria-pressed": String(symbol === "sun"),
      title: `${name}: ${said}${S.mySymbols[token] ? ` (${t("sym.shipped_says", { symbol: t(`sym.${S.symbolOf[token]}`) })})` : ""}; ` +
        t(`sym.press_${OTHER_SYMBOL[symbol]}`),
    });
    const icon = tileIcon(token, "sym-icon", null);  // the symbol big beneath it, not small in the tile
    const mark = el("svg:svg", { viewBox: "-12 -12 24 24", class: "sym-mark" });
    drawSymbol(mark, symbol, 0, 0, 6.5);
    for (const svg of [icon, mark]) {
      svg.setAttribute("aria-hidden", "true");
      for (const t of svg.querySelectorAll("title")) t.remove();  // the button's title says it all
    }
    b.append(icon, mark);
    b.addEventListener("click", () => {
      const next = OTHER_SYMBOL[mySymbol(token)];
      if (next === S.symbolOf[token]) delete S.mySymbols[token]; else S.mySymbols[token] = next;
      saveMySymbols();
      renderSymbolsEditor();
    });
    return b;
  }));
  if (focused) { const again = $("symbols-map").querySelector(`[data-tile="${focused}"]`); if (again) again.focus(); }
  $("symbols-reset").disabled = !changed;
}

// The stripe colours: the edition chosen on this device, else the six-board edition's under rules that use the
// sun and moon (its tiles carry them) and the classic ones otherwise.
function paletteName() {
  if (S.paletteChoice && S.palettes[S.paletteChoice]) return S.paletteChoice;
  const symbols = S.state ? !!S.state.symbols : presetUsesSymbols($("preset").value);
  return symbols && S.palettes.sixboard ? "sixboard" : "classic";
}

function applyPalette() {
  const name = paletteName();
  S.palette = S.palettes[name] || S.palette;
  for (const pick of document.querySelectorAll(".palette-pick")) pick.value = name;
}

// ---- home ------------------------------------------------------------------------------------------
// The presets to choose from, by their names in the chosen language (the values stay the identifiers).
function presetOptions() {
  const pick = $("preset"), value = pick.value;
  if (!S.presets.length) return;  // not loaded yet: the start fills it
  pick.replaceChildren(...S.presets.map((p) => el("option", { value: p.name }, presetName(p.name))));
  if (value) pick.value = value;
}

// The chosen preset's one line: the server's (English) text, or the page's own in another language.
function presetInfo() {
  const p = presetOf($("preset").value);
  $("preset-info").textContent = !p ? "" : translated(`preset.${p.name}`) ? t(`preset.${p.name}`) : p.description;
  // solitaire is one player alone: no AI opponents to pick (the server refuses them)
  for (const pick of document.querySelectorAll(".ai-pick")) pick.disabled = !!(p && p.options.solitaire);
}

// The AI players to pick (solo opponents, the lobby's "Add AI player"), each with what it is, kept as chosen.
function agentOptions() {
  const option = (a) => {
    const about = translated(`agent.${a}`) ? t(`agent.${a}`) : (S.about || {})[a];
    return el("option", { value: a }, about ? `${a}: ${about}` : a);
  };
  for (const s of [...document.querySelectorAll(".ai-pick"), $("lobby-agent")]) {
    const value = s.value;
    s.replaceChildren(...(s.id === "lobby-agent" ? [] : [el("option", { value: "" }, "—")]), ...S.agents.map(option));
    if (value) s.value = value;
  }
}

// Another language chosen: the page's text again, in it (what the server said stays English).
function relabel() {
  const name = $("name");
  if (!localStorage.getItem("tie-name") && Object.values(STRINGS).some((d) => d["home.default_name"] === name.value)) {
    name.value = t("home.default_name");  // the default name, not one typed
  }
  for (const pick of document.querySelectorAll(".lang-pick")) pick.value = LANG;
  showConnection($("conn").className);
  presetOptions();
  presetInfo();
  agentOptions();
  render();
  if (!S.session) { loadRooms(); loadScores(); loadMyRooms(); }
}

function picks() {
  return [...document.querySelectorAll(".ai-pick")].filter((s) => !s.disabled).map((s) => s.value).filter(Boolean);
}

// Creating or joining a room, one at a time: a double click on "Play solo" made two rooms (one left behind under
// way), and on "Join" a second join was refused (the name taken, by the first) after the first had entered the
// room, which then had no seat to act from.  The buttons are disabled meanwhile.
const ENTRY_BUTTONS = ["solo", "create-room", "create-caller", "join", "watch", "invite-join", "invite-watch"];
async function entering(work) {
  if (entering.busy) return;
  entering.busy = true;
  for (const id of ENTRY_BUTTONS) $(id).disabled = true;
  try { await work(); } finally {
    entering.busy = false;
    for (const id of ENTRY_BUTTONS) $(id).disabled = !S.ready;  // not before their handlers are bound (init)
  }
}

// A name is needed to create or join (the server's "String should have at least 1 character" said it darkly).
function typedName() {
  const name = $("name").value.trim();
  if (!name) { toast(t("msg.name_first")); $("name").focus(); }
  return name;
}

function create(mode) { return entering(() => createNow(mode)); }

async function createNow(mode) {
  if (!typedName()) return;
  try {
    // the AI picks are the solo game's opponents; a friends' room adds its AI players in the lobby
    const body = { mode, name: $("name").value, preset: $("preset").value, agents: mode === "solo" ? picks() : [] };
    const options = symbolOptions(body.preset);  // the table's own sun/moon map, under rules that use it
    if (options) body.options = options;
    if (mode === "solo" && $("confirm").checked) body.confirm = true;
    if (mode !== "solo") body.public = $("listed").checked;
    localStorage.setItem("tie-name", $("name").value);
    enterRoom(await api("POST", "/api/rooms", body));
  } catch (e) { toast(e.message); }
}

// A finished room of friends or at a table, once more: the host opens a rematch (a new room, the same seats, each
// token working there); every other page is told by the state (``rematch``) and follows with its own token.
function showRematch(button, st) {
  const mine = st.you !== null && st.you !== undefined;
  button.hidden = !(st.mode !== "solo" && st.status === "finished" && mine && (isHost() || st.rematch));
  button.textContent = st.rematch ? t("game.rematch_go", { code: st.rematch }) : t("game.rematch_same");
}

function rematch() { return entering(() => rematchNow()); }

async function rematchNow() {
  const session = S.session;
  try {
    const joined = await api("POST", `/api/rooms/${session.code}/rematch`, { token: session.token });
    disconnect();
    clearTimeout(S.standinTimer);
    history.replaceState({ ...(history.state || {}), room: joined.code }, "", `#room=${joined.code}`);
    enterRoom(joined);
  } catch (e) { toast(e.message); }
}

// A finished solo game, once more: the same rules, opponents and name, a new deal (a new room, entered as any).
function playAgain() { return entering(() => playAgainNow()); }

async function playAgainNow() {
  const st = S.state;
  const agents = st.players.filter((p) => p.kind === "ai").map((p) => p.agent);
  const body = { mode: "solo", name: myPlayer().name, options: st.options, agents };
  if (st.confirm) body.confirm = true;
  try {
    const joined = await api("POST", "/api/rooms", body);
    disconnect();
    clearTimeout(S.standinTimer);
    // the new game takes the finished one's place in the history: Back still leads home
    history.replaceState({ ...(history.state || {}), room: joined.code }, "", `#room=${joined.code}`);
    enterRoom(joined);
  } catch (e) { toast(e.message); }
}

function join(code) { return entering(() => joinNow(code)); }

// "Back to it": the seat this browser has, or (given up on another tab meanwhile) a word and a fresh list, never
// a new seat taken quietly.
function resume(code) {
  if (localStorage.getItem(`tie-${code}`)) return join(code);
  toast(t("msg.no_seat", { code }), "info");
  loadMyRooms();
}

// Watching a room without a seat: every board and the scores, as the room shows them to anyone, live.
function watch(code) { return entering(() => watchNow(code)); }

async function watchNow(code) {
  code = typedCode(code);
  if (!code) return;
  try {
    S.session = null;
    enterRoom({ code, token: null, player: null, state: (await api("GET", `/api/rooms/${code}`)).state });
  } catch (e) { toast(e.message); }
}

async function joinNow(code) {
  code = typedCode(code);
  if (!code) return;
  const saved = localStorage.getItem(`tie-${code}`);
  try {
    if (saved) {
      S.session = JSON.parse(saved);
      const data = await api("GET", `/api/rooms/${code}`);
      enterRoom({ ...S.session, state: data.state });
      return;
    }
    if (!typedName()) return;
    localStorage.setItem("tie-name", $("name").value);
    enterRoom(await api("POST", `/api/rooms/${code}/join`, { name: $("name").value }));
  } catch (e) {
    S.session = null;
    // a seat kept here in a room that is gone, or that no longer knows it (another server's database): forget it,
    // and the address naming it, or every reload of the page tried it again
    if (saved && [403, 404].includes(e.status)) {
      localStorage.removeItem(`tie-${code}`);
      history.replaceState(null, "", "#");
    }
    toast(e.status === 409 && /^(room_started|solo_room|solitaire_room)/.test(e.key || "") ? t("msg.started_watch", { error: e.message }) : e.message);
  }
}

async function loadRooms() {
  try {
    const { rooms } = await api("GET", "/api/rooms");
    const list = $("open-rooms");
    if (!rooms.length) { list.replaceChildren(el("li", { class: "muted" }, t("home.none"))); return; }
    // rooms to join first, then games under way (to watch)
    const order = [...rooms.filter((r) => r.joinable), ...rooms.filter((r) => !r.joinable)];
    const had = list.contains(document.activeElement) ? document.activeElement.dataset.code : null;
    list.replaceChildren(...order.map((r) => {
      const li = el("li");
      // described by its row ("AB12CD · Standard · ..."): a screen reader's list of buttons had many alike "Join"
      const b = el("button", { "data-code": r.code, "aria-describedby": `open-${r.code}` }, r.joinable ? t("home.join") : t("home.watch"));
      b.addEventListener("click", () => (r.joinable ? join(r.code) : watch(r.code)));
      const when = r.status === "lobby" ? ""
        : ` · ${t(r.status === "round_over" ? "rooms.round_over" : "rooms.round", { round: r.round + 1, rounds: r.rounds })}`;
      li.append(el("span", { id: `open-${r.code}` }, `${r.code} · ${r.mode === "caller" ? t("rooms.caller") : presetName(r.preset) || t("preset.custom")}${when} · ${r.players.join(", ")}`), b);
      return li;
    }));
    // fetched anew every 5 s: the keyboard's focus on a button of the list fell to the page itself
    const again = had && list.querySelector(`button[data-code="${had}"]`);
    if (again) again.focus({ preventScroll: true });
  } catch (e) { /* the lobby list is optional */ }
}

// This browser's own record under each preset: its best round, and how many rounds it played and their total.
// Kept on the device ("tie-record"); each round counts once, however often the page shows it.
const RECORD_KEY = "tie-record", ROUNDS_REMEMBERED = 200;
function readRecord() {
  try {
    const record = JSON.parse(localStorage.getItem(RECORD_KEY));
    if (record && typeof record === "object" && record.presets && Array.isArray(record.counted)) return record;
  } catch { /* a damaged record starts again */ }
  return { presets: {}, counted: [] };
}

// Rounds an AI played (some of) for this device's seat: the server leaves them off the best scores, and so does the
// record.  The state says only whether an AI stands in now (a seat taken back before the round ended looks like any
// other at its end), so the page notes each round in which it saw one in this seat.  Kept on the device, as the
// record is (another tab, a reload).  The server's own word, ``stood_in`` on the player, is taken first.
const STOOD_IN_KEY = "tie-stood-in";
function stoodIn() {
  try { const kept = JSON.parse(localStorage.getItem(STOOD_IN_KEY)); return Array.isArray(kept) ? kept : []; }
  catch { return []; }
}

function noteStandin(st) {
  const mine = st.you !== null && st.you !== undefined ? st.players[st.you] : null;
  if (!mine || !mine.standin || st.mode === "caller" || st.status === "lobby") return;
  const key = `${st.code}:${st.round}`, kept = stoodIn();
  if (kept.includes(key)) return;
  try { localStorage.setItem(STOOD_IN_KEY, JSON.stringify([...kept, key].slice(-ROUNDS_REMEMBERED))); }
  catch { /* storage full or off */ }
}

// Count a round just over (once); true if it is a new best under its preset (not the very first round).
function noteRound(st, mine) {
  if (!st.preset || mine.standin || typeof mine.round_score !== "number") return false;  // custom rules: no record
  const key = `${st.code}:${st.round}`, record = readRecord();
  if (mine.stood_in || stoodIn().includes(key)) return false;  // an AI played some of it for this seat
  const mark = record.presets[st.preset] || { best: null, bestRound: null, rounds: 0, total: 0 };
  if (!record.counted.includes(key)) {
    record.counted = [...record.counted, key].slice(-ROUNDS_REMEMBERED);
    if (mark.best === null || mine.round_score > mark.best) {
      if (mark.rounds > 0) mark.bestRound = key;  // a first round is a best by default, not news
      mark.best = mine.round_score;
    }
    mark.rounds += 1; mark.total += mine.round_score;
    record.presets[st.preset] = mark;
    try { localStorage.setItem(RECORD_KEY, JSON.stringify(record)); } catch { /* storage full or off */ }
  }
  return mark.bestRound === key;
}

function showRecord(preset) {
  const mark = readRecord().presets[preset];
  $("my-record").textContent = mark && mark.rounds
    ? t("home.record", { best: mark.best, mean: decimal(mark.total / mark.rounds), n: mark.rounds })
    : "";
}

// The best scores played on this server under the chosen rules (people only; custom rules have no list).
async function loadScores() {
  const preset = $("preset").value || "standard";
  $("best-scores-preset").textContent = `(${presetName(preset)})`;
  showRecord(preset);
  try {
    const { scores } = await api("GET", `/api/scores?preset=${encodeURIComponent(preset)}&limit=10`);
    if ($("preset").value && $("preset").value !== preset) return;  // the choice moved on meanwhile
    const list = $("best-scores");
    if (!scores.length) { list.replaceChildren(el("li", { class: "muted" }, t("home.none"))); return; }
    list.replaceChildren(...scores.map((s) => {
      const when = new Date(s.at * 1000).toLocaleDateString(LANG);
      // how and when it was played: shown (in a title it was out of reach by keyboard and touch)
      const li = el("li");
      li.append(el("span", {}, s.name), el("span", { class: "num" }, `${s.score}`), " ",
        el("span", { class: "muted score-when" }, t("home.score_title", { mode: t(`mode.${s.mode}`, {}, s.mode), when })));
      return li;
    }));
  } catch (e) { /* the list is optional */ }
}

// A room named in the address (#room=CODE or #join=CODE): resumed if this browser has a seat there, else its
// code is filled in for joining.  An address with no room (Back from a room) goes home.
function addressedRoom() { return roomInHash(location.hash); }

// The room code of an address's "#room=", "#join=" or "#watch=" part; "" if none (no request made).
function roomInHash(hash) {
  const words = new URLSearchParams(hash.replace(/^#/, ""));
  const code = words.get("room") || words.get("join") || words.get("watch") || "";
  // checked before upper-casing: "ß".toUpperCase() is "SS", which made "ßabcd" another room's code
  return /^[A-Za-z0-9]{4,8}$/.test(code) ? code.toUpperCase() : "";
}

// A code typed in the home page's box: "abc 123" as ABC123, and a whole invite link pasted there as its room;
// "" when it holds none, said (before any request is made).
function typedCode(text) {
  text = (text || "").trim();
  const hash = text.indexOf("#");
  const linked = hash >= 0 ? roomInHash(text.slice(hash)) : "";
  const code = linked || text.replace(/\s+/g, "");
  if (!code) toast(t("msg.code_first"));
  else if (!/^[A-Za-z0-9]{4,8}$/.test(code)) toast(t("msg.bad_code", { code }));  // before upper-casing: ß is SS
  else return code.toUpperCase();
  return "";
}

async function openFromAddress() {
  const code = addressedRoom();
  if (!code) {  // Back from a room: home (the seat is kept)
    if (S.session) leave();
    else if (S.invite) { S.invite = null; render(); }
    return;
  }
  const watching = new URLSearchParams(location.hash.slice(1)).has("watch");  // before leave() rewrites the address
  if (S.session && S.session.code === code && !S.session.token === watching) return;
  if (S.session) leave();
  $("join-code").value = code;
  if (watching) { await watch(code); return; }
  if (localStorage.getItem(`tie-${code}`)) { await join(code); return; }
  // invited: the name asked for first (the one this device remembers, else empty, not the default "Player")
  S.invite = code;
  if (!localStorage.getItem("tie-name") && $("name").value === t("home.default_name")) $("name").value = "";
  render();
  window.scrollTo(0, 0);
  $("name").focus();
}

async function init() {
  // each screen starts at its top (show): the browser put the home page back where it was scrolled to when a room
  // was entered (Back, "Leave the room"), so on a phone "Your games", first on the page, was out of sight
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  window.addEventListener("hashchange", openFromAddress);  // a room link opened in a tab already on the page
  const [{ presets }, { agents, about = {} }, tiles] = await Promise.all([api("GET", "/api/presets"), api("GET", "/api/agents"), api("GET", "/api/tiles")]);
  S.presets = presets; S.agents = agents; S.about = about; S.palette = tiles.palettes.classic; S.names = tiles.names || {};
  S.palettes = tiles.palettes; S.tokens = tiles.tiles || []; S.symbolOf = tiles.symbol_of || {};
  S.mySymbols = readMySymbols();
  const chosen = localStorage.getItem(PALETTE_KEY);
  S.paletteChoice = S.palettes[chosen] ? chosen : null;
  presetOptions();
  $("preset").addEventListener("change", () => { presetInfo(); loadScores(); if (!S.state) render(); });
  presetInfo();
  agentOptions();
  $("symbols-reset").addEventListener("click", () => { S.mySymbols = {}; saveMySymbols(); renderSymbolsEditor(); });
  for (const pick of document.querySelectorAll(".palette-pick")) {
    pick.addEventListener("change", () => {  // chosen: kept on the device, whatever the rules
      S.paletteChoice = pick.value;
      try { localStorage.setItem(PALETTE_KEY, pick.value); } catch { /* storage off: for this page only */ }
      render();
    });
  }
  if (agents.includes("best")) $("lobby-agent").value = "best";  // the strongest, not the first listed
  $("listed").checked = localStorage.getItem("tie-listed") === "1";
  $("listed").addEventListener("change", () => localStorage.setItem("tie-listed", $("listed").checked ? "1" : "0"));
  $("name").value = localStorage.getItem("tie-name") || t("home.default_name");
  $("solo").addEventListener("click", () => create("solo"));
  $("create-room").addEventListener("click", () => create("room"));
  $("create-caller").addEventListener("click", () => create("caller"));
  $("join").addEventListener("click", () => join($("join-code").value));
  $("watch").addEventListener("click", () => watch($("join-code").value));
  $("join-code").addEventListener("keydown", (e) => { if (e.key === "Enter") join($("join-code").value); });  // no form to submit
  $("lobby-add").addEventListener("click", () => act("add", { agent: $("lobby-agent").value }));
  $("lobby-add-p").addEventListener("click", async () => {
    if (await act("add", { name: $("lobby-person").value })) $("lobby-person").value = "";  // ready for the next
  });
  $("lobby-person").addEventListener("keydown", (e) => { if (e.key === "Enter") $("lobby-add-p").click(); });
  $("uncall-btn").addEventListener("click", () => act("uncall"));
  $("caller-add-p").addEventListener("click", async () => {
    if (await act("add", { name: $("caller-person").value })) $("caller-person").value = "";
  });
  $("caller-person").addEventListener("keydown", (e) => { if (e.key === "Enter") $("caller-add-p").click(); });
  $("lobby-start").addEventListener("click", () => act("start"));
  $("next-round").addEventListener("click", () => act("next"));
  $("leave").addEventListener("click", leaveRoom);
  $("again").addEventListener("click", playAgain);
  $("caller-leave").addEventListener("click", leave);
  $("rematch").addEventListener("click", rematch);
  $("caller-rematch").addEventListener("click", rematch);
  $("lobby-leave").addEventListener("click", leave);
  $("home-link").addEventListener("click", (e) => { e.preventDefault(); if (S.session) leaveRoom(); else leave(); });
  // the tiles this page shows called: if another device called meanwhile, the server calls nothing (409), and the
  // page fetches the room as it is
  $("call-btn").addEventListener("click", async () => {
    if (await act("call", { called: (S.state.drawn || []).length }) === false) refreshState();
  });
  $("invite-join").addEventListener("click", () => join(S.invite));
  $("invite-watch").addEventListener("click", () => watch(S.invite));
  $("invite-other").addEventListener("click", () => {  // the whole home page, the code kept under "Join"
    S.invite = null;
    history.replaceState(null, "", "#");
    render();
  });
  $("lobby-copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("lobby-link").href); toast(t("msg.copied"), "info"); }
    catch { toast(t("msg.copy_failed")); }
  });
  $("name").addEventListener("keydown", (e) => {  // Enter: join the room whose code is typed in, else play solo
    if (e.key === "Enter") { if ($("join-code").value.trim()) join($("join-code").value); else create("solo"); }
  });
  $("end-round").addEventListener("click", () => {
    // a player with nothing entered scores 0 for the round, and that cannot be mended afterwards
    const missing = noEntry(S.state);
    if (missing.length && !window.confirm(t("msg.end_confirm", { names: missing.join(", "), n: missing.length }))) return;
    act("end-round");
  });
  $("caller-next").addEventListener("click", () => act("next"));
  $("settle-btn").addEventListener("click", () => { const releases = S.releases.map(([tile, cell]) => ({ tile, cell })); S.releases = []; act("settle", { releases }); });
  $("hint-btn").addEventListener("click", requestHint);
  $("draw-btn").addEventListener("click", () => act("draw"));
  $("reclaim-btn").addEventListener("click", () => act("reclaim"));
  $("analyse-btn").addEventListener("click", requestAnalysis);
  $("caller-analyse-btn").addEventListener("click", requestAnalysis);
  $("hint-key").checked = localStorage.getItem(HINT_KEY) !== "0";
  showHintKey();
  $("hint-key").addEventListener("change", () => {
    try { localStorage.setItem(HINT_KEY, $("hint-key").checked ? "1" : "0"); } catch { /* storage off: for this page only */ }
    showHintKey();
  });
  $("speak-calls-label").hidden = !canSpeak();
  $("speak-calls").checked = localStorage.getItem("tie-speak") === "1";
  $("speak-calls").addEventListener("change", () => localStorage.setItem("tie-speak", $("speak-calls").checked ? "1" : "0"));
  for (const pick of document.querySelectorAll(".lang-pick")) {  // one on each screen, as the colours
    pick.value = LANG;
    pick.addEventListener("change", () => { setLanguage(pick.value); relabel(); });
  }
  document.addEventListener("keydown", () => { S.keyboard = true; }, true);
  document.addEventListener("pointerdown", () => { S.keyboard = false; }, true);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && cancelPickUp()) e.preventDefault();
  });
  document.addEventListener("keydown", (e) => {
    if (!["h", "H", "Enter"].includes(e.key) || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    // a link or a summary does its own thing with Enter: Enter on "Take It Easy!" drew a tile as it left the game
    if (["INPUT", "TEXTAREA", "SELECT", "BUTTON", "A", "SUMMARY"].includes(e.target.tagName) || $("game").hidden) return;
    if (e.key !== "Enter") { if ($("hint-key").checked) requestHint(); }  // h or H (Caps Lock), unless turned off
    else if (!$("draw-bar").hidden) act("draw");
  });
  $("settle-reset").addEventListener("click", () => { S.releases = []; S.holdPick = null; render(); });
  $("entry-player").addEventListener("change", () => render());  // the form shows that player's entry
  $("entry-board").addEventListener("input", () => {  // a whole board typed in: the lay-out board shows it too
    const st = S.state, layout = st && S.layouts[st.layout];
    const cells = layout && boardCells($("entry-board").value, st, layout.cells.length);
    if (cells && S.entry) { S.entry.cells = cells; renderEntryLayout(st); }
    if ($("entry-board").value.trim()) $("entry-score").value = "";  // a board's score is worked out from it
  });
  // Enter in the score box enters it, as the button beside it does
  $("entry-score").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); $("entry-btn").click(); } });
  $("entry-btn").addEventListener("click", async () => {
    const st = S.state, player = entryPlayer();
    const board = $("entry-board").value.trim(), score = $("entry-score").value;
    const body = { player };
    if (board && score !== "") { toast(t("msg.board_and_score")); return; }  // the score was dropped without a word
    if (board) body.board = board; else if (score !== "") body.score = +score; else { toast(t("msg.board_or_score")); return; }
    // an entry already there is replaced only when asked (the host typing the next person's board under the
    // last one's name replaced it without a word)
    const old = entryOf(st, player);
    const same = old && (body.board ? old.board === board.split(/\s+/).join(" ") : !old.board && old.score === body.score);
    if (old && !same) {
      const was = old.board ? t("msg.old_board", { n: old.score }) : `${old.score}`;
      const what = body.board ? t("msg.this_board") : `${body.score}`;
      if (!window.confirm(player === st.you ? t("msg.replace_yours", { was, what })
        : t("msg.replace_theirs", { name: st.players[player].name, was, what }))) return;
    }
    if (!await act("entry", body)) return;  // refused: what was typed or laid out stays, to be mended
    S.entryShown = null;  // the form shows the entry as it now is
    const next = nextWithoutEntry(S.state, player);  // the host goes on to the next player still to come
    if (next !== null) $("entry-player").value = String(next);
    render();
  });
  $("score-btn").addEventListener("click", async () => {
    try {
      $("score-out").textContent = "";  // no earlier board's score beside a refused one
      clearRefusal();  // nor an earlier board's refusal beside a score
      const body = { board: $("score-text").value, preset: $("preset").value };
      const options = symbolOptions(body.preset);  // scored with the table's sun/moon map
      if (options) body.options = options;
      const r = await api("POST", "/api/score", body);
      $("score-out").textContent = t("home.score_out", { n: r.score });
    } catch (e) { toast(e.message); }
  });
  // the buttons that start or join a room stay disabled (index.html) until their handlers are bound: an early
  // click would otherwise do nothing
  S.ready = true;
  for (const id of ENTRY_BUTTONS) $(id).disabled = false;
  await openFromAddress();
  render();
  loadRooms();
  loadScores();
  if (!S.session) loadMyRooms();
  setInterval(() => { if (!S.session) loadRooms(); }, 5000);
}

init().catch((e) => toast(e.message));
