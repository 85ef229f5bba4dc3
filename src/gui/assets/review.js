// punct-gui page: the game review (graph, marks, the better move in words and on the board)
// and the evaluation bar.

const MARK_GLYPH = { inaccuracy: '?!', mistake: '?', blunder: '??' };
let reviewCache = null;          // { start, moves, review }: the last review of the whole game

// The review that applies to the game shown, and how many of its first moves the game still
// shares with it (after Play from here at ply 10, moves 1-10 keep their marks).
function reviewNow() {
  const rv = state && state.review;
  if (!rv) { reviewCache = null; return { rv: null, agree: 0 }; }
  if (rv.current) {
    reviewCache = { start: state.start, moves: state.moves.slice(0, rv.total - 1), review: rv };
    return { rv: rv, agree: Math.min(state.moves.length, rv.total - 1) };
  }
  let moves = rv.moves, from = rv;
  if (!moves && reviewCache && reviewCache.start === state.start && reviewCache.review.engine === rv.engine) {
    moves = reviewCache.moves;
    from = reviewCache.review;
  }
  if (!moves) return { rv: rv, agree: rv.agree || 0 };
  let n = 0;
  while (n < moves.length && n < state.moves.length && moves[n] === state.moves[n]) n++;
  return { rv: from, agree: rv.agree !== undefined ? rv.agree : n };
}

// The mark of move i (0-based), when the game still agrees with the review there.
function markOf(i) {
  const { rv, agree } = reviewNow();
  if (!rv || i >= agree) return null;
  const mk = rv.marks[i];
  return mk && mk.class ? mk : null;
}

// The evaluation after ply p, when known for this game.
function evalAt(p) {
  const { rv, agree } = reviewNow();
  // A review of another game says nothing about this one (not even its first position).
  if (!rv || p > agree || (agree === 0 && !state.review.current)) return null;
  return rv.evals[p] || null;
}

// "12. c5c6d6??" as players write it.
function moveLabel(i) {
  const ply = startPly() + i;
  return Math.floor(ply / 2) + 1 + (ply % 2 ? '… ' : '. ') + state.moves[i];
}

// What the review says about the move that led to the position shown: in words, without
// hovering (touch screens have no hover).
function renderReviewNote() {
  const note = $('review-note');
  const c = state.cursor;
  const mk = c > 0 ? markOf(c - 1) : null;
  if (!mk) { note.hidden = true; note.textContent = ''; return; }
  const before = evalAt(c - 1), after = evalAt(c);
  const mover = (startPly() + c - 1) % 2 ? 'Black' : 'White';
  // A mate allowed is said so; in a position lost already it is no blunder (as on lichess).
  const mate = after && /M/.test(after.text) && !(before && /M/.test(before.text));
  let t = moveLabel(c - 1) + MARK_GLYPH[mk.class] + ' ' + mk.class + ': ' +
    (mate ? 'it allows a forced mate' + (mk.class === 'blunder' ? '' : ' (the game was lost already)') + ', ' : '') +
    mover + "'s win chance −" + Math.round(mk.drop * 100) + ' %';
  if (before && after) t += ' (' + before.text + ' → ' + after.text + ')';
  if (mk.better) t += '. Better: ' + mk.better + (before ? ' (' + before.text + ')' : '') + ', drawn on the board.';
  note.textContent = t;
  note.hidden = false;
}

// The review's better move for the move just shown, drawn on the board (green, labelled).
function drawBetter(g) {
  const c = state.cursor;
  const mk = c > 0 ? markOf(c - 1) : null;
  if (!mk || !mk.better || mk.better === 'pass') return;
  const mover = (startPly() + c - 1) % 2 ? 'black' : 'white';
  const parts = mk.better.split('-');
  if (parts.length === 2) mark(g, parts[0], '#1e8449', 9);
  drawPiece(g, parts[parts.length - 1], mover, 1, 'better', '#1e8449');
  g.lastChild.classList.add('better-piece');
}

