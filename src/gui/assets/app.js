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
let hover = { cell: null, rot: 0 };
let infoRows = {};               // multipv -> parsed info
let infoSearch = null;
let boardKey = '';
let infoPosition = '';           // the position the engine lines are about
window.punctInfoLatency = [];    // ms from the engine's line being read to it being on screen
window.punctFirstBoardMs = null; // ms from navigation start to the first board drawn

// ----- server calls -----

async function post(path, body) {
  const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}) });
  let v = null;
  try { v = await r.json(); } catch (e) { v = { error: 'bad answer from the server' }; }
  if (!r.ok) { showMessage(v.error || ('error ' + r.status), false); return null; }
  render(v);
  return v;
}

function showMessage(text, ok) {
  const m = $('message');
  m.textContent = text || '';
  m.className = 'message' + (ok ? ' ok' : '');
}

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
  if (hc.length) {
    const p = hc[((hover.rot % hc.length) + hc.length) % hc.length];
    drawPiece(g, p, state.side, 0.7);
    $('hint').textContent = moveText(p) + (hc.length > 1 ? '  (' + hc.length + ' ways here: wheel or R turns it)' : '') + ': click to play';
  }
}

function selectKind(k) {
  sel = { kind: sel.kind === k ? null : k, from: null };
  hover.rot = 0;
  renderHands();
  drawOverlay();
}

function cancel() { sel = { kind: null, from: null }; renderHands(); drawOverlay(); }

function onBoardClick(ev) {
  const t = ev.target.closest('[data-cell]');
  if (!t || !state) return;
  const cell = t.getAttribute('data-cell');
  const hc = hoverCandidates();
  if ((sel.kind || sel.from) && hover.cell === cell && hc.length) {
    const p = hc[((hover.rot % hc.length) + hc.length) % hc.length];
    const mv = moveText(p);
    cancel();
    post('/api/move', { move: mv });
    return;
  }
  const from = state.can_move && state.legal.movable[cell];
  if (from) { sel = { kind: null, from: from }; hover.rot = 0; renderHands(); drawOverlay(); return; }
  if (sel.from) cancel();
}

function onBoardMove(ev) {
  const t = ev.target.closest('[data-cell]');
  const cell = t ? t.getAttribute('data-cell') : null;
  if (cell !== hover.cell) { hover.cell = cell; drawOverlay(); }
}

function rotate(step) { hover.rot += step; drawOverlay(); }

// ----- rendering -----

function colourName(c) { return c === 'white' ? 'White' : 'Black'; }

function renderHands() {
  if (!state) return;
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
      b.textContent = k + ' ×' + n;
      b.title = KIND_NAMES[k];
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
  const run = state.at_end && !state.outcome && !state.paused;
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
  select.replaceChildren();
  const add = (v, text) => { const o = document.createElement('option'); o.value = v; o.textContent = text; select.appendChild(o); };
  add('human', 'Human');
  state.engines.forEach((e, i) => add(String(i), e.name));
  select.value = String(value);
}

function renderEngines() {
  const box = $('engines');
  box.replaceChildren();
  state.engines.forEach((e, i) => {
    const row = document.createElement('div');
    row.className = 'engine';
    const name = document.createElement('b');
    name.textContent = e.name;
    const st = document.createElement('span');
    st.className = 'st-' + e.state;
    st.textContent = e.state + (e.detail ? ': ' + e.detail : '');
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
  state.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.value = startPly + i + 1;
    const s = document.createElement('span');
    s.textContent = m;
    if (i + 1 === state.cursor) s.className = 'cur';
    s.onclick = () => post('/api/goto', { ply: i + 1 });
    li.appendChild(s);
    ol.appendChild(li);
  });
  const cur = ol.querySelector('.cur');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  $('ply').textContent = 'move ' + state.cursor + ' of ' + state.moves.length;
}

