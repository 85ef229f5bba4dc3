// punct-gui page: renders the server's state (board SVG drawn by the rules library's renderer),
// turns clicks into moves, shows engine output from the event stream. No framework, no build.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const KINDS = ['T', 'S', 'C', 'A', 'L', 'R'];
const KIND_NAMES = { T: 'triangle', S: 'straight', C: 'centre-straight', A: 'angular', L: 'L-angular', R: 'R-angular' };

let state = null;
let stateAt = 0;                 // Date.now() when the state arrived (for the running clock)
let flipped = localStorage.getItem('punct-flip') === '1';
let cellPos = {};                // cell name -> [x, y] in the picture
let sel = { kind: null, from: null };
let hover = { cell: null, rot: 0, turned: false, armed: null, since: 0 };
let kept = null;                 // the piece last shown for a while (or turned): ↻ and ✓ act on it once the mouse leaves the board
let infoRows = {};               // multipv -> parsed info
let infoSearch = null;
let pvShown = null;              // the multipv row the mouse is on: its PV stays drawn as lines update
let boardKey = '';
let infoPosition = '';           // the position the engine lines are about
let lastPointer = 'mouse';       // 'mouse', 'touch' or 'pen': the pointer of the last press
let navCursor = null;            // where ←/→ are heading while the server has not answered yet
let navTimer = null;
let serverSeen = {};             // the server's last seats, variant and time (the selects follow changes only)
let lastEval = null;             // the latest engine score, White's view: { cp, text }
window.punctStale = 0;
window.punctClickToMove = [];    // ms from the press that played a move to it being on screen
let pressAt = 0;                 // performance.now() of the last press on the board or ✓
let pendingMove = null;          // { mv, t }: a move sent, not shown yet
let localMessage = false;        // the message line shows the page's own message (cleared by Esc and a new selection)
let shownCursor = null;          // the cursor the move list was last scrolled to
window.punctInfoLatency = [];    // ms from the engine's line being read to it being on screen
window.punctFirstBoardMs = null; // ms from navigation start to the first board drawn

// ----- server calls -----

window.punctPending = 0;         // requests sent and not answered yet
async function post(path, body) {
  window.punctPending++;
  try {
    const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}) });
    let v = null;
    try { v = await r.json(); } catch (e) { v = { error: 'bad answer from the server' }; }
    if (!r.ok) { showMessage(v.error || ('error ' + r.status), false); return null; }
    render(v);
    return v;
  } catch (e) {
    showMessage('punct-gui does not answer: ' + e, false);
    return null;
  } finally {
    window.punctPending--;
  }
}

function showMessage(text, ok) {
  const m = $('message');
  m.textContent = text || '';
  m.className = 'message' + (ok ? ' ok' : '');
  localMessage = false;
}

// A message of the page itself (not the server's), cleared by Esc and a new selection.
function pageMessage(text) { showMessage(text, false); localMessage = true; }
function clearPageMessage() { if (localMessage) showMessage('', true); }

// A touch screen (no wheel, no keys, no hover): the guidance speaks of taps.
function isTouch() { return lastPointer === 'touch' || window.matchMedia('(pointer: coarse)').matches; }

function guidanceText() {
  return isTouch()
    ? 'Tap a piece in your hand (or one of your pieces on the board), then a green dot: the piece shows there. ↻ Rotate turns it, ✓ Place (or a second tap) plays it. Tap the piece again to let go of it.'
    : 'Pick a piece in your hand or on the board and point at a green dot: the wheel, R or ↻ turns it, a click plays it, Esc lets go. Keys: F flip, U undo, N new game, ←/→ moves.';
}

// The central hexagon: the 19 spaces within distance 2 of i9 (docs/rules.md 1).
function inCentre(cell) {
  const [x, y] = xy(cell);
  const dx = x - 8, dy = y - 8;
  return (Math.sign(dx) * Math.sign(dy) >= 0 ? Math.max(Math.abs(dx), Math.abs(dy)) : Math.abs(dx) + Math.abs(dy)) <= 2;
}

// Why a space has no legal placement for the selection, in words.
function noPlacementWhy(cell) {
  if (sel.kind) {
    const firstWhite = state.side === 'white' && KINDS.every((k) => state.hands.white[k] === { T: 6, S: 4, C: 2, A: 2, L: 2, R: 2 }[k]);
    if (inCentre(cell) && state.variant === 'standard') return cell + ': no drop is allowed in the central hexagon (standard game: no dot of a dropped piece may be there; pieces may move in later)';
    if (inCentre(cell) && firstWhite) return cell + ": White's first drop may not touch the central hexagon (basic game)";
    if (document.querySelector("#board svg .dot[data-cell='" + cell + "']")) return cell + ': a drop goes on empty spaces only';
    return cell + ': no legal placement of a ' + KIND_NAMES[sel.kind] + ' with its PÜNCT here (its three dots must be on empty spaces' + (state.variant === 'standard' ? ' outside the central hexagon' : '') + ')';
  }
  return cell + ': no legal placement of the piece from ' + sel.from + ' with its PÜNCT here';
}

// ----- geometry from the picture -----

function cellsOf(placement) { return placement.match(/[a-q]\d{1,2}/g) || []; }
function xy(name) { return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1]; }
function adjacent(a, b) {
  const [ax, ay] = xy(a), [bx, by] = xy(b);
  const dx = bx - ax, dy = by - ay;
  return (dx === 0 && Math.abs(dy) === 1) || (dy === 0 && Math.abs(dx) === 1) || (dx === dy && Math.abs(dx) === 1);
}
// The dots in the order the bar joins them (docs/rules.md 2: the PÜNCT is the middle of C and A).
function barOrder(cells) {
  const [p, a, b] = cells;
  if (adjacent(p, a) && adjacent(p, b) && adjacent(a, b)) return [p, a, b, p];
  if (adjacent(p, a) && adjacent(p, b)) return [a, p, b];
  return [p, a, b];
}