// The evaluation bar beside the board: White's share from below (review, analysis or the
// engine thinking about its move). Its place is kept when it is off: the board never moves.
function renderEvalBar() {
  const bar = $('evalbar');
  if (!state) return;
  let ev = evalAt(state.cursor);
  if (!ev && lastEval) ev = lastEval;
  const on = $('opt-evalbar').checked && ev !== null;
  bar.classList.toggle('off', !on);
  if (!on) return;
  const w = winChance(ev.cp);
  $('evalbar-white').style.height = (w * 100).toFixed(1) + '%';
  bar.classList.toggle('flipped', flipped);
  $('evalbar-text').textContent = ev.text;
  bar.title = 'evaluation for White: ' + ev.text;
}

function renderReview() {
  const rv = state.review;
  const g = $('graph');
  const info = $('review-info');
  $('btn-review').textContent = rv && rv.running ? 'Stop review' : 'Review game';
  // No review of a clock game going on without engine help.
  $('btn-review').disabled = !(rv && rv.running) && !!helpRefused(state);
  $('btn-review').title = helpRefused(state) || 'evaluate every position of the game';
  renderReviewNote();
  if (!rv) { g.toggleAttribute('hidden', true); info.textContent = ''; return; }
  const { rv: shown, agree } = reviewNow();
  const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
  rv.marks.forEach((m) => { if (m.class) counts[m.class]++; });
  const scope = rv.current ? '' : agree > 0 ? ' — of an earlier game sharing its first ' + agree + ' moves' : ' — an earlier game';
  info.textContent = (rv.running ? 'reviewing: ' : 'reviewed: ') + rv.done + ' of ' + rv.total + ' positions by ' + rv.engine +
    ' (' + rv.movetime / 1000 + ' s each)' + (rv.error ? '; ' + rv.error : '') + scope +
    '. Inaccuracies ' + counts.inaccuracy + ', mistakes ' + counts.mistake + ', blunders ' + counts.blunder + '.';
  if (!shown || !shown.evals.length || !(rv.current || agree > 0)) { g.toggleAttribute('hidden', true); return; }
  g.toggleAttribute('hidden', false);
  drawGraph(g, shown, rv.current ? shown.evals.length : agree + 1);
}

function drawGraph(svg, rv, upto) {
  svg.replaceChildren();
  const W = 600, H = 90, n = Math.max(rv.total - 1, 1);
  const evals = rv.evals.slice(0, upto);
  const X = (i) => 4 + (W - 8) * i / n, Y = (cp) => 4 + (H - 8) * (1 - winChance(cp));
  svgEl('rect', { x: 0, y: 0, width: W, height: H, fill: '#3b3b3b' }, svg);
  const pts = evals.map((e, i) => X(i).toFixed(1) + ',' + Y(e.cp).toFixed(1));
  const last = evals.length - 1;
  svgEl('polygon', { points: X(0).toFixed(1) + ',' + H + ' ' + pts.join(' ') + ' ' + X(last).toFixed(1) + ',' + H, fill: '#f4efe2' }, svg);
  svgEl('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: '#999', 'stroke-dasharray': '3 3' }, svg);
  svgEl('line', { x1: X(state.cursor), x2: X(state.cursor), y1: 0, y2: H, stroke: '#1f5fa8', 'stroke-width': 2, class: 'graph-cursor' }, svg);
  const colours = { inaccuracy: '#e6b800', mistake: '#e67e22', blunder: '#c0392b' };
  evals.forEach((e, i) => {
    const mk = i > 0 ? rv.marks[i - 1] : null;
    const c = svgEl('circle', { cx: X(i), cy: Y(e.cp), r: mk && mk.class ? 4.5 : 3, fill: mk && mk.class ? colours[mk.class] : '#1f5fa8', class: 'pt', 'data-ply': i }, svg);
    const t = svgEl('title', {}, c);
    t.textContent = 'ply ' + i + ': ' + e.text + (mk && mk.class ? ' (' + mk.class + ')' : '');
    // A wide invisible target per point, so that a click anywhere near it jumps there.
    const hit = svgEl('rect', { x: X(i) - (W / n) / 2, y: 0, width: W / n, height: H, fill: 'transparent', class: 'hit', 'data-ply': i }, svg);
    hit.appendChild(t.cloneNode(true));
  });
}
