// punct-gui page: what a player watches and trusts during a game: labels that hide no dot,
// the counted centre, the engine thinking, the clocks at the position shown, nothing lost
// without asking, one undo per press, engine help only when chosen, a PGN's games to choose.

// ----- labels on the board -----

function circleHitsRect(cx, cy, r, x, y, w, h) {
  const nx = Math.max(x, Math.min(cx, x + w)), ny = Math.max(y, Math.min(cy, y + h));
  return Math.hypot(cx - nx, cy - ny) < r;
}

// Where a w x h tag goes beside the PÜNCT of `cells`: the first place (above, below, the
// sides, the corners) that covers none of the piece's dots, and the fewest other dots.
function labelSpot(cells, w, h) {
  const [x, y] = cellPos[cells[0]];
  const gap = 15;
  const spots = [[0, -(gap + h / 2)], [0, gap + h / 2], [gap + w / 2, 0], [-(gap + w / 2), 0],
    [gap + w / 2 - 4, -(gap + h / 2 - 4)], [-(gap + w / 2 - 4), -(gap + h / 2 - 4)],
    [gap + w / 2 - 4, gap + h / 2 - 4], [-(gap + w / 2 - 4), gap + h / 2 - 4]];
  const own = cells.slice(1).map((c) => cellPos[c]);
  const others = [...document.querySelectorAll('#board svg .dot[data-cell]')]
    .map((d) => cellPos[d.getAttribute('data-cell')]).filter(Boolean);
  let best = null, bestScore = Infinity;
  for (const [dx, dy] of spots) {
    const rx = x + dx - w / 2, ry = y + dy - h / 2;
    const score = 1000 * own.filter(([cx, cy]) => circleHitsRect(cx, cy, 14.5, rx, ry, w, h)).length +
      others.filter(([cx, cy]) => circleHitsRect(cx, cy, 11, rx, ry, w, h)).length;
    if (score < bestScore) { best = [rx, ry]; bestScore = score; }
  }
  return best;
}

// A label on a solid tag beside the PÜNCT: "hint" or "better" on the marking colour, a PV's
// move number dark on white; readable on any piece.
function drawTag(grp, cells, label, ring) {
  const w = ring ? 9 * label.length + 12 : 8 * label.length + 12, h = ring ? 22 : 20;
  const [rx, ry] = labelSpot(cells, w, h);
  svgEl('rect', { x: rx, y: ry, width: w, height: h, rx: 5, fill: ring || '#fff', stroke: ring ? 'none' : '#1f5fa8', 'stroke-width': 2, class: 'label-tag' }, grp);
  const t = svgEl('text', { x: rx + w / 2, y: ry + h / 2 + 5.5, 'font-size': ring ? 16 : 15, 'font-weight': 'bold', fill: ring ? '#fff' : '#123a6b', 'text-anchor': 'middle', class: 'label' }, grp);
  t.textContent = label;
}

// The centre count decided the game: the counted dots are ringed (the winner's green, the
// loser's red, both blue in a draw), as a connection has its chain drawn.
function drawCentreMarks(g) {
  const go = gameOver();
  if (!go || !go.counted || !state.at_end) return;
  for (const side of ['white', 'black']) {
    const colour = !go.winner ? '#1f5fa8' : go.winner === side ? '#1e8449' : '#c0392b';
    for (const c of go.counted[side] || []) {
      if (!cellPos[c]) continue;
      const [x, y] = cellPos[c];
      svgEl('circle', { cx: x, cy: y, r: 14, fill: 'none', stroke: colour, 'stroke-width': 3.5, class: 'centre-mark', 'data-side': side, 'pointer-events': 'none' }, g);
    }
  }
}

// ----- the engine thinking, the clocks of the position shown -----

let thinkSince = { search: null, at: 0 };

// In the engine's own block, beside the board: "thinking…" and for how long.
function renderThinking(block, i) {
  const el = block.querySelector('.think');
  const t = state.thinking;
  const side = i === 0 ? 'white' : 'black';
  const on = t && t.purpose === 'move' && state.seats[i] === t.engine && gameSide(state) === side && !gameOver();
  if (on && thinkSince.search !== t.search) thinkSince = { search: t.search, at: Date.now() };
  el.classList.toggle('on', !!on);
  el.textContent = on ? 'thinking… ' + Math.floor((Date.now() - thinkSince.at) / 1000) + ' s' : '';
}

