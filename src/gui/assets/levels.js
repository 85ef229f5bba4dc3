// punct-gui page: the strength level of each engine seat (issue 45). The player's block shows
// the level in force on a button, which opens the engine's levels (eight named steps, each with
// its Elo or skill, as the engine's own options allow) and full strength. The server keeps the
// choice from game to game (and for every tab); the page remembers it for a restarted server.

let levelMenuFor = null;        // the side whose menu is open
let levelsBoot = null;          // the server boot whose levels were checked against the stored ones

function seatEngine(s, i) {
  const seat = s.seats[i];
  return seat === 'human' ? null : s.engines[seat] || null;
}

// The level button of side i's block: the level in words; for an engine without levels, no
// choice (why on hover, or on a tap).
function renderLevel(block, i) {
  const btn = block.querySelector('.level');
  const e = seatEngine(state, i);
  if (!e || !state.level_labels) { btn.hidden = true; return; }
  btn.hidden = false;
  const has = !!(e.levels && e.levels.length);
  // The level in full where the block has room for it, else the step's name alone (`Club`,
  // `Full`): a phone's block never has the room.
  const label = state.level_labels[i];
  const step = has && state.levels[i] !== null ? e.levels.find((l) => l.step === state.levels[i]) : null;
  const short = step ? step.name : state.levels[i] === null ? 'Full' : label;
  const long = document.createElement('span');
  long.className = 'long';
  long.textContent = label;
  const brief = document.createElement('span');
  brief.className = 'short';
  brief.textContent = short;
  btn.replaceChildren(long, brief, has ? ' ▾' : '');
  btn.classList.remove('brief');
  if (matchMedia('(max-width: 720px)').matches || btn.scrollWidth > btn.clientWidth) btn.classList.add('brief');
  btn.classList.toggle('none', !has);
  btn.setAttribute('aria-disabled', has ? 'false' : 'true');
  btn.title = has ? e.name + "'s strength: " + label + '; choose a level'
    : e.levels_why || 'the levels are known once ' + e.name + ' has started';
  if (levelMenuFor === i) fillLevelMenu(i);
}

function levelChoices(e) {
  // Strongest first, as the picker reads: full strength, then the named steps down.
  return [{ step: null, name: 'Full strength', detail: "the engine's best" }]
    .concat(e.levels.slice().reverse().map((l) => ({ step: l.step, name: l.name, detail: l.elo !== null ? 'Elo ' + l.elo : 'skill ' + l.skill })));
}

function fillLevelMenu(i) {
  const menu = $('level-menu');
  const e = seatEngine(state, i);
  if (!e || !e.levels || !e.levels.length) { closeLevelMenu(); return; }
  const cur = state.levels[i];
  const key = JSON.stringify([i, cur, e.levels]);
  if (menu.dataset.key === key) return;
  menu.dataset.key = key;
  menu.replaceChildren();
  const head = document.createElement('div');
  head.className = 'small';
  head.textContent = colourName(i === 0 ? 'white' : 'black') + ': ' + e.name + "'s level";
  menu.appendChild(head);
  for (const c of levelChoices(e)) {
    const b = document.createElement('button');
    b.setAttribute('role', 'menuitemradio');
    b.setAttribute('aria-checked', c.step === cur ? 'true' : 'false');
    b.dataset.step = c.step === null ? 'full' : String(c.step);
    if (c.step === cur) b.classList.add('cur');
    const name = document.createElement('span');
    name.textContent = c.name;
    const detail = document.createElement('span');
    detail.className = 'detail';
    detail.textContent = c.detail;
    b.append(name, detail);
    b.onclick = () => chooseLevel(i, c.step);
    menu.appendChild(b);
  }
}

function openLevelMenu(i) {
  const e = state && seatEngine(state, i);
  if (!e) return;
  if (!e.levels || !e.levels.length) {
    pageMessage(e.levels_why || 'the levels are known once ' + e.name + ' has started');
    return;
  }
  if (levelMenuFor === i) { closeLevelMenu(); return; }
  levelMenuFor = i;
  const menu = $('level-menu');
  menu.dataset.key = '';
  fillLevelMenu(i);
  menu.hidden = false;
  // Under the button, or above it when the window has no room below; always inside.
  const r = $('player-' + (i === 0 ? 'white' : 'black')).querySelector('.level').getBoundingClientRect();
  const h = menu.offsetHeight, w = menu.offsetWidth;
  const below = innerHeight - r.bottom - 4, above = r.top - 4;
  const top = h <= below || below >= above ? r.bottom + 2 : Math.max(4, r.top - 2 - h);
  menu.style.top = Math.max(4, Math.min(top, innerHeight - h - 4)) + 'px';
  menu.style.left = Math.max(4, Math.min(r.left, innerWidth - w - 4)) + 'px';
  const cur = menu.querySelector('button.cur');
  if (cur) cur.focus({ preventScroll: true });
}

function closeLevelMenu() {
  levelMenuFor = null;
  $('level-menu').hidden = true;
}

// A choice is the server's at once (from the engine's next move) and remembered here.
function chooseLevel(i, step) {
  closeLevelMenu();
  if (!state) return;
  const levels = state.levels.slice();
  levels[i] = step;
  localStorage.setItem('punct-levels', JSON.stringify(levels));
  post('/api/setup', { levels: levels });
}

// A server started again has full strength on both sides: the levels chosen on this page come
// back before the first move.
function restoreLevels(s) {
  if (!s.levels || levelsBoot === s.boot) return;
  levelsBoot = s.boot;
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem('punct-levels')); } catch (e) { stored = null; }
  const valid = Array.isArray(stored) && stored.length === 2 && stored.every((l) => l === null || (Number.isInteger(l) && l >= 1 && l <= 8));
  if (!valid || stored.every((l) => l === null)) return;
  if (s.moves.length || s.levels.some((l) => l !== null)) return;
  post('/api/setup', { levels: stored });
}

function setupLevels() {
  for (const side of ['white', 'black']) {
    const i = side === 'white' ? 0 : 1;
    $('player-' + side).querySelector('.level').onclick = () => openLevelMenu(i);
  }
  // A press outside the menu (not on its button) or Esc closes it.
  document.addEventListener('pointerdown', (ev) => {
    if (levelMenuFor === null || ev.target.closest('#level-menu, .player .level')) return;
    closeLevelMenu();
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && levelMenuFor !== null) { ev.stopImmediatePropagation(); closeLevelMenu(); }
  }, true);
}

// A window that changes its width may give a level button more room, or less.
addEventListener('resize', () => {
  if (!state) return;
  ['white', 'black'].forEach((c, i) => renderLevel($('player-' + c), i));
});