function svgEl(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function overlay() { return document.querySelector('#board svg #overlay'); }

// A piece drawn over the board: the ghost of a placement, or a move of a PV.
function drawPiece(g, placement, colour, opacity, label, ring) {
  const cells = cellsOf(placement);
  if (cells.length !== 3 || !cells.every((c) => cellPos[c])) return;
  const fill = colour === 'white' ? '#f7f3e8' : '#2b2b2b';
  const stroke = colour === 'white' ? '#3a3a3a' : '#000';
  const pts = barOrder(cells).map((c) => cellPos[c].join(',')).join(' ');
  const grp = svgEl('g', { opacity: opacity, class: 'ghost', 'data-placement': placement, 'pointer-events': 'none' }, g);
  if (ring) {
    // A plain, marked piece (hint, better move): a coloured outline under it.
    svgEl('polyline', { points: pts, fill: 'none', stroke: ring, 'stroke-width': 20, 'stroke-linejoin': 'round', 'stroke-linecap': 'round', 'stroke-opacity': 0.9 }, grp);
    cells.forEach((c) => { const [x, y] = cellPos[c]; svgEl('circle', { cx: x, cy: y, r: 14.5, fill: ring, 'fill-opacity': 0.9 }, grp); });
  }
  svgEl('polyline', { points: pts, fill: 'none', stroke: stroke, 'stroke-width': 12.4, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }, grp);
  svgEl('polyline', { points: pts, fill: 'none', stroke: fill, 'stroke-width': 8.4, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }, grp);
  cells.forEach((c, i) => {
    const [x, y] = cellPos[c];
    svgEl('circle', { cx: x, cy: y, r: 11.2, fill: fill, stroke: stroke, 'stroke-width': 1.5 }, grp);
    if (i === 0) svgEl('circle', { cx: x, cy: y, r: 4.4, fill: '#c0392b' }, grp);
  });
  if (label && ring) {
    // A label on a solid tag above the PÜNCT: readable on any colour.
    const [x, y] = cellPos[cells[0]];
    const w = 9 * label.length + 12;
    svgEl('rect', { x: x - w / 2, y: y - 40, width: w, height: 22, rx: 5, fill: ring, class: 'label-tag' }, grp);
    const t = svgEl('text', { x: x, y: y - 24, 'font-size': 16, 'font-weight': 'bold', fill: '#fff', 'text-anchor': 'middle' }, grp);
    t.textContent = label;
  } else if (label) {
    const [x, y] = cellPos[cells[0]];
    const t = svgEl('text', { x: x, y: y - 13, 'font-size': 13, 'font-weight': 'bold', fill: '#1f5fa8', 'text-anchor': 'middle' }, grp);
    t.textContent = label;
  }
}

function mark(g, cell, colour, r) {
  if (!cellPos[cell]) return;
  const [x, y] = cellPos[cell];
  svgEl('circle', { cx: x, cy: y, r: r || 6, fill: colour, 'fill-opacity': 0.75, 'pointer-events': 'none', class: 'target' }, g);
}

// ----- input -----

function candidates() {
  if (!state || !state.can_move) return [];
  if (sel.kind) return state.legal.drops[sel.kind] || [];
  if (sel.from) return state.legal.shifts[sel.from] || [];
  return [];
}

function hoverCandidates() {
  if (!hover.cell) return [];
  return candidates().filter((p) => cellsOf(p)[0] === hover.cell);
}

function moveText(placement) { return sel.from ? sel.from + '-' + placement : placement; }

function drawOverlay() {
  const g = overlay();
  if (!g) return;
  g.replaceChildren();
  if (!state) return;
  if (sel.from) {
    mark(g, sel.from, '#1f5fa8', 9);
    const seen = new Set();
    for (const p of candidates()) { const c = cellsOf(p)[0]; if (!seen.has(c)) { seen.add(c); mark(g, c, '#2ecc40', 5); } }
  } else if (sel.kind) {
    const seen = new Set();
    for (const p of candidates()) { const c = cellsOf(p)[0]; if (!seen.has(c)) { seen.add(c); mark(g, c, '#2ecc40', 3); } }
  }
  const hc = hoverCandidates();
  const p = currentPlacement();
  const onSelected = selectedCells().includes(hover.cell);
  const touch = isTouch();
  if (p && !(onSelected && !hover.turned)) {
    drawPiece(g, p, state.side, hover.armed ? 0.9 : 0.7);
    const ways = hc.length > 1 ? '  (' + hc.length + ' ways here: ' + (touch ? '↻' : 'wheel, R or ↻') + ' turns it)' : '';
    $('hint').textContent = moveText(p) + ways + (touch || hover.armed || boardLeft ? ': ✓ Place (or a click on its space) plays it' : ': click to play');
  } else if (sel.kind || sel.from) {
    $('hint').textContent = hover.cell && !onSelected ? noPlacementWhy(hover.cell) : (sel.from && onSelected ? (touch ? 'tap the piece again to let go of it; ↻ turns it where it stands' : 'click the piece again to let go of it; R or ↻ turns it where it stands') : (touch ? 'tap a green dot' : 'pick a green dot'));
  } else {
    const h = state.hint;
    const shown = h && h.position === state.position && h.move;
    $('hint').textContent = shown ? 'Hint (' + h.engine + '): ' + h.move + ' ' + h.score + (h.depth ? '/' + h.depth : '') : guidanceText();
  }
  $('btn-rotate').disabled = hc.length < 2 && !(onSelected && hc.length);
  $('btn-place').disabled = !p || (onSelected && !hover.turned);
  const shownPv = pvShown !== null && infoRows[pvShown];
  if (shownPv) { g.replaceChildren(); drawPv(g, shownPv.pv || []); return; }
  drawHint(g);
  drawBetter(g);
}

// The hint (the engine's best move for this position), drawn plainly and not played.
function drawHint(g) {
  const h = state && state.hint;
  if (!h || h.position !== state.position || !h.move || h.move === 'pass') return;
  const parts = h.move.split('-');
  if (parts.length === 2) mark(g, parts[0], '#8e44ad', 9);
  drawPiece(g, parts[parts.length - 1], state.side, 1, 'hint', '#8e44ad');
  g.lastChild.classList.add('hint-piece');
}

function resetHover(cell) { hover = { cell: cell, rot: 0, turned: false, armed: null, since: performance.now() }; }

function selectKind(k) {
  sel = { kind: sel.kind === k ? null : k, from: null };
  resetHover(hover.cell);
  kept = null;
  clearPageMessage();
  renderHands();
  drawOverlay();
}

function cancel() { sel = { kind: null, from: null }; resetHover(hover.cell); kept = null; clearPageMessage(); renderHands(); drawOverlay(); }

// The spaces showing the selected piece (its top dots).
function selectedCells() {
  if (!sel.from || !state) return [];
  return Object.keys(state.legal.movable).filter((c) => state.legal.movable[c] === sel.from);
}

function currentPlacement() {
  const hc = hoverCandidates();
  if (!hc.length) return null;
  return hc[((hover.rot % hc.length) + hc.length) % hc.length];
}

// Plays the ghost's move (asking first when that drops later moves).
function playPlacement(p) {
  const mv = moveText(p);
  if (state && !state.at_end) {
    const later = state.moves.length - state.cursor;
    if (!window.confirm('Play ' + mv + ' here and drop the ' + later + ' later move' + (later > 1 ? 's' : '') + '?')) return;
  }
  cancel();
  pendingMove = { mv: mv, t: pressAt || performance.now() };
  post('/api/move', { move: mv });
}

function flashCell(cell) {
  const g = overlay();
  if (!g || !cellPos[cell]) return;
  const [x, y] = cellPos[cell];
  const c = svgEl('circle', { cx: x, cy: y, r: 14, fill: 'none', stroke: '#c0392b', 'stroke-width': 3, class: 'refused', 'pointer-events': 'none' }, g);
  setTimeout(() => c.remove(), 700);
}

function confirmMoves() { return $('opt-confirm').checked; }

// A finger is wider than a space on a phone: a tap near a green dot (within one space of the
// finger's point) counts for it when the space tapped has no placement of its own.
function snapTap(ev, cell) {
  const root = document.querySelector('#board svg');
  if (!root || !(sel.kind || sel.from) || !cellPos.i9 || !cellPos.i10) return cell;
  const own = candidates().some((p) => cellsOf(p)[0] === cell) || (state.can_move && state.legal.movable[cell]);
  if (own || ev.clientX === undefined) return cell;
  const m = root.getScreenCTM();
  if (!m) return cell;
  const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
  const spacing = Math.hypot(cellPos.i9[0] - cellPos.i10[0], cellPos.i9[1] - cellPos.i10[1]);
  let best = cell, bestD = 0.75 * spacing;
  for (const p of candidates()) {
    const c = cellsOf(p)[0];
    const d = Math.hypot(cellPos[c][0] - pt.x, cellPos[c][1] - pt.y);
    if (d < bestD) { best = c; bestD = d; }
  }
  return best;
}

function onBoardClick(ev) {
  const t = ev.target.closest('[data-cell]');
  if (!t || !state) return;
  const touch = lastPointer !== 'mouse';
  const cell = touch ? snapTap(ev, t.getAttribute('data-cell')) : t.getAttribute('data-cell');
  if (cell !== hover.cell) resetHover(cell);
  const onSelected = selectedCells().includes(cell);
  // A second click on the selected piece lets go of it; turning it in place takes a deliberate
  // turn first (R, the wheel or ↻), then a click or ✓.
  if (onSelected && !(hover.turned && hover.cell === cell)) { cancel(); return; }
  const p = (sel.kind || sel.from) && hover.cell === cell ? currentPlacement() : null;
  if (p) {
    // A tap (or a click with "confirm moves") only shows the piece: ✓ or a second one plays it.
    if ((touch || confirmMoves()) && hover.armed !== cell) { hover.armed = cell; kept = Object.assign({}, hover); drawOverlay(); return; }
    playPlacement(p);
    return;
  }
  const from = state.can_move && state.legal.movable[cell];
  if (from) { sel = { kind: null, from: from }; resetHover(cell); kept = null; clearPageMessage(); renderHands(); drawOverlay(); return; }
  if (sel.kind || sel.from) {
    flashCell(cell);
    pageMessage(noPlacementWhy(cell));
  }
}

// The piece shown under the mouse is pending for ↻ and ✓: it stays when the mouse leaves the
// board (also across the spaces it passes on its way to the buttons), until another space
// shows a piece for a while, Esc, or a placement.
const DWELL_MS = 250;
function deliberate(h) { return h.cell && (h.turned || h.armed || performance.now() - h.since >= DWELL_MS); }

function onBoardMove(ev) {
  if (ev.pointerType && ev.pointerType !== 'mouse') return;
  const t = ev.target.closest('[data-cell]');
  const cell = t ? t.getAttribute('data-cell') : null;
  if (boardLeft) { boardLeft = false; if (cell === hover.cell) drawOverlay(); }
  if (cell === null || cell === hover.cell) return;
  if (currentPlacement() && deliberate(hover)) kept = Object.assign({}, hover);
  resetHover(cell);
  drawOverlay();
}

let boardLeft = false;            // the mouse left the board (the piece shown stays pending)

function onBoardLeave() {
  boardLeft = true;
  if (!(currentPlacement() && deliberate(hover)) && kept) hover = Object.assign({}, kept);
  drawOverlay();
}

function rotate(step) { hover.rot += step; hover.turned = true; drawOverlay(); }

// ----- rendering -----

function colourName(c) { return c === 'white' ? 'White' : 'Black'; }

// A kind in the hand drawn as the piece: three dots joined by a bar, the PÜNCT red.
const DIRS = [[0, 1], [1, 1], [1, 0], [0, -1], [-1, -1], [-1, 0]];
const SHAPES = { // cells of the piece as (x, y) offsets, the PÜNCT first (docs/rules.md 2)
  T: [[0, 0], DIRS[0], DIRS[1]], S: [[0, 0], DIRS[1], [2, 2]], C: [[0, 0], DIRS[1], DIRS[4]],
  A: [[0, 0], DIRS[0], DIRS[2]], L: [[0, 0], DIRS[0], [1, 2]], R: [[0, 0], DIRS[1], [1, 2]],
};
function pieceIcon(kind, colour) {
  const pts = SHAPES[kind].map(([x, y]) => [x * 13, -(y - x / 2) * 15]);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const minX = Math.min(...xs) - 8, minY = Math.min(...ys) - 8;
  const w = Math.max(...xs) - minX + 8, h = Math.max(...ys) - minY + 8;
  const svg = svgEl('svg', { viewBox: minX + ' ' + minY + ' ' + w + ' ' + h, class: 'icon', width: 34, height: 30, 'aria-hidden': 'true' });
  const fill = colour === 'white' ? '#f7f3e8' : '#2b2b2b', stroke = colour === 'white' ? '#3a3a3a' : '#000';
  const [p, a, b] = pts;
  const tri = kind === 'T';
  const order = tri ? [p, a, b, p] : (kind === 'C' || kind === 'A') ? [a, p, b] : [p, a, b];
  const line = order.map((q) => q.join(',')).join(' ');
  svgEl('polyline', { points: line, fill: 'none', stroke: stroke, 'stroke-width': 7, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }, svg);
  svgEl('polyline', { points: line, fill: 'none', stroke: fill, 'stroke-width': 4, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }, svg);
  pts.forEach((q, i) => {
    svgEl('circle', { cx: q[0], cy: q[1], r: 6, fill: fill, stroke: stroke, 'stroke-width': 1 }, svg);
    if (i === 0) svgEl('circle', { cx: q[0], cy: q[1], r: 2.4, fill: '#c0392b' }, svg);
  });
  return svg;
}

// The game's end, whatever the board shows (the server's `game_over`; older servers: the
// outcome of the last position).
function gameOver(s) {
  s = s || state;
  if (!s) return null;
  if (s.game_over !== undefined) return s.game_over;
  return s.at_end ? s.outcome : null;
}

// The side whose turn it is in the game (the board may show an earlier position).
function gameSide(s) { return s.game_side || s.side; }

// Who sits on a side, as the players' blocks say it: "you" for the only human against an engine.
function seatLabel(s, i) {
  const seat = s.seats[i], other = s.seats[1 - i];
  const name = s.names[i];
  if (seat === 'human' && other !== 'human') return { text: 'you', you: true };
  return { text: name, you: false };
}

function renderHands() {
  if (!state) return;
  // The side at the bottom of the board has its block below, also after Flip.
  const bottom = flipped ? 'black' : 'white', top = flipped ? 'white' : 'black';
  $('player-' + top).classList.replace('bottom', 'top');
  $('player-' + bottom).classList.replace('top', 'bottom');
  const over = gameOver();
  for (const side of ['white', 'black']) {
    const i = side === 'white' ? 0 : 1;
    const block = $('player-' + side);
    block.classList.toggle('to-move', !over && gameSide(state) === side);
    const who = seatLabel(state, i);
    const name = block.querySelector('.name');
    name.textContent = who.you ? '(you)' : '(' + who.text + ')';
    name.classList.toggle('you', who.you);
    const played = state.players && state.players[i];
    name.title = played && played !== state.names[i] ? 'played by ' + played : '';
    const el = $('hand-' + side);
    el.replaceChildren();
    const mine = state.can_move && state.side === side;
    for (const k of KINDS) {
      const b = document.createElement('button');
      const n = state.hands[side][k];
      b.appendChild(pieceIcon(k, side));
      const count = document.createElement('span');
      count.className = 'n';
      count.textContent = '×' + n;
      b.appendChild(count);
      b.title = KIND_NAMES[k] + ' (' + k + '): ' + n + ' left';
      b.setAttribute('aria-label', b.title);
      if (!n) b.classList.add('empty');
      b.dataset.kind = k;
      b.disabled = !mine || !(state.legal.drops[k] || []).length;
      if (mine && sel.kind === k) b.classList.add('sel');
      b.onclick = () => selectKind(k);
      el.appendChild(b);
    }
  }
}

function fmtScore(s) {
  if (!s) return '';
  if (s.mate !== undefined) return (s.mate > 0 ? '+M' : '-M') + Math.abs(s.mate);
  if (s.cp !== undefined) return (s.cp >= 0 ? '+' : '') + (s.cp / 100).toFixed(2);
  return '';
}

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  return m + ':' + String(s % 60).padStart(2, '0') + (ms < 10000 ? '.' + Math.floor((ms % 1000) / 100) : '');
}