// While an earlier move is shown, each clock has beside it the time it had there.
function renderClockAt() {
  ['white', 'black'].forEach((side, i) => {
    const el = $('clock-at-' + side);
    renderThinking($('player-' + side), i);
    if (!state.clocks || state.at_end) { el.textContent = ''; el.title = ''; return; }
    const c = state.cursor;
    const note = c > 0 && state.notes[c - 1];
    const at = note && note.clocks ? note.clocks[i] : c === 0 && state.time.base !== undefined ? state.time.base : null;
    el.textContent = at === null ? '' : fmtClock(at);
    el.title = colourName(side) + "'s clock at move " + c + ' (the position shown)';
  });
}

// ----- nothing lost without asking -----

// Every way to leave a game going on asks first (New game, N, Load, Open PGN, Replay).
function leaveGame(what) {
  if (!state || !state.moves.length || gameOver() || state.from_record) return true;
  return window.confirm(what + ': start a new game? This one is not over (move ' + state.moves.length + '). Save PGN keeps it.');
}

let undoBusy = false, lastUndo = 0;

// One takeback per press: the second click of a double click, or a press while the first is
// on its way, takes back nothing more.
function undoOnce(ev) {
  if ((ev && ev.detail > 1) || undoBusy || Date.now() - lastUndo < 400) return;
  undoBusy = true;
  lastUndo = Date.now();
  post('/api/undo').finally(() => { undoBusy = false; });
}

// ----- engine help in clock games -----

function helpRefused(s) { return (s && s.help_refused) || null; }

function renderHelp(s) {
  const clock = s.time && s.time.base !== undefined;
  const next = $('opt-help').checked ? 'on' : 'off';
  $('help-state').textContent = clock ? 'this game: ' + (s.help ? 'help on' : 'no help (as rated)') + (next !== (s.help ? 'on' : 'off') ? '; next game: ' + next : '') : '';
  if (s.next_time) $('help-state').textContent += (clock ? '; ' : '') + 'the new time is for the next game';
}

// ----- the games of a PGN -----

let loadedText = null;           // the text loaded last (to pick another of its games)

function loadText(t) {
  loadedText = t;
  post('/api/load', { text: t });
}

function renderPgnGames(s) {
  const sel = $('pgn-games');
  const games = s.pgn_games || [];
  sel.hidden = games.length < 2 || loadedText === null;
  if (sel.hidden || document.activeElement === sel) return;
  const key = JSON.stringify(games) + s.pgn_index;
  if (sel.dataset.key !== key) {
    sel.dataset.key = key;
    sel.replaceChildren();
    games.forEach((g) => {
      const o = document.createElement('option');
      o.value = g.index;
      o.textContent = 'game ' + (g.index + 1) + ' of ' + games.length + ': ' + (g.white || '?') + ' - ' + (g.black || '?') + ' ' + (g.result || '') + ' (' + g.plies + ')';
      sel.appendChild(o);
    });
  }
  sel.value = String(s.pgn_index);
  sel.onchange = () => post('/api/load', { text: loadedText, index: parseInt(sel.value, 10) || 0 });
}

// ----- the analysis under the board (phone) -----

// The best line in one short row under the board; a tap draws it.
function renderBrief() {
  const el = $('ana-brief');
  const r = state && state.analysis.on && (infoRows[1] || infoRows[Object.keys(infoRows)[0]]);
  if (!r || !r.pv) { el.hidden = true; el.textContent = ''; return; }
  el.hidden = false;
  el.textContent = (r.depth ? 'd' + r.depth + ' ' : '') + fmtScore(whiteScore(r.score)) + '  ' + r.pv.slice(0, 6).join(' ') + (r.pv.length > 6 ? ' …' : '');
  el.title = 'tap to draw the line on the board';
  el.onclick = () => { pvShown = pvShown === null ? String(r.multipv || 1) : null; drawOverlay(); };
}
