// punct-gui page: what a player expects around the board: the game-over summary; resign, draw
// and abort; a sound and the tab title on your move; the low-time warning; the board turned
// for a human playing Black; the dark theme; the rules and pieces.

window.punctSounds = [];         // the sounds played (for the tests)
let audio = null;
let wasYourMove = null;
let lowWarned = {};
let seatsSeen = null;
let overShown = null, overClosed = null;

// A short tone (WebAudio: no file to fetch).
function beep(kind) {
  if (!$('opt-sound').checked) return;
  window.punctSounds.push(kind);
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = kind === 'low' ? 880 : 620;
    g.gain.setValueAtTime(0.2, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    o.connect(g);
    g.connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.25);
  } catch (e) { /* no audio: the title still says it */ }
}

// Your move (a human against an engine): the tab's title says so, and a tone when the
// engine's reply makes it your move.
function yourMove(s) {
  const gs = gameSide(s), i = gs === 'white' ? 0 : 1;
  const mine = !gameOver(s) && !s.paused && s.seats[i] === 'human' && s.seats[1 - i] !== 'human';
  document.title = mine ? '● Your move — PÜNCT' : 'PÜNCT';
  if (mine && wasYourMove === false) beep('move');
  wasYourMove = mine;
  if (s.moves.length < 2) lowWarned = {};
}

// Once per game and side: a human's clock under its low-time mark (the clock turns red too).
function lowTimeWarning(side) {
  if (lowWarned[side] || state.seats[side === 'white' ? 0 : 1] !== 'human') return;
  lowWarned[side] = true;
  beep('low');
}

// The board turns by itself when a human sits down to play Black against an engine (and back
// for White) while the page is open; Flip still turns it by hand.
function autoFlip(s) {
  const key = JSON.stringify(s.seats);
  if (key === seatsSeen) return;
  const first = seatsSeen === null;
  seatsSeen = key;
  if (first) return; // a page opened (or reloaded) keeps the tab's own choice
  const [w, b] = s.seats;
  let f = flipped;
  if (w !== 'human' && b === 'human') f = true;
  else if (w === 'human' && b !== 'human') f = false;
  if (f !== flipped) { flipped = f; localStorage.setItem('punct-flip', f ? '1' : '0'); }
}

function setFlipped(f) {
  flipped = f;
  localStorage.setItem('punct-flip', f ? '1' : '0');
  if (state) render(state);
}

function newGame(fromKey) {
  if (!state) return;
  if (fromKey === true && state.moves.length && !gameOver() && !window.confirm('Start a new game? This one is not over.')) return;
  const t = timeSetting();
  if (!t) return;
  post('/api/new', { variant: $('variant').value, white: seatValue($('seat-white').value), black: seatValue($('seat-black').value), time: t });
}

// Resign, draw, abort as the server allows them now.
function renderActions(s) {
  const over = gameOver(s);
  const a = s.actions || { resign: !over && s.moves.length > 0, abort: false, draw: false };
  $('btn-resign').disabled = !a.resign;
  $('btn-abort').disabled = !a.abort;
  $('btn-abort').hidden = !a.abort;
  const d = s.draw || { allowed: false, why: 'PÜNCT has no draw by agreement' };
  $('btn-draw').disabled = !!over || !s.actions;
  $('btn-draw').title = d.allowed ? 'offer a draw' : d.why;
}

// ----- game over -----

function overTitle(go) {
  if (go.winner) return colourName(go.winner) + ' wins';
  if (go.reason === 'aborted') return 'Game aborted';
  return go.result === '1/2-1/2' || go.reason === 'last_drop' || go.reason === 'double_pass' || go.reason === 'centre_count' ? 'Draw' : 'Game over';
}

// How the game ended, in full (the server's summary; a sentence of our own for older servers).
function overSummary(go, s) {
  if (go.summary) return go.summary;
  let t = go.text + '.';
  if (go.reason === 'connection' && go.path && go.path.length) t += ' The connecting chain: ' + go.path.join(' ') + '.';
  if (go.reason === 'centre_count') t += ' Centre count: White ' + s.centre[0] + ', Black ' + s.centre[1] + '.';
  return t;
}

// The summary box over the board, once per game end, until closed (× or Esc); a click on the
// status line opens it again. It stays out of the way while earlier moves are browsed.
function renderGameOver(s) {
  const go = gameOver(s);
  const box = $('gameover');
  if (!go) { box.hidden = true; overShown = null; return; }
  const key = s.boot + '|' + s.start + '|' + s.moves.length + '|' + go.reason + '|' + go.result;
  if (key !== overShown) { overShown = key; overClosed = null; }
  box.hidden = overClosed === key || !s.at_end;
  box.dataset.reason = go.reason;
  $('gameover-title').textContent = overTitle(go) + (go.result ? ' (' + go.result + ')' : '');
  $('gameover-text').textContent = overSummary(go, s);
}