// Low time: under 10 s, or under a quarter of the base for clocks shorter than 40 s.
function lowTime(ms) { return state.time && state.time.base !== undefined && ms < Math.min(10000, state.time.base / 4); }

function renderClocks() {
  if (!state) return;
  const over = gameOver();
  const legacyRun = state.at_end && !state.outcome && !state.paused && state.moves.length > 0 ? state.side : null;
  const runSide = over || state.paused ? null : (state.clock_running !== undefined ? state.clock_running : legacyRun);
  ['white', 'black'].forEach((side, i) => {
    const el = $('clock-' + side);
    if (!state.clocks) { el.textContent = ''; el.className = 'clock'; return; }
    let ms = state.clocks[i];
    const running = runSide === side;
    if (running) ms -= Date.now() - stateAt;
    el.textContent = fmtClock(ms);
    el.title = colourName(side) + "'s clock";
    const low = lowTime(ms);
    el.className = 'clock' + (running ? ' run' : '') + (low ? ' low' : '');
    if (running && low) lowTimeWarning(side);
  });
}

function seatOptions(select, value) {
  if (select.options.length === state.engines.length + 1 && select.dataset.server === String(value)) return;
  select.dataset.server = String(value);
  select.replaceChildren();
  const add = (v, text) => { const o = document.createElement('option'); o.value = v; o.textContent = text; select.appendChild(o); };
  add('human', 'Human');
  state.engines.forEach((e, i) => add(String(i), e.name));
  select.value = String(value);
}

