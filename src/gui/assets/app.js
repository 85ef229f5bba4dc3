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
let hover = { cell: null, rot: 0, turned: false, armed: null };
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
let pendingMove = null;          // { mv, t }: a move sent, not shown yet           // states dropped for being older than the one shown
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
}

const HINT_TEXT = 'Pick a piece from your hand (or click one of your pieces on the board), move over the board to see where it can go, turn it with the mouse wheel, R or ↻, click to place it (on a touch screen: tap a green dot, ↻ to turn, ✓ to place). Esc cancels.';

// ----- geometry from the picture -----

function cellsOf(placement) { return placement.match(/[a-q]\d{1,2}/g) || []; }
function xy(name) { return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1]; }
function adjacent(a, b) {
  const [ax, ay] = xy(a), [bx, by] = xy(b);
  const dx = bx - ax, dy = by - ay;
  return (dx === 0 && Math.abs(dy) === 1) || (dy === 0 && Math.abs(dx) === 1) || (dx === dy && Math.abs(dx) === 1);
}
// The dots in the order the bar joins them (RULES.md 2: the PÜNCT is the middle of C and A).
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
function drawPiece(g, placement, colour, opacity, label) {
  const cells = cellsOf(placement);
  if (cells.length !== 3 || !cells.every((c) => cellPos[c])) return;
  const fill = colour === 'white' ? '#f7f3e8' : '#2b2b2b';
  const stroke = colour === 'white' ? '#3a3a3a' : '#000';
  const pts = barOrder(cells).map((c) => cellPos[c].join(',')).join(' ');
  const grp = svgEl('g', { opacity: opacity, class: 'ghost', 'data-placement': placement, 'pointer-events': 'none' }, g);
  svgEl('polyline', { points: pts, fill: 'none', stroke: stroke, 'stroke-width': 12.4, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }, grp);
  svgEl('polyline', { points: pts, fill: 'none', stroke: fill, 'stroke-width': 8.4, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }, grp);
  cells.forEach((c, i) => {
    const [x, y] = cellPos[c];
    svgEl('circle', { cx: x, cy: y, r: 11.2, fill: fill, stroke: stroke, 'stroke-width': 1.5 }, grp);
    if (i === 0) svgEl('circle', { cx: x, cy: y, r: 4.4, fill: '#c0392b' }, grp);
  });
  if (label) {
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
  if (p && !(onSelected && !hover.turned)) {
    drawPiece(g, p, state.side, 0.7);
    $('hint').textContent = moveText(p) + (hc.length > 1 ? '  (' + hc.length + ' ways here: wheel, R or ↻ turns it)' : '') + (lastPointer === 'mouse' ? ': click to play' : ': ✓ to place');
  } else if (sel.kind || sel.from) {
    $('hint').textContent = hover.cell && !onSelected ? hover.cell + ': no legal placement here' : (sel.from && onSelected ? 'click the piece again to let go of it; R or ↻ turns it where it stands' : 'pick a green dot');
  } else {
    const h = state.hint;
    const shown = h && h.position === state.position && h.move;
    $('hint').textContent = shown ? 'Hint (' + h.engine + '): ' + h.move + ' ' + h.score + (h.depth ? '/' + h.depth : '') : (state.review && state.review.current ? '' : HINT_TEXT);
  }
  $('btn-rotate').disabled = hc.length < 2 && !(onSelected && hc.length);
  $('btn-place').disabled = !p || (onSelected && !hover.turned);
  const shownPv = pvShown !== null && infoRows[pvShown];
  if (shownPv) { g.replaceChildren(); drawPv(g, shownPv.pv || []); return; }
  drawHint(g);
}

// The hint (the engine's best move for this position), drawn and not played.
function drawHint(g) {
  const h = state && state.hint;
  if (!h || h.position !== state.position || !h.move || h.move === 'pass') return;
  const parts = h.move.split('-');
  if (parts.length === 2) mark(g, parts[0], '#8e44ad', 8);
  drawPiece(g, parts[parts.length - 1], state.side, 0.55, 'hint');
  g.lastChild.classList.add('hint-piece');
}

function selectKind(k) {
  sel = { kind: sel.kind === k ? null : k, from: null };
  hover.rot = 0;
  hover.turned = false;
  renderHands();
  drawOverlay();
}

function cancel() { sel = { kind: null, from: null }; hover.turned = false; hover.armed = null; renderHands(); drawOverlay(); }

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

function onBoardClick(ev) {
  const t = ev.target.closest('[data-cell]');
  if (!t || !state) return;
  const cell = t.getAttribute('data-cell');
  const touch = lastPointer !== 'mouse';
  if (touch && cell !== hover.cell) { hover.cell = cell; hover.rot = 0; hover.turned = false; }
  const onSelected = selectedCells().includes(cell);
  // A second click on the selected piece lets go of it; turning it in place takes a deliberate
  // turn first (R, the wheel or ↻), then a click or ✓.
  if (onSelected && !(hover.turned && hover.cell === cell)) { cancel(); return; }
  const p = (sel.kind || sel.from) && hover.cell === cell ? currentPlacement() : null;
  if (p) {
    // A tap only shows the ghost: ✓ (or a second tap) places it.
    if (touch && !(hover.armed === cell)) { hover.armed = cell; drawOverlay(); return; }
    playPlacement(p);
    return;
  }
  const from = state.can_move && state.legal.movable[cell];
  if (from) { sel = { kind: null, from: from }; hover.rot = 0; hover.turned = false; renderHands(); drawOverlay(); return; }
  if (sel.kind || sel.from) {
    flashCell(cell);
    const what = sel.kind ? 'a ' + KIND_NAMES[sel.kind] : 'the piece from ' + sel.from;
    showMessage(cell + ': no legal placement of ' + what + ' with its PÜNCT here', false);
  }
}

function onBoardMove(ev) {
  if (ev.pointerType && ev.pointerType !== 'mouse') return;
  const t = ev.target.closest('[data-cell]');
  const cell = t ? t.getAttribute('data-cell') : null;
  if (cell !== hover.cell) { hover.cell = cell; hover.rot = 0; hover.turned = false; hover.armed = null; drawOverlay(); }
}

function rotate(step) { hover.rot += step; hover.turned = true; drawOverlay(); }

// ----- rendering -----

function colourName(c) { return c === 'white' ? 'White' : 'Black'; }

// A kind in the hand drawn as the piece: three dots joined by a bar, the PÜNCT red.
const DIRS = [[0, 1], [1, 1], [1, 0], [0, -1], [-1, -1], [-1, 0]];
const SHAPES = { // cells of the piece as (x, y) offsets, the PÜNCT first (RULES.md 2)
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

function renderHands() {
  if (!state) return;
  // The hand of the side at the bottom of the board is below it.
  const board = $('board-row');
  const bottom = flipped ? 'black' : 'white', top = flipped ? 'white' : 'black';
  if (board.previousElementSibling !== $('hand-' + top)) board.before($('hand-' + top));
  if (board.nextElementSibling !== $('hand-' + bottom)) board.after($('hand-' + bottom));
  for (const side of ['white', 'black']) {
    const el = $('hand-' + side);
    el.replaceChildren();
    el.classList.toggle('to-move', !state.outcome && state.side === side);
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = colourName(side) + ' (' + state.names[side === 'white' ? 0 : 1] + ')';
    el.appendChild(who);
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

function renderClocks() {
  if (!state) return;
  const run = state.at_end && !state.outcome && !state.paused && state.moves.length > 0;
  ['white', 'black'].forEach((side, i) => {
    const el = $('clock-' + side);
    if (!state.clocks) { el.textContent = ''; el.className = 'clock'; return; }
    let ms = state.clocks[i];
    const running = run && state.side === side;
    if (running) ms -= Date.now() - stateAt;
    el.textContent = colourName(side) + ' ' + fmtClock(ms);
    el.className = 'clock' + (running ? ' run' : '');
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

function renderMoves() {
  const ol = $('moves');
  ol.replaceChildren();
  const startPly = parseInt(state.start.split(' ')[2], 10) || 0;
  const rv = state.review && state.review.current ? state.review : null;
  state.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.value = startPly + i + 1;
    const s = document.createElement('span');
    s.textContent = m;
    s.dataset.ply = i + 1;
    if (i + 1 === state.cursor) s.className = 'cur';
    const mk = rv && rv.marks[i];
    if (mk && mk.class) {
      s.classList.add(mk.class);
      const glyph = { inaccuracy: '?!', mistake: '?', blunder: '??' }[mk.class];
      s.textContent = m + glyph;
      const better = mk.better ? '; better ' + mk.better + (rv.evals[i] ? ' (' + rv.evals[i].text + ')' : '') : '';
      s.title = mk.class + ': win chance −' + Math.round(mk.drop * 100) + '%' + better;
    } else if (rv && rv.evals[i + 1]) {
      s.title = rv.evals[i + 1].text;
    }
    s.onclick = () => goTo(i + 1);
    li.appendChild(s);
    ol.appendChild(li);
  });
  const cur = ol.querySelector('.cur');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  // Numbered as the list is: plies from the game's start position.
  $('ply').textContent = 'ply ' + (startPly + state.cursor) + ' of ' + (startPly + state.moves.length);
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
    if (window.punctFirstBoardMs === null) window.punctFirstBoardMs = performance.now();
  }
  if (!s.can_move) sel = { kind: null, from: null };
  else if (sel.kind && !(s.legal.drops[sel.kind] || []).length) sel.kind = null;
  else if (sel.from && !s.legal.shifts[sel.from]) sel.from = null;
  // Status line.
  const st = $('status');
  const text = $('status-text');
  if (s.outcome) {
    const [w, b] = s.centre;
    text.textContent = 'Game over: ' + s.outcome.text + (s.outcome.reason === 'connection' ? ' (path: ' + s.outcome.path.join(' ') + ')' : '') + '. Centre: White ' + w + ', Black ' + b + '.';
    st.className = 'over';
  } else {
    const seat = s.seats[s.side === 'white' ? 0 : 1];
    const who = seat === 'human' ? 'your move' : (s.engines[seat] ? s.engines[seat].name + ' to play' : 'engine');
    text.textContent = colourName(s.side) + ' to move (' + who + (s.paused ? ', paused' : '') + ')' + (s.at_end ? '' : ' — browsing move ' + s.cursor);
    st.className = '';
  }
  st.dataset.outcome = s.outcome ? s.outcome.reason : '';
  showMessage(s.message, !/illegal|error|cannot|not|failed|no /i.test(s.message));
  $('centre').textContent = 'Centre: White ' + s.centre[0] + ' – Black ' + s.centre[1];
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
    if (s.time.movetime !== undefined) { $('time-mode').value = 'movetime'; $('movetime').value = s.time.movetime / 1000; }
    else { $('time-mode').value = 'clock'; $('clock-base').value = s.time.base / 1000; $('clock-inc').value = s.time.inc / 1000; }
    timeLabels();
  }
  $('btn-playfrom').disabled = !!(s.outcome && s.at_end);
  const anaSel = $('ana-engine');
  if (document.activeElement !== anaSel) {
    anaSel.replaceChildren();
    s.engines.forEach((e, i) => { const o = document.createElement('option'); o.value = i; o.textContent = e.name; anaSel.appendChild(o); });
    anaSel.value = String(s.analysis.engine);
  }
  const eng = s.engines[s.analysis.engine];
  $('ana-multipv').max = eng && eng.multipv_max ? eng.multipv_max : 1;
  $('btn-analyse').textContent = s.analysis.on ? 'Stop analysis' : 'Analyse';
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

// The evaluation bar beside the board: White's share from below (review, analysis or the
// engine thinking about its move).
function renderEvalBar() {
  const bar = $('evalbar');
  if (!state) return;
  let ev = null;
  const rv = state.review && state.review.current ? state.review : null;
  if (rv && rv.evals[state.cursor]) ev = rv.evals[state.cursor];
  else if (lastEval) ev = lastEval;
  const on = $('opt-evalbar').checked && ev !== null;
  bar.hidden = !on;
  if (!on) return;
  const w = winChance(ev.cp);
  const fill = $('evalbar-white');
  fill.style.height = (w * 100).toFixed(1) + '%';
  bar.classList.toggle('flipped', flipped);
  $('evalbar-text').textContent = ev.text;
  bar.title = 'evaluation for White: ' + ev.text;
}

// ----- game review -----

function renderReview() {
  const rv = state.review;
  const g = $('graph');
  const info = $('review-info');
  $('btn-review').textContent = rv && rv.running ? 'Stop review' : 'Review game';
  if (!rv) { g.hidden = true; info.textContent = ''; document.body.classList.remove('has-graph'); return; }
  const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
  rv.marks.forEach((m) => { if (m.class) counts[m.class]++; });
  info.textContent = (rv.running ? 'reviewing: ' : 'reviewed: ') + rv.done + ' of ' + rv.total + ' positions by ' + rv.engine +
    ' (' + rv.movetime / 1000 + ' s each)' + (rv.error ? '; ' + rv.error : '') + (rv.current ? '' : ' — an earlier game') +
    '. Inaccuracies ' + counts.inaccuracy + ', mistakes ' + counts.mistake + ', blunders ' + counts.blunder + '.';
  if (!rv.current || !rv.evals.length) { g.hidden = true; document.body.classList.remove('has-graph'); return; }
  g.hidden = false;
  document.body.classList.add('has-graph');
  drawGraph(g, rv);
}

function drawGraph(svg, rv) {
  svg.replaceChildren();
  const W = 600, H = 90, n = Math.max(rv.total - 1, 1);
  const X = (i) => 4 + (W - 8) * i / n, Y = (cp) => 4 + (H - 8) * (1 - winChance(cp));
  svgEl('rect', { x: 0, y: 0, width: W, height: H, fill: '#3b3b3b' }, svg);
  const pts = rv.evals.map((e, i) => X(i).toFixed(1) + ',' + Y(e.cp).toFixed(1));
  const last = rv.evals.length - 1;
  svgEl('polygon', { points: X(0).toFixed(1) + ',' + H + ' ' + pts.join(' ') + ' ' + X(last).toFixed(1) + ',' + H, fill: '#f4efe2' }, svg);
  svgEl('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: '#999', 'stroke-dasharray': '3 3' }, svg);
  svgEl('line', { x1: X(state.cursor), x2: X(state.cursor), y1: 0, y2: H, stroke: '#1f5fa8', 'stroke-width': 2, class: 'graph-cursor' }, svg);
  const colours = { inaccuracy: '#e6b800', mistake: '#e67e22', blunder: '#c0392b' };
  rv.evals.forEach((e, i) => {
    const mk = i > 0 ? rv.marks[i - 1] : null;
    const c = svgEl('circle', { cx: X(i), cy: Y(e.cp), r: mk && mk.class ? 4.5 : 3, fill: mk && mk.class ? colours[mk.class] : '#1f5fa8', class: 'pt', 'data-ply': i }, svg);
    const t = svgEl('title', {}, c);
    t.textContent = 'ply ' + i + ': ' + e.text + (mk && mk.class ? ' (' + mk.class + ')' : '');
    // A wide invisible target per point, so that a click anywhere near it jumps there.
    const hit = svgEl('rect', { x: X(i) - (W / n) / 2, y: 0, width: W / n, height: H, fill: 'transparent', class: 'hit', 'data-ply': i }, svg);
    hit.appendChild(t.cloneNode(true));
  });
}

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

function timeSetting() {
  if ($('time-mode').value === 'clock') {
    return { base: Math.round(parseFloat($('clock-base').value) * 1000), inc: Math.round(parseFloat($('clock-inc').value) * 1000) };
  }
  return { movetime: Math.round(parseFloat($('movetime').value) * 1000) };
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
  board.addEventListener('pointerleave', (ev) => { if (ev.pointerType === 'mouse') { hover.cell = null; drawOverlay(); } });
  // PV hover on the tbody, which stays while its rows are rebuilt with every info line.
  const infoBody = document.querySelector('#info tbody');
  infoBody.addEventListener('mouseover', (ev) => {
    const td = ev.target.closest('td.pv');
    const key = td ? td.parentElement.dataset.key : null;
    if (key !== pvShown) { pvShown = key; drawOverlay(); }
  });
  infoBody.addEventListener('mouseleave', () => { pvShown = null; drawOverlay(); });
  board.addEventListener('wheel', (ev) => { if (sel.kind || sel.from) { ev.preventDefault(); rotate(ev.deltaY > 0 ? 1 : -1); } }, { passive: false });
  document.addEventListener('keydown', (ev) => {
    if (ev.target.tagName === 'INPUT' || ev.target.tagName === 'TEXTAREA' || ev.target.tagName === 'SELECT') return;
    if (ev.key === 'r' || ev.key === 'R') rotate(ev.shiftKey ? -1 : 1);
    else if (ev.key === 'Escape') cancel();
    else if (ev.key === 'ArrowLeft' && state) step(-1);
    else if (ev.key === 'ArrowRight' && state) step(1);
  });
  $('btn-new').onclick = () => post('/api/new', { variant: $('variant').value, white: seatValue($('seat-white').value), black: seatValue($('seat-black').value), time: timeSetting() });
  // Seats and time apply at once (an engine seated on the side to move starts thinking).
  const setupNow = () => post('/api/setup', { white: seatValue($('seat-white').value), black: seatValue($('seat-black').value), time: timeSetting() });
  $('seat-white').onchange = setupNow;
  $('seat-black').onchange = setupNow;
  $('movetime').onchange = setupNow;
  $('clock-base').onchange = setupNow;
  $('clock-inc').onchange = setupNow;
  $('btn-playfrom').onclick = () => {
    if (!state) return;
    const later = state.moves.length - state.cursor;
    if (later > 0 && !window.confirm('Play on from here and drop the ' + later + ' later move' + (later > 1 ? 's' : '') + '?')) return;
    post('/api/playfrom', { ply: state.cursor, white: seatValue($('seat-white').value), black: seatValue($('seat-black').value), time: timeSetting() });
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
  $('btn-flip').onclick = () => { flipped = !flipped; localStorage.setItem('punct-flip', flipped ? '1' : '0'); if (state) render(state); };
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
      (f ? f.games : []).forEach((g) => { const o = document.createElement('option'); o.value = g.index; o.textContent = '#' + (g.round || g.index + 1) + ' ' + g.white + ' - ' + g.black + ' ' + (g.result || '') + ' (' + g.plies + ')'; gs.appendChild(o); });
    };
    fs.onchange = fill;
    fill();
    $('results').hidden = !v.files.length;
    if (!v.files.length) showMessage('no PGN files in ' + v.dir + ' (start punct-gui with --results DIR)', false);
  };
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