function closeGameOver() {
  const box = $('gameover');
  if (box.hidden) return false;
  box.hidden = true;
  overClosed = overShown;
  return true;
}

// ----- theme -----

function darkWanted() {
  const t = localStorage.getItem('punct-theme');
  if (t === 'dark' || t === 'light') return t === 'dark';
  return window.matchMedia('(prefers-color-scheme: dark)').matches;
}

function applyTheme() {
  const dark = darkWanted();
  document.body.classList.toggle('dark', dark);
  $('btn-theme').textContent = dark ? '◐ Light' : '◐ Dark';
}

// ----- rules, pieces and keys -----

function rulesPanel() {
  const body = $('rules-body');
  const p = (html) => { const e = document.createElement('p'); e.textContent = html; body.appendChild(e); return e; };
  // docs/rules.md in short (sections 2, 4.1, 4.2 and 5, in that order); keep the two consistent.
  p('Each player has 18 pieces of three dots; one dot of each piece is its PÜNCT (red here). White begins; a turn drops a piece from the hand or shifts one of your pieces on the board. A player with neither passes, and two passes in a row draw.');
  p('A drop puts a piece on three empty spaces (never under a bridge). In the standard game no dot of a dropped piece may touch the central hexagon (the shaded spaces); in the basic game only White\'s first drop may not.');
  p('A shift takes one of your pieces that nothing lies on, slides its PÜNCT in a straight line (over anything) or leaves it in place, and may turn it about the PÜNCT; the piece must not end where it was. It may land on top of other pieces: its PÜNCT must then be over a dot of your own colour (the highest one under it), and its two end dots level, all three for a triangle. A piece with a gap under its middle dot is a bridge. Shifts may enter and leave the centre.');
  p('You win by joining two opposite sides of the board with your dots seen from above; if a move shows both players\' connections, the mover wins, and a move that uncovers only the other side\'s connection loses. After the last drop of a side, the standard game is decided by the dots on top in the central hexagon (equal is a draw); the basic game is then drawn. There is no draw by agreement: resign, or abort before the second move.');
  p('The full rules: docs/rules.md in the engine\'s repository.');
  const grid = document.createElement('div');
  grid.className = 'pieces';
  const names = {
    T: 'T, triangle (6): three dots touching each other.',
    S: 'S, straight (4): three in a line, the PÜNCT at an end.',
    C: 'C, centre-straight (2): three in a line, the PÜNCT in the middle.',
    A: 'A, angular (2): a 120° bend with the PÜNCT at the bend.',
    L: 'L, L-angular (2): a 120° bend with the PÜNCT at an end; walking from the PÜNCT, the line turns clockwise (right) at the middle dot.',
    R: 'R, R-angular (2): the mirror image of L, turning anticlockwise (left). Pieces turn but never flip, so an L never fits where only an R does.',
  };
  for (const k of KINDS) {
    grid.appendChild(pieceIcon(k, 'white'));
    const d = document.createElement('span');
    d.textContent = names[k];
    grid.appendChild(d);
  }
  body.appendChild(grid);
  const keys = p('');
  keys.id = 'keys-help';
  keys.textContent = isTouch()
    ? 'On a touch screen: tap a piece in your hand or on the board, tap a green dot to see it there, ↻ Rotate turns it, ✓ Place plays it.'
    : 'Keys: R turns the piece shown (Shift+R back; also the mouse wheel), Esc lets go of it, F flips the board, U undoes, N starts a new game, ← and → step through the moves.';
}

function setupExtras() {
  rulesPanel();
  applyTheme();
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);
  $('btn-theme').onclick = () => { localStorage.setItem('punct-theme', document.body.classList.contains('dark') ? 'light' : 'dark'); applyTheme(); };
  $('opt-confirm').checked = localStorage.getItem('punct-confirm') === '1';
  $('opt-confirm').onchange = () => localStorage.setItem('punct-confirm', $('opt-confirm').checked ? '1' : '0');
  $('opt-sound').checked = localStorage.getItem('punct-sound') !== '0';
  $('opt-sound').onchange = () => localStorage.setItem('punct-sound', $('opt-sound').checked ? '1' : '0');
  $('btn-resign').onclick = () => { if (window.confirm('Resign this game?')) post('/api/resign', {}); };
  $('btn-draw').onclick = () => post('/api/draw', {});
  $('btn-abort').onclick = () => post('/api/abort', {});
  $('gameover-close').onclick = closeGameOver;
  $('status').onclick = () => { if (gameOver() && state.at_end) { overClosed = null; $('gameover').hidden = false; } };
  // A page opened on a touch screen speaks of taps from the start.
  document.addEventListener('pointerdown', (ev) => {
    const was = lastPointer;
    lastPointer = ev.pointerType || 'mouse';
    if (was !== lastPointer) drawOverlay();
  }, true);
}