function renderEngines() {
  for (const id of ['review-engine']) {
    const sel = $(id);
    if (document.activeElement !== sel && sel.options.length !== state.engines.length) {
      sel.replaceChildren();
      state.engines.forEach((e, i) => { const o = document.createElement('option'); o.value = i; o.textContent = e.name; sel.appendChild(o); });
    }
  }
  const box = $('engines');
  box.replaceChildren();
  state.engines.forEach((e, i) => {
    const row = document.createElement('div');
    row.className = 'engine';
    const name = document.createElement('b');
    name.textContent = e.name;
    const st = document.createElement('span');
    st.className = 'st-' + e.state;
    st.textContent = e.state + (e.detail ? ': ' + e.detail : '') + (e.restarts ? ' (restarted by itself after a late answer' + (e.restarts > 1 ? ' ×' + e.restarts : '') + ')' : '');
    name.title = e.name;
    row.append(name, st);
    if (e.state === 'failed' || e.state === 'ready' || e.state === 'thinking') {
      const b = document.createElement('button');
      b.textContent = 'Restart';
      b.className = 'restart';
      b.onclick = () => post('/api/engine/restart', { engine: i });
      row.appendChild(b);
    }
    box.appendChild(row);
  });
  if (!state.engines.length) box.textContent = 'No engine configured (start punct-gui with --engine).';
}