function render(s) {
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
  if (document.activeElement !== $('seat-white')) seatOptions($('seat-white'), s.seats[0]);
  if (document.activeElement !== $('seat-black')) seatOptions($('seat-black'), s.seats[1]);
  $('variant').value = s.variant;
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
    document.querySelector('#info tbody').replaceChildren();
    $('info-source').textContent = '';
  }
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
    for (const v of [key, (r.depth || '') + (r.seldepth ? '/' + r.seldepth : ''), fmtScore(r.score), r.nodes || '', r.nps || '', pv]) {
      const td = document.createElement('td');
      td.textContent = v;
      tr.appendChild(td);
    }
    const pvCell = tr.lastChild;
    pvCell.className = 'pv';
    pvCell.onmouseenter = () => showPv(r.pv || []);
    pvCell.onmouseleave = () => drawOverlay();
    body.appendChild(tr);
  });
  $('info-source').textContent = info.engine_name + (info.purpose === 'analysis' ? ' analysing' : ' thinking about its move');
  // The line is on screen once this frame is painted; measure to then.
  requestAnimationFrame(() => {
    const lat = Date.now() - info.read_ms;
    window.punctInfoLatency.push({ ms: lat, render_ms: performance.now() - t0 });
    if (window.punctInfoLatency.length > 1000) window.punctInfoLatency.shift();
  });
}

// The PV drawn on the board: each move's piece numbered, sides alternating.
function showPv(pv) {
  const g = overlay();
  if (!g || !state) return;
  g.replaceChildren();
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

function timeSetting() {
  if ($('time-mode').value === 'clock') {
    return { base: Math.round(parseFloat($('clock-base').value) * 1000), inc: Math.round(parseFloat($('clock-inc').value) * 1000) };
  }
  return { movetime: Math.round(parseFloat($('movetime').value) * 1000) };
}
function seatValue(v) { return v === 'human' ? 'human' : parseInt(v, 10); }

function setup() {
  const board = $('board');
  board.addEventListener('click', onBoardClick);
  board.addEventListener('mousemove', onBoardMove);
  board.addEventListener('mouseleave', () => { hover.cell = null; drawOverlay(); });
  board.addEventListener('wheel', (ev) => { if (sel.kind || sel.from) { ev.preventDefault(); rotate(ev.deltaY > 0 ? 1 : -1); } }, { passive: false });
  document.addEventListener('keydown', (ev) => {
    if (ev.target.tagName === 'INPUT' || ev.target.tagName === 'TEXTAREA' || ev.target.tagName === 'SELECT') return;
    if (ev.key === 'r' || ev.key === 'R') rotate(ev.shiftKey ? -1 : 1);
    else if (ev.key === 'Escape') cancel();
    else if (ev.key === 'ArrowLeft' && state) post('/api/goto', { ply: Math.max(0, state.cursor - 1) });
    else if (ev.key === 'ArrowRight' && state) post('/api/goto', { ply: state.cursor + 1 });
  });
  $('btn-new').onclick = () => post('/api/new', { variant: $('variant').value, white: seatValue($('seat-white').value), black: seatValue($('seat-black').value), time: timeSetting() });
  $('btn-undo').onclick = () => post('/api/undo');
  $('btn-pass').onclick = () => post('/api/move', { move: 'pass' });
  $('btn-flip').onclick = () => { flipped = !flipped; localStorage.setItem('punct-flip', flipped ? '1' : '0'); if (state) render(state); };
  $('btn-pause').onclick = () => state && post('/api/pause', { paused: !state.paused });
  $('nav-first').onclick = () => post('/api/goto', { ply: 0 });
  $('nav-prev').onclick = () => state && post('/api/goto', { ply: Math.max(0, state.cursor - 1) });
  $('nav-next').onclick = () => state && post('/api/goto', { ply: state.cursor + 1 });
  $('nav-last').onclick = () => state && post('/api/goto', { ply: state.moves.length });
  $('time-mode').onchange = () => { const c = $('time-mode').value === 'clock'; $('lbl-clock').hidden = !c; $('lbl-movetime').hidden = c; };
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
    $('results').hidden = false;
    if (!v.files.length) showMessage('no PGN files in ' + v.dir, false);
  };
  $('btn-results-load').onclick = () => post('/api/results/load', { file: $('results-file').value, index: parseInt($('results-game').value, 10) || 0 });
  setInterval(renderClocks, 200);
  connect();
}

function connect() {
  const es = new EventSource('/api/events');
  es.addEventListener('state', (ev) => render(JSON.parse(ev.data)));
  es.addEventListener('info', (ev) => renderInfo(JSON.parse(ev.data)));
  es.onerror = () => { $('status-text').textContent = 'connection to punct-gui lost; retrying…'; };
}

setup();