function startPly() { return parseInt(state.start.split(' ')[2], 10) || 0; }

// The move list as players number it: "1. White Black", "1… Black" from a Black start; the
// review's marks and evaluations; it scrolls inside its own box, never the page.
function renderMoves() {
  const box = $('moves');
  box.replaceChildren();
  const sp = startPly();
  let row = null;
  state.moves.forEach((m, i) => {
    const ply = sp + i;
    if (ply % 2 === 0 || row === null) {
      row = document.createElement('div');
      row.className = 'mrow';
      row.setAttribute('role', 'listitem');
      const no = document.createElement('span');
      no.className = 'no';
      no.textContent = (Math.floor(ply / 2) + 1) + (ply % 2 ? '…' : '.');
      row.appendChild(no);
      if (ply % 2) row.appendChild(document.createElement('span'));
      box.appendChild(row);
    }
    const s = document.createElement('span');
    s.textContent = m;
    s.dataset.ply = i + 1;
    if (i + 1 === state.cursor) s.className = 'cur';
    const mk = markOf(i);
    const after = evalAt(i + 1), before = evalAt(i);
    if (mk) {
      s.classList.add(mk.class);
      s.textContent = m + MARK_GLYPH[mk.class];
      const better = mk.better ? '; better ' + mk.better + (before ? ' (' + before.text + ')' : '') : '';
      s.title = mk.class + ': win chance −' + Math.round(mk.drop * 100) + '%' + better;
    } else if (after) {
      s.title = after.text;
    }
    s.onclick = () => goTo(i + 1);
    row.appendChild(s);
  });
  const cur = box.querySelector('.cur');
  if (cur && shownCursor !== state.cursor + ':' + state.moves.length) {
    // Scroll the list's own box (scrollIntoView would scroll the page too).
    const top = cur.offsetTop - box.offsetTop, bottom = top + cur.offsetHeight;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
  }
  shownCursor = state.cursor + ':' + state.moves.length;
  // Numbered as the list is: plies from the game's start position.
  $('ply').textContent = 'ply ' + (sp + state.cursor) + ' of ' + (sp + state.moves.length);
}

function render(s) {
  // Every state carries the server's boot id and a version; an older one (a POST's answer
  // overtaken by the event stream) never replaces a newer one.
  if (state && s.boot === state.boot && s.version < state.version) { window.punctStale++; return; }
  if (navCursor !== null && s.cursor === navCursor) navCursor = null;
  if (pendingMove && s.moves.includes(pendingMove.mv)) {
    const t = pendingMove.t;
    pendingMove = null;
    requestAnimationFrame(() => { window.punctClickToMove.push(performance.now() - t); });
  }
  state = s;
  stateAt = Date.now();
  autoFlip(s);
  const key = s.version + (flipped ? 'f' : '');
  const svg = flipped ? s.svg_flipped : s.svg;
  if (key !== boardKey) {
    boardKey = key;
    const b = $('board');
    b.innerHTML = svg;
    const root = b.querySelector('svg');
    cellPos = {};
    for (const c of root.querySelectorAll('.cell')) cellPos[c.dataset.cell] = [parseFloat(c.dataset.cx), parseFloat(c.dataset.cy)];
    svgEl('g', { id: 'overlay' }, root);
    // The board's proportions for the CSS that sizes it to the window (width and height).
    const vb = root.viewBox.baseVal;
    if (vb && vb.height) b.style.setProperty('--aspect', (vb.width / vb.height).toFixed(4));
    root.removeAttribute('width');
    root.removeAttribute('height');
    if (window.punctFirstBoardMs === null) window.punctFirstBoardMs = performance.now();
  }
  if (!s.can_move) sel = { kind: null, from: null };
  else if (sel.kind && !(s.legal.drops[sel.kind] || []).length) sel.kind = null;
  else if (sel.from && !s.legal.shifts[sel.from]) sel.from = null;
  // Status line: whose move it is in the game, or how it ended, in full.
  const st = $('status');
  const text = $('status-text');
  const over = gameOver(s);
  if (over) {
    text.textContent = 'Game over: ' + over.text + (over.result ? ' (' + over.result + ')' : '') + (s.at_end ? '' : ' — browsing move ' + s.cursor);
    st.className = 'over';
  } else {
    const gs = gameSide(s);
    const seat = s.seats[gs === 'white' ? 0 : 1];
    const who = seat === 'human' ? (seatLabel(s, gs === 'white' ? 0 : 1).you ? 'your move' : 'human') : (s.engines[seat] ? s.engines[seat].name + ' to play' : 'engine');
    text.textContent = s.at_end
      ? colourName(s.side) + ' to move (' + who + (s.paused ? ', paused' : '') + ')'
      : colourName(s.side) + ' to move on the board shown (move ' + s.cursor + '); the game goes on: ' + colourName(gs) + ' to move (' + who + (s.paused ? ', paused' : '') + ')';
    st.className = '';
  }
  st.dataset.outcome = over ? over.reason : '';
  // The server's message when it changes (a message of the page stays until then); the
  // review's "reviewing…" goes when the review is over.
  const stale = /^reviewing/.test(s.message) && !(s.review && s.review.running);
  if (serverSeen.message !== s.message || serverSeen.messageStale !== stale) {
    serverSeen.message = s.message;
    serverSeen.messageStale = stale;
    showMessage(stale ? '' : s.message, !/illegal|error|cannot|not|failed|no |refused/i.test(s.message));
  }
  // The centre count of the board shown (not after a game lost on time or by resignation).
  const centreMatters = !over || over.reason === 'centre_count' || over.reason === 'connection';
  $('centre').textContent = centreMatters ? 'Centre: White ' + s.centre[0] + ' – Black ' + s.centre[1] : '';
  renderActions(s);
  renderGameOver(s);
  yourMove(s);
  $('btn-pass').disabled = !(s.can_move && s.legal.pass);
  $('btn-pause').textContent = s.paused ? 'Resume' : 'Pause';
  $('pos-text').value = s.position;
  $('moves-text').value = s.moves.join(' ');
  seatOptions($('seat-white'), s.seats[0]);
  seatOptions($('seat-black'), s.seats[1]);
  // The variant and time fields follow the server only when its values change (a choice made
  // on the page for the next game stays).
  if (serverSeen.variant !== s.variant) { serverSeen.variant = s.variant; $('variant').value = s.variant; }
  const tkey = JSON.stringify(s.time);
  if (serverSeen.time !== tkey) {
    serverSeen.time = tkey;
    // A field being typed in never changes under the cursor.
    const put = (id, v) => { if (document.activeElement !== $(id)) $(id).value = v; };
    if (s.time.movetime !== undefined) { put('time-mode', 'movetime'); put('movetime', s.time.movetime / 1000); }
    else { put('time-mode', 'clock'); put('clock-base', s.time.base / 1000); put('clock-inc', s.time.inc / 1000); }
    timeLabels();
  }
  $('btn-playfrom').disabled = !!(over && s.at_end);
  const anaSel = $('ana-engine');
  if (document.activeElement !== anaSel) {
    anaSel.replaceChildren();
    s.engines.forEach((e, i) => { const o = document.createElement('option'); o.value = i; o.textContent = e.name; anaSel.appendChild(o); });
    anaSel.value = String(s.analysis.engine);
  }
  const eng = s.engines[s.analysis.engine];
  $('ana-multipv').max = eng && eng.multipv_max ? eng.multipv_max : 1;
  $('btn-analyse').textContent = s.analysis.on ? 'Stop analysis' : 'Analyse';
  if (s.analysis.on && document.activeElement !== $('ana-multipv')) $('ana-multipv').value = s.analysis.multipv;
  if (s.position !== infoPosition) {
    // Lines about another position would mislead.
    infoPosition = s.position;
    infoRows = {};
    lastEval = null;
    document.querySelector('#info tbody').replaceChildren();
    $('info-source').textContent = '';
  }
  const h = s.hint;
  $('btn-hint').textContent = h && h.pending && h.position === s.position ? 'Hint…' : 'Hint';
  if (h && h.position === s.position && h.error) showMessage('hint: ' + h.error, false);
  renderReview();
  renderEvalBar();
  renderHands();
  renderClocks();
  renderEngines();
  renderMoves();
  drawOverlay();
}

function renderInfo(info) {
  const t0 = performance.now();
  if (state && info.cursor !== state.cursor) return;
  if (info.search !== infoSearch) { infoSearch = info.search; infoRows = {}; }
  if (info.string !== undefined && info.pv === undefined) return;
  const k = info.multipv || 1;
  const prev = infoRows[k] || {};
  infoRows[k] = Object.assign({}, prev, info);
  const body = document.querySelector('#info tbody');
  body.replaceChildren();
  Object.keys(infoRows).sort((a, b) => a - b).forEach((key) => {
    const r = infoRows[key];
    const tr = document.createElement('tr');
    const pv = (r.pv || []).join(' ');
    const white = whiteScore(r.score);
    for (const v of [key, (r.depth || '') + (r.seldepth ? '/' + r.seldepth : ''), fmtScore(white), r.nodes || '', r.nps || '', pv]) {
      const td = document.createElement('td');
      td.textContent = v;
      tr.appendChild(td);
    }
    tr.dataset.key = key;
    tr.lastChild.className = 'pv';
    body.appendChild(tr);
  });
  // The rows were rebuilt under the mouse: redraw the hovered line's PV from its new text.
  if (pvShown !== null) drawOverlay();
  $('info-source').textContent = info.engine_name + (info.purpose === 'analysis' ? ' analysing' : ' thinking about its move') + '; scores are for White';
  const best = infoRows[1] || infoRows[Object.keys(infoRows)[0]];
  const ws = best && whiteScore(best.score);
  if (ws) { lastEval = { cp: ws.mate !== undefined ? (ws.mate > 0 ? 10000 : -10000) : ws.cp, text: fmtScore(ws) }; renderEvalBar(); }
  // The line is on screen once this frame is painted; measure to then.
  requestAnimationFrame(() => {
    const lat = Date.now() - info.read_ms;
    window.punctInfoLatency.push({ ms: lat, render_ms: performance.now() - t0 });
    if (window.punctInfoLatency.length > 1000) window.punctInfoLatency.shift();
  });
}

// An engine's score (its own, i.e. the side to move's, view) turned to White's view.
function whiteScore(sc) {
  if (!sc || !state) return sc;
  const k = state.side === 'white' ? 1 : -1;
  if (sc.mate !== undefined) return { mate: sc.mate * k };
  if (sc.cp !== undefined) return { cp: sc.cp * k };
  return sc;
}

function winChance(cp) { return 1 / (1 + Math.exp(-0.00368208 * cp)); }

// The PV drawn on the board: each move's piece numbered, sides alternating.
// The first moves of a PV, numbered, on the overlay.
function drawPv(g, pv) {
  let colour = state.side;
  pv.slice(0, 8).forEach((m, i) => {
    if (m !== 'pass') {
      const parts = m.split('-');
      const placement = parts[parts.length - 1];
      if (parts.length === 2) mark(g, parts[0], colour === 'white' ? '#ddd' : '#444', 7);
      drawPiece(g, placement, colour, 0.75, String(i + 1));
    }
    colour = colour === 'white' ? 'black' : 'white';
  });
}

// ----- controls -----

// One ply back or forward from where the last ←/→ was heading (quick presses add up).
function step(d) {
  const base = navCursor !== null ? navCursor : state.cursor;
  goTo(Math.max(0, Math.min(state.moves.length, base + d)));
}

// Every jump in the game goes here. Only one goto is in flight at a time and the latest target
// is sent when it returns: two requests on two connections could reach the server out of order.
function goTo(ply) {
  navCursor = ply;
  clearTimeout(navTimer);
  navTimer = setTimeout(() => { navCursor = null; }, 2000);
  sendNav();
}
let navSending = false;
async function sendNav() {
  if (navSending) return;
  navSending = true;
  try {
    let sent = null;
    while (navCursor !== null && navCursor !== sent) {
      sent = navCursor;
      await post('/api/goto', { ply: sent });
    }
  } finally {
    navSending = false;
  }
}

function timeLabels() { const c = $('time-mode').value === 'clock'; $('lbl-clock').hidden = !c; $('lbl-movetime').hidden = c; }

// The time fields as the API wants them, or null (and a message in words) when a field is
// empty or not a number.
function timeSetting() {
  const num = (id) => { const v = $(id).value.trim(); return v === '' ? NaN : Number(v); };
  if ($('time-mode').value === 'clock') {
    const base = num('clock-base'), inc = $('clock-inc').value.trim() === '' ? 0 : num('clock-inc');
    if (!(base >= 0.1)) { pageMessage("Time: write each side's time in seconds in the first field (0.1 or more, e.g. 300 for 5 minutes)"); return null; }
    if (!(inc >= 0)) { pageMessage('Time: the increment is seconds added after each move (0 or more, e.g. 2)'); return null; }
    return { base: Math.round(base * 1000), inc: Math.round(inc * 1000) };
  }
  const mt = num('movetime');
  if (!(mt >= 0.01)) { pageMessage('Time: write the seconds an engine has for each move (e.g. 1 or 0.5)'); return null; }
  return { movetime: Math.round(mt * 1000) };
}
function seatValue(v) { return v === 'human' ? 'human' : parseInt(v, 10); }

function setup() {
  const board = $('board');
  board.addEventListener('pointerdown', (ev) => { lastPointer = ev.pointerType || 'mouse'; pressAt = performance.now(); });
  $('btn-place').addEventListener('pointerdown', () => { pressAt = performance.now(); });
  // A touch acts on the lifted finger (and the click the browser may add after it is ignored).
  let touchUp = 0;
  board.addEventListener('pointerup', (ev) => { if (ev.pointerType !== 'mouse') { touchUp = Date.now(); onBoardClick(ev); } });
  board.addEventListener('click', (ev) => { if (Date.now() - touchUp > 700) { lastPointer = 'mouse'; onBoardClick(ev); } });
  board.addEventListener('pointermove', onBoardMove);
  board.addEventListener('pointerleave', (ev) => { if (ev.pointerType === 'mouse') onBoardLeave(); });
  // PV hover on the tbody, which stays while its rows are rebuilt with every info line.
  const infoBody = document.querySelector('#info tbody');
  infoBody.addEventListener('mouseover', (ev) => {
    if (lastPointer === 'touch') return;
    const td = ev.target.closest('td.pv');
    const key = td ? td.parentElement.dataset.key : null;
    if (key !== pvShown) { pvShown = key; drawOverlay(); }
  });
  infoBody.addEventListener('mouseleave', () => { pvShown = null; drawOverlay(); });
  // On a touch screen a tap on a line shows its PV (and a second tap hides it).
  infoBody.addEventListener('click', (ev) => {
    const td = ev.target.closest('td.pv');
    if (!td || ev.pointerType === 'mouse') return;
    const key = td.parentElement.dataset.key;
    pvShown = pvShown === key ? null : key;
    drawOverlay();
  });
  if (isTouch()) document.querySelector('#info th:last-child').textContent = 'PV (tap to see it)';
  board.addEventListener('wheel', (ev) => { if (sel.kind || sel.from) { ev.preventDefault(); rotate(ev.deltaY > 0 ? 1 : -1); } }, { passive: false });
  document.addEventListener('keydown', (ev) => {
    if (ev.target.tagName === 'INPUT' || ev.target.tagName === 'TEXTAREA' || ev.target.tagName === 'SELECT') return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'r' || ev.key === 'R') rotate(ev.shiftKey ? -1 : 1);
    else if (ev.key === 'Escape') { if (!closeGameOver()) cancel(); }
    else if (ev.key === 'ArrowLeft' && state) step(-1);
    else if (ev.key === 'ArrowRight' && state) step(1);
    else if (ev.key === 'f' || ev.key === 'F') $('btn-flip').click();
    else if ((ev.key === 'u' || ev.key === 'U') && !$('btn-undo').disabled) $('btn-undo').click();
    else if (ev.key === 'n' || ev.key === 'N') newGame(true);
  });
  $('btn-new').onclick = newGame;
  // Seats and time apply at once (an engine seated on the side to move starts thinking).
  const setupNow = () => { const t = timeSetting(); if (t) post('/api/setup', { white: seatValue($('seat-white').value), black: seatValue($('seat-black').value), time: t }); };
  $('seat-white').onchange = setupNow;
  $('seat-black').onchange = setupNow;
  $('movetime').onchange = setupNow;
  $('clock-base').onchange = setupNow;
  $('clock-inc').onchange = setupNow;
  $('btn-playfrom').onclick = () => {
    if (!state) return;
    const later = state.moves.length - state.cursor;
    const t = timeSetting();
    if (!t) return;
    if (later > 0 && !window.confirm('Play on from here and drop the ' + later + ' later move' + (later > 1 ? 's' : '') + '?')) return;
    post('/api/playfrom', { ply: state.cursor, white: seatValue($('seat-white').value), black: seatValue($('seat-black').value), time: t });
  };
  $('btn-hint').onclick = () => state && post('/api/hint', { engine: parseInt($('ana-engine').value, 10) || 0, movetime: 1000 });
  $('btn-rotate').onclick = () => rotate(1);
  $('btn-place').onclick = () => { const p = currentPlacement(); if (p) playPlacement(p); };
  $('btn-review').onclick = () => {
    if (!state) return;
    if (state.review && state.review.running) { post('/api/review', { on: false }); return; }
    post('/api/review', { engine: parseInt($('review-engine').value, 10) || 0, movetime: Math.round(parseFloat($('review-time').value) * 1000) || 500 });
  };
  $('graph').addEventListener('click', (ev) => { const t = ev.target.closest('[data-ply]'); if (t) goTo(parseInt(t.dataset.ply, 10)); });
  $('opt-evalbar').checked = localStorage.getItem('punct-evalbar') !== '0';
  $('opt-evalbar').onchange = () => { localStorage.setItem('punct-evalbar', $('opt-evalbar').checked ? '1' : '0'); renderEvalBar(); };
  $('btn-undo').onclick = () => post('/api/undo');
  $('btn-pass').onclick = () => post('/api/move', { move: 'pass' });
  $('btn-flip').onclick = () => setFlipped(!flipped);
  $('btn-pause').onclick = () => state && post('/api/pause', { paused: !state.paused });
  $('nav-first').onclick = () => state && goTo(0);
  $('nav-prev').onclick = () => state && step(-1);
  $('nav-next').onclick = () => state && step(1);
  $('nav-last').onclick = () => state && goTo(state.moves.length);
  $('time-mode').onchange = () => { timeLabels(); setupNow(); };
  $('btn-analyse').onclick = () => state && post('/api/analysis', { on: !state.analysis.on, engine: parseInt($('ana-engine').value, 10) || 0, multipv: parseInt($('ana-multipv').value, 10) || 1 });
  const copy = (id) => { const v = $(id).value; if (navigator.clipboard) navigator.clipboard.writeText(v).then(() => showMessage('copied', true), () => { $(id).select(); }); else $(id).select(); };
  $('copy-pos').onclick = () => copy('pos-text');
  $('copy-moves').onclick = () => copy('moves-text');
  $('btn-load').onclick = () => post('/api/load', { text: $('paste').value });
  $('pgn-file').onchange = (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    f.text().then((t) => post('/api/load', { text: t }));
  };
  $('btn-results').onclick = async () => {
    const r = await fetch('/api/results');
    const v = await r.json();
    const fs = $('results-file');
    fs.replaceChildren();
    v.files.forEach((f) => { const o = document.createElement('option'); o.value = f.file; o.textContent = f.file + ' (' + f.games.length + ')'; fs.appendChild(o); });
    const fill = () => {
      const f = v.files.find((x) => x.file === fs.value);
      const gs = $('results-game');
      gs.replaceChildren();
      (f ? f.games : []).forEach((g) => { const o = document.createElement('option'); o.value = g.index; o.textContent = '#' + (g.number || g.index + 1) + ' ' + g.white + ' - ' + g.black + ' ' + (g.result || '') + ' (' + g.plies + ')'; gs.appendChild(o); });
    };
    fs.onchange = fill;
    fill();
    $('results').hidden = !v.files.length;
    if (!v.files.length) pageMessage(v.hint || ('no PGN files in ' + v.dir + ' (start punct-gui with --results DIR)'));
  };
  setupExtras();
  $('btn-results-load').onclick = () => {
    if (!$('results-file').value) { showMessage('no results file chosen', false); return; }
    post('/api/results/load', { file: $('results-file').value, index: parseInt($('results-game').value, 10) || 0 });
  };
  setInterval(renderClocks, 200);
  connect();
}

function connect() {
  const es = new EventSource('/api/events');
  es.addEventListener('state', (ev) => render(JSON.parse(ev.data)));
  es.addEventListener('info', (ev) => renderInfo(JSON.parse(ev.data)));
  es.onerror = () => { $('status-text').textContent = 'connection to punct-gui lost; retrying…'; };
}

