/* SPDX-License-Identifier: MIT */
/* slidedb-serve's page: plays the sliding-tile boards of the database.
 *
 * Conventions
 * - A board is an array of tile numbers in row-major order, 0 for the blank;
 *   the API gets it as the numbers separated by spaces (encodeURIComponent).
 * - Moves are named by the direction the BLANK travels: u d l r (as the API).
 * - Arrow keys and swipes name the direction the TILE slides: ArrowUp slides
 *   the tile below the blank up, which is the move 'd'.
 *
 * - The position is kept in the page's address, #size=3x3&board=...&goal=...
 *   (cells separated by commas; any notation the API reads is taken), and
 *   &metric=mtm in the multi-tile metric, so that a link opens the same board.
 * - The metric: in STM a move slides the tile next to the blank; in MTM a
 *   click on any tile of the blank's row or column slides the tiles between
 *   them, one move (the API's "r3": the blank travels 3 cells). A move is
 *   {d, k}: the blank's direction and the cells it travels.
 * - Errors are told in the page's words (friendly()), not the API's.
 *
 * Hooks for tests: #board has data-size ("3x3"), data-distance (the current
 * distance, "" while unknown or unsolvable) and data-state ("loading",
 * "pending", "ready", "unsolvable", "error"); every tile, the blank included,
 * has data-tile (0 for the blank) and data-cell (its row-major cell); the
 * tiles of a hint have the class "hint" and data-hint (an arrow).
 */
'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var ui = {
    board: $('board'), boardText: $('board-text'), announce: $('announce'),
    size: $('size'), sizeNote: $('size-note'), metric: $('metric'), metricNote: $('metric-note'),
    value: $('readout-value'), delta: $('readout-delta'), counter: $('counter'),
    hint: $('hint'), solve: $('solve'), undo: $('undo'), status: $('status'),
    scrambleForm: $('scramble-form'), distance: $('distance'),
    distanceLabel: $('distance-label'), distanceNote: $('distance-note'), scramble: $('scramble'),
    pasteForm: $('paste-form'), paste: $('paste'),
    goalForm: $('goal-form'), goal: $('goal'), goalMini: $('goal-mini'),
    chartBox: $('chart-box'), chart: $('chart'), chartCaption: $('chart-caption')
  };

  var STEP = { u: [0, -1], d: [0, 1], l: [-1, 0], r: [1, 0] };
  var OPPOSITE = { u: 'd', d: 'u', l: 'r', r: 'l' };
  /* An arrow key slides a tile the arrow's way: the blank travels the other way. */
  var KEY_MOVE = { ArrowUp: 'd', ArrowDown: 'u', ArrowLeft: 'r', ArrowRight: 'l' };
  var TILE_WAY = { u: 'down', d: 'up', l: 'right', r: 'left' };   /* blank move -> tile's way */
  var TILE_ARROW = { u: '\u2193', d: '\u2191', l: '\u2192', r: '\u2190' };
  var SOLVE_STEP_MS = 300;
  var CACHE_MAX = 4000;
  var WALK_MAX = 500;

  var S = {
    tables: [], sizes: [],
    w: 3, h: 3, cells: [], goal: [],
    metric: 'stm',      /* how moves count: 'stm' or 'mtm' */
    history: [],        /* moves ({d, k}) made on this board, for undo */
    last: null,         /* the last move: {from, to, text} (answer keys) */
    hint: [],           /* best moves ({d, k}) shown as a hint on the current board */
    solving: null,      /* the running solution: {stop, timer} */
    epoch: 0,           /* bumped whenever the board is replaced */
    tileEls: [], bars: [], chart: null, startDistance: null, announced: ''
  };
  var cache = new Map();     /* "start|goal" -> answer object */
  var pending = new Map();   /* "start|goal" -> {ctrl, promise} */
  var lastSwipe = 0;

  /* ---------- boards ---------- */

  function boardStr(cells) { return cells.join(' '); }
  /* A board of the current width as text, a line per row (the Board and Goal boxes). */
  function boardRows(cells) {
    var rows = [];
    for (var y = 0; y * S.w < cells.length; y++) rows.push(cells.slice(y * S.w, y * S.w + S.w).join(' '));
    return rows.join('\n');
  }
  /* The cells of a board written as this page writes its links (numbers apart,
   * x _ or . for the blank) when they are a board of n cells, else null. */
  function linkCells(text, n) {
    var parts = String(text || '').trim().split(/[\s,]+/);
    if (parts.length !== n) return null;
    var cells = parts.map(function (p) { return /^[x_.]$/i.test(p) ? 0 : /^\d+$/.test(p) ? Number(p) : -1; });
    var sorted = cells.slice().sort(function (a, b) { return a - b; });
    return sorted.every(function (v, i) { return v === i; }) ? cells : null;
  }
  function parseBoard(s) { return String(s).trim().split(/\s+/).map(Number); }
  function keyOf(cells, goal) { return boardStr(cells) + '|' + boardStr(goal) + '|' + S.metric; }
  function curKey() { return keyOf(S.cells, S.goal); }
  function sizeStr() { return S.w + 'x' + S.h; }
  function blankIndex() { return S.cells.indexOf(0); }
  function neighbour(cell, dir) {
    var x = cell % S.w + STEP[dir][0], y = Math.floor(cell / S.w) + STEP[dir][1];
    return x < 0 || y < 0 || x >= S.w || y >= S.h ? -1 : y * S.w + x;
  }
  /* The board after the blank travels k cells (1 if not given) in direction dir, or null. */
  function applied(cells, dir, k) {
    var next = cells.slice(), b = next.indexOf(0);
    for (var i = 0; i < (k || 1); i++) {
      var n = neighbour(b, dir);
      if (n < 0) return null;
      next[b] = next[n];
      next[n] = 0;
      b = n;
    }
    return next;
  }
  /* The move that slides the tile in cell `cell` toward the blank, {d, k}, or
   * null: the tile next to the blank (STM), any tile of its line (MTM). */
  function moveTo(cell) {
    var b = blankIndex();
    for (var d in STEP) {
      for (var k = 1, c = neighbour(b, d); c >= 0 && (k === 1 || S.metric === 'mtm'); k++, c = neighbour(c, d)) {
        if (c === cell) return { d: d, k: k };
      }
    }
    return null;
  }
  /* A move as the API writes it: 'r', or 'r3' for three cells. */
  function moveText(m) { return m.d + (m.k > 1 ? m.k : ''); }
  /* An answer's moves as a list of {d, k}: in STM a letter each, in MTM a
   * letter and its count ('r3ul2'). */
  function movesOf(text) {
    var out = [], re = S.metric === 'mtm' ? /([udlr])(\d*)/g : /([udlr])()/g, m;
    while ((m = re.exec(text))) out.push({ d: m[1], k: m[2] ? Number(m[2]) : 1 });
    return out;
  }

  /* ---------- the API ---------- */

  function ApiError(message, status, detail) {
    var e = new Error(message);
    e.status = status;
    e.detail = detail || message;   /* the API's own words */
    return e;
  }

  /* The API's messages, said for a player: [pattern, message]; {who} is the
   * board or the goal the message is about ("start: ...", "goal: ..."). */
  var SAY = [
    [/tile (\d+) appears twice/, '{who} has tile $1 twice: each tile appears once.'],
    [/more than one blank/, '{who} has more than one empty cell: mark just one, with 0, x, _ or .'],
    [/no blank/, '{who} has no empty cell: mark it with 0, x, _ or .'],
    [/tile (\d+) is out of range/, '{who} has tile $1, which is too big for its size.'],
    [/give the size/, '{who} has a number of tiles that fits several shapes: choose the board size first.'],
    [/unknown (?:notation|character) '([^']*)'/, '{who} cannot be read at \u201c$1\u201d: write the tiles as ' +
      'numbers, with 0, x, _ or . for the empty cell.'],
    [/empty board/, '{who} is empty: type its tiles, row by row.'],
    [/mixes the compact notation/, '{who} mixes tiles written together and apart: separate every tile by a space.'],
    [/rows of unequal length/, '{who} has rows of different lengths.'],
    [/start is \d+x\d+ but goal is|start has \d+ cells but goal/, 'The board and the goal are not the same size.'],
    [/cells|rows|bracket|not a board/, '{who} is not a board of a size played here: check its tiles.'],
    [/no table|no \d+x\d+ table|slidedb-gen/, 'This server has no tables for that board, so it cannot answer it.'],
    [/budget|search stopped|limit of/, 'That position is too hard to solve here in time: try an easier one.'],
    [/^moves: /, 'Those moves cannot be read: use u, d, l and r.'],
    [/busy/, 'The server is busy: try again in a moment.']
  ];
  var WHO = { 'start': 'The board', 'goal': 'The goal' };

  function friendly(message, status) {
    var m = /^(start|goal): (.*)$/.exec(message), who = m ? WHO[m[1]] : 'The board';
    var text = m ? m[2] : message;
    for (var i = 0; i < SAY.length; i++) {
      var found = SAY[i][0].exec(text);
      if (found) {
        return SAY[i][1].replace('{who}', who).replace(/\$(\d)/g, function (_, k) { return found[k]; });
      }
    }
    if (status === 503) return 'The server is busy: try again in a moment.';
    if (status >= 500) return 'The server could not answer (its database may be damaged).';
    return 'The server could not answer that: ' + text.charAt(0).toLowerCase() + text.slice(1);
  }
  function api(path, params, signal) {
    var q = Object.keys(params || {}).filter(function (k) {
      return params[k] !== undefined && params[k] !== null;
    }).map(function (k) { return k + '=' + encodeURIComponent(params[k]); }).join('&');
    return fetch(path + (q ? '?' + q : ''), { signal: signal, headers: { Accept: 'application/json' } })
      .catch(function (e) {
        if (e.name === 'AbortError') throw e;
        throw ApiError('Cannot reach the server: is it running?', 0, e.message);
      })
      .then(function (res) {
        return res.text().then(function (text) {
          var body = null;
          try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
          if (!res.ok) {
            var said = body && body.error ? body.error : 'HTTP ' + res.status;
            throw ApiError(friendly(said, res.status), res.status, said);
          }
          if (body === null) throw ApiError('The server sent an answer this page cannot read.', res.status);
          return body;
        });
      });
  }

  function remember(a, key) {
    if (!a || typeof a !== 'object') return;
    key = key || a.start + '|' + a.goal + '|' + (a.metric || 'stm');
    var old = cache.get(key);
    if (old && old.best_moves !== undefined && a.best_moves === undefined) {
      a = Object.assign({}, a, { best_moves: old.best_moves });
    }
    cache.delete(key);
    cache.set(key, a);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value);
  }

  /* The answer for a board (cached); best: the answer must hold best_moves. */
  function answerFor(cells, goal, best) {
    var key = keyOf(cells, goal), a = cache.get(key);
    if (a && (!best || a.best_moves !== undefined || a.solvable === false)) return Promise.resolve(a);
    var p = pending.get(key);
    if (p) return p.promise;
    if (!fullTable()) {
      /* Searches are slow: drop those of boards already left behind. */
      pending.forEach(function (q) { q.ctrl.abort(); });
      pending.clear();
    }
    var ctrl = new AbortController();
    var done = function () { if (pending.get(key) && pending.get(key).ctrl === ctrl) pending.delete(key); };
    var promise = api('v1/solve', withMetric({ start: boardStr(cells), goal: boardStr(goal), size: sizeStr(),
      all_best: 1 }), ctrl.signal).then(function (ans) { done(); remember(ans, key); return ans; },
      function (e) { done(); throw e; });
    pending.set(key, { ctrl: ctrl, promise: promise });
    return promise;
  }

  /* The API's parameters, with metric=mtm in the multi-tile metric. */
  function withMetric(params) {
    if (S.metric === 'mtm') params.metric = 'mtm';
    return params;
  }

  /* ---------- tables ---------- */

  function fullKind() { return S.metric === 'mtm' ? 'full-mtm' : 'full'; }
  function hasTableFor(size, cell, full) {
    return S.tables.some(function (t) {
      return t.size === size && (!full || t.kind === 'full') &&
        Array.isArray(t.blank_cells) && t.blank_cells.indexOf(cell) >= 0;
    });
  }
  /* The full table that answers the board in the page's metric, or null. */
  function fullTable() {
    var cell = S.goal.indexOf(0), size = sizeStr();
    return S.tables.filter(function (t) {
      return t.size === size && t.kind === fullKind() && Array.isArray(t.blank_cells) &&
        t.blank_cells.indexOf(cell) >= 0;
    })[0] || null;
  }
  function defaultGoal(size) {
    var wh = size.split('x'), n = wh[0] * wh[1], std = [];
    for (var i = 1; i < n; i++) std.push(i);
    std.push(0);
    if (hasTableFor(size, n - 1, false)) return std;
    var t = S.tables.filter(function (t) { return t.size === size && t.kind === 'full'; })[0] ||
      S.tables.filter(function (t) { return t.size === size; })[0];
    return t && t.goal ? parseBoard(t.goal) : std;
  }
  function limits() {
    var t = fullTable();
    return t ? { min: 1, max: t.max_distance, walk: false } : { min: 1, max: WALK_MAX, walk: true };
  }
  function updateLimits(reset) {
    var lim = limits(), v = Number(ui.distance.value);
    ui.distance.min = lim.min;
    ui.distance.max = lim.max;
    if (reset || !Number.isInteger(v)) {
      v = lim.walk ? 30 : Math.max(lim.min, Math.round(lim.max * 0.6));
    }
    ui.distance.value = Math.min(lim.max, Math.max(lim.min, v));
    ui.distanceLabel.textContent = lim.walk ? 'Random walk of' : 'Moves from the goal';
    ui.distanceNote.textContent = lim.walk
      ? 'No exact table for this goal: scramble by a random walk (1 to ' + lim.max + ' moves).'
      : 'A board drawn at random among those exactly this far (1 to ' + lim.max + ').';
    ui.sizeNote.textContent = lim.walk ? 'answered by search: slower, and it can fail' : '';
  }

  /* ---------- showing things ---------- */

  function status(msg, kind) {
    ui.status.textContent = msg || '';
    ui.status.dataset.kind = kind || '';
  }
  function say(msg) {
    if (ui.announce.textContent === msg) msg += '\u00a0';
    ui.announce.textContent = msg;
  }

  function buildTiles() {
    ui.board.textContent = '';
    S.tileEls = [];
    ui.board.style.setProperty('--w', S.w);
    ui.board.style.setProperty('--h', S.h);
    ui.board.dataset.size = sizeStr();
    ui.board.setAttribute('aria-label', 'Puzzle board, ' + S.w + ' by ' + S.h);
    for (var t = 0; t < S.w * S.h; t++) {
      var el = document.createElement('div');
      el.className = t ? 'tile' : 'tile blank';
      el.dataset.tile = String(t);
      el.textContent = t ? String(t) : '';
      ui.board.appendChild(el);
      S.tileEls.push(el);
    }
    ui.board.classList.add('still');
  }

  function rowsText(cells) {
    var rows = [];
    for (var y = 0; y < S.h; y++) {
      rows.push(cells.slice(y * S.w, y * S.w + S.w).map(function (t) { return t || 'empty'; }).join(' '));
    }
    return rows.join('; ');
  }

  function render() {
    var b = blankIndex(), hint = {};
    for (var i = 0; i < S.hint.length; i++) {
      var n = b;
      for (var k = 0; k < S.hint[i].k && n >= 0; k++) n = neighbour(n, S.hint[i].d);
      if (n >= 0) hint[S.cells[n]] = S.hint[i].d;
    }
    S.cells.forEach(function (t, cell) {
      var el = S.tileEls[t];
      el.dataset.cell = String(cell);
      el.style.setProperty('--x', cell % S.w);
      el.style.setProperty('--y', Math.floor(cell / S.w));
      el.classList.toggle('home', t !== 0 && S.goal[cell] === t);
      if (hint[t]) {
        el.classList.add('hint');
        el.dataset.hint = TILE_ARROW[hint[t]];
      } else {
        el.classList.remove('hint');
        delete el.dataset.hint;
      }
    });
    if (ui.board.classList.contains('still')) {
      void ui.board.offsetWidth;   /* place the new tiles without sliding them */
      requestAnimationFrame(function () { ui.board.classList.remove('still'); });
    }
    ui.boardText.textContent = 'Rows from the top: ' + rowsText(S.cells) + '.';
    var m = S.history.length;
    ui.counter.textContent = m ? m + (m === 1 ? ' move' : ' moves') + ' made' : '';
    updateButtons();
    keepInUrl();
  }

  /* ---------- the address: a link opens the same position ---------- */

  var shownHash = '';

  function keepInUrl() {
    if (S.cells.length !== S.w * S.h || S.goal.length !== S.w * S.h) return;
    shownHash = '#size=' + sizeStr() + '&board=' + S.cells.join(',') + '&goal=' + S.goal.join(',') +
      (S.metric === 'mtm' ? '&metric=mtm' : '');
    if (location.hash !== shownHash) history.replaceState(null, '', shownHash);
  }

  /* The position a link names, or null. */
  function fromUrl() {
    var q = new URLSearchParams(location.hash.replace(/^#/, ''));
    if (!q.get('board')) return null;
    return { size: q.get('size') || '', board: q.get('board'), goal: q.get('goal') || '',
      metric: q.get('metric') === 'mtm' ? 'mtm' : 'stm' };
  }

  /* Open the position of a link; false if there is none. A link as this page
   * writes it (a size it plays, numbers apart) opens at once, whatever its
   * answer: a search that gives up leaves the position, its distance "not
   * known yet". A link in another notation is read by the API first. */
  function openLink() {
    var link = fromUrl();
    if (!link) return false;
    var epoch = ++S.epoch;
    stopSolving();
    setMetric(link.metric);
    if (link.size && S.sizes.indexOf(link.size) < 0) {
      if (!S.cells.length) startDefault(false);
      status('The link\u2019s position cannot be opened: this server has no tables for ' + link.size +
        ' boards (it plays ' + S.sizes.join(', ') + ').', 'error');
      return true;
    }
    if (link.size) {
      var wh = link.size.split('x'), n = wh[0] * wh[1];
      var cells = linkCells(link.board, n), goal = link.goal ? linkCells(link.goal, n) : defaultGoal(link.size);
      if (cells && goal) {
        switchSize(link.size, goal, cells);
        status('The position of the link: ' + link.size + '.');
        return true;
      }
    }
    status('Opening the position of the link\u2026');
    var params = withMetric({ start: link.board });
    if (link.size) params.size = link.size;
    if (link.goal) params.goal = link.goal;
    api('v1/solve', params).then(function (a) {
      if (epoch !== S.epoch) return;
      if (S.sizes.indexOf(a.size) < 0) throw ApiError('This server has no tables for ' + a.size + ' boards.', 404);
      switchSize(a.size, parseBoard(a.goal), parseBoard(a.start), a);
      status('The position of the link: ' + a.size + (a.solvable === false ? ', which cannot reach its goal.' : '.'),
        a.solvable === false ? 'warn' : '');
    }).catch(function (e) {
      if (epoch !== S.epoch) return;
      if (!S.cells.length) startDefault(false);
      status('The link\u2019s position cannot be opened. ' + e.message, 'error');
    });
    return true;
  }

  function renderGoal() {
    ui.goal.value = boardRows(S.goal);
    ui.goal.rows = S.h;
    ui.goalMini.textContent = '';
    ui.goalMini.style.setProperty('--w', S.w);
    S.goal.forEach(function (t) {
      var c = document.createElement('span');
      c.textContent = t ? String(t) : '';
      if (!t) c.className = 'blank';
      ui.goalMini.appendChild(c);
    });
  }

  function updateButtons() {
    var solving = !!S.solving;
    ui.solve.textContent = solving ? 'Stop' : 'Solve';
    ui.solve.setAttribute('aria-pressed', solving ? 'true' : 'false');
    ui.undo.disabled = !S.history.length;
  }

  function setPending() {
    ui.board.dataset.distance = '';
    ui.board.dataset.state = 'pending';
    ui.board.dataset.delta = '';
    ui.value.textContent = '\u2026';
    ui.value.classList.remove('unknown');
    ui.delta.textContent = fullTable() ? '' : 'searching\u2026';
    ui.delta.className = 'readout-delta';
  }

  function showAnswer(a) {
    var key = curKey(), b = ui.board, moved = S.last && S.last.to === key;
    ui.value.classList.remove('unknown');
    if (a.solvable === false || typeof a.distance !== 'number') {
      b.dataset.distance = '';
      b.dataset.state = 'unsolvable';
      b.dataset.delta = '';
      ui.value.textContent = 'unsolvable';
      ui.delta.textContent = '';
      status('This board cannot reach the goal (their tiles are in orders of opposite parity): ' +
        'scramble, load another board or set another goal.', 'warn');
      markChart(null);
      return;
    }
    var d = a.distance, way = '', text = '';
    b.dataset.distance = String(d);
    b.dataset.state = 'ready';
    ui.value.textContent = String(d);
    if (moved) {
      var prev = cache.get(S.last.from);
      if (prev && typeof prev.distance === 'number') {
        way = d < prev.distance ? 'closer' : d > prev.distance ? 'further' : '';
        text = way === 'closer' ? '\u25bc one move closer' : way === 'further' ? '\u25b2 one move further' : '';
      }
    }
    if (!S.history.length) S.startDistance = d;
    b.dataset.delta = way;
    ui.delta.textContent = text;
    ui.delta.className = 'readout-delta ' + way;
    if (S.announced !== key) {
      S.announced = key;
      say((moved ? S.last.text + '. ' : 'New board. ') + 'Distance ' + d +
        (way ? ', one move ' + way : '') + (d === 0 ? ': solved' : '') + '.');
    }
    if (d === 0) {
      if (S.history.length && !S.solving) {
        status('Solved in ' + S.history.length + ' moves' + (S.startDistance !== null
          ? ' (the fewest possible: ' + S.startDistance + ').' : '.'), 'good');
      } else if (!S.history.length) {
        status('This is the goal. Scramble to play.');
      }
    }
    markChart(d);
  }

  /* A search that gave up (its limits, its request's budget) leaves the board
   * as it is: its distance is not known yet. */
  function gaveUp(e) { return e.status === 422 || e.status === 429; }

  function showError(e) {
    var unknown = gaveUp(e);
    ui.board.dataset.distance = '';
    ui.board.dataset.state = unknown ? 'unknown' : 'error';
    ui.board.dataset.delta = '';
    ui.value.textContent = unknown ? 'not known yet' : '?';
    ui.value.classList.toggle('unknown', unknown);
    ui.delta.textContent = '';
    status(unknown ? 'The search gave up on this position within the time it has here: its distance ' +
      'is not known yet. Play on: positions closer to the goal are answered faster.' : e.message,
      unknown ? 'warn' : 'error');
    markChart(null);
  }

  function refresh() {
    var key = curKey(), a = cache.get(key);
    if (a) { showAnswer(a); return; }
    setPending();
    /* every best move costs a search per move on a board without a full
     * table: there the hint asks for them, the readout only the distance */
    answerFor(S.cells, S.goal, !!fullTable()).then(function (ans) {
      if (curKey() === key) showAnswer(ans);
    }, function (e) {
      if (e.name !== 'AbortError' && curKey() === key) showError(e);
    });
  }

  /* ---------- the chart ---------- */

  function drawChart() {
    var t = fullTable(), svg = ui.chart, NS = svg.namespaceURI;
    ui.chartBox.hidden = !t;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    S.bars = [];
    S.chart = null;
    if (!t || !Array.isArray(t.counts) || !t.counts.length) { ui.chartBox.hidden = true; return; }
    var counts = t.counts, n = counts.length, top = Math.max.apply(null, counts);
    var total = counts.reduce(function (s, c) { return s + c; }, 0);
    var W = 320, H = 150, L = 4, B = 18, T = 16, bw = (W - 2 * L) / n;
    var mk = function (name, attrs, parent) {
      var e = document.createElementNS(NS, name);
      for (var k in attrs) e.setAttribute(k, attrs[k]);
      (parent || svg).appendChild(e);
      return e;
    };
    mk('title', {}).textContent = 'Positions per distance to the goal, ' + t.size;
    counts.forEach(function (c, d) {
      var h = c ? Math.max(1, c / top * (H - T - B)) : 0;
      var r = mk('rect', {
        x: (L + d * bw + bw * 0.1).toFixed(2), y: (H - B - h).toFixed(2),
        width: (bw * 0.8).toFixed(2), height: h.toFixed(2), 'class': 'bar'
      });
      mk('title', {}, r).textContent = d + ' moves: ' + c + ' positions';
      S.bars.push(r);
      if (d % 5 === 0 || (d === n - 1 && d % 5 > 2)) {
        mk('text', { x: (L + d * bw + bw / 2).toFixed(2), y: H - 5, 'class': 'tick' }).textContent = String(d);
      }
    });
    mk('line', { x1: L, x2: W - L, y1: H - B + 0.5, y2: H - B + 0.5, 'class': 'axis' });
    S.chart = { counts: counts, total: total, bw: bw, L: L, H: H, B: B, T: T, top: top,
      marker: mk('path', { 'class': 'marker', d: 'M0,0' }) };
    markChart(ui.board.dataset.distance === '' ? null : Number(ui.board.dataset.distance));
  }

  function markChart(d) {
    var c = S.chart;
    if (!c) return;
    S.bars.forEach(function (r, i) { r.classList.toggle('current', i === d); });
    var fmt = function (v) { return v.toLocaleString('en-US'); };
    if (d === null || d === undefined || d >= c.counts.length) {
      c.marker.style.display = 'none';
      ui.chartCaption.textContent = 'Positions at each distance to the goal: ' + fmt(c.total) + ' in all.';
      return;
    }
    var x = c.L + d * c.bw + c.bw / 2;
    var y = c.H - c.B - (c.counts[d] ? Math.max(1, c.counts[d] / c.top * (c.H - c.T - c.B)) : 0) - 2;
    c.marker.setAttribute('d', 'M' + (x - 5).toFixed(1) + ',' + (y - 9).toFixed(1) + 'h10l-5,9z');
    c.marker.style.display = '';
    var pct = c.counts[d] / c.total * 100;
    ui.chartCaption.textContent = 'Positions at each distance to the goal. Yours is ' + d + ' moves away, like ' +
      fmt(c.counts[d]) + ' of the ' + fmt(c.total) + ' positions (' +
      (pct < 0.01 ? pct.toPrecision(1) : pct.toFixed(pct < 1 ? 2 : 1)) + '%).';
  }

  /* ---------- moves ---------- */

  /* The blank travels k cells (1 if not given) in direction dir: one move. */
  function move(dir, how, k) {
    k = k || 1;
    var next = applied(S.cells, dir, k);
    if (!next) return false;
    if (how !== 'solver') stopSolving();
    var from = curKey(), tiles = [];
    for (var i = 0, c = blankIndex(); i < k; i++) tiles.push(S.cells[c = neighbour(c, dir)]);
    S.cells = next;
    if (how === 'undo') S.history.pop(); else S.history.push({ d: dir, k: k });
    S.hint = [];
    S.last = { from: from, to: curKey(), text: (k > 1 ? 'Tiles ' + tiles.join(', ') : 'Tile ' + tiles[0]) +
      ' slid ' + TILE_WAY[dir] };
    if (how !== 'solver' && ui.status.dataset.kind !== 'error') status('');
    render();
    refresh();
    return true;
  }

  function undo() {
    if (!S.history.length) { status('Nothing to undo.'); return; }
    var last = S.history[S.history.length - 1];
    move(OPPOSITE[last.d], 'undo', last.k);
  }

  function setBoard(cells, answer) {
    stopSolving();
    S.cells = cells.slice();
    S.history = [];
    S.last = null;
    S.hint = [];
    S.startDistance = null;
    S.announced = '';
    if (answer) remember(answer, curKey());
    render();
    refresh();
  }

  function switchSize(size, goal, cells, answer) {
    var wh = size.split('x');
    S.w = Number(wh[0]);
    S.h = Number(wh[1]);
    S.goal = goal.slice();
    if (S.sizes.indexOf(size) >= 0) ui.size.value = size;
    /* a board typed for the last size is not one of this size */
    ui.paste.value = '';
    ui.paste.rows = S.h;
    ui.paste.placeholder = 'e.g. ' + example(S.w, S.h);
    buildTiles();
    renderGoal();
    updateLimits(true);
    drawChart();
    noteMetric();
    if (!answer && boardStr(cells) === boardStr(goal)) {
      answer = { start: boardStr(goal), goal: boardStr(goal), size: size, solvable: true, distance: 0,
        best_move: null, moves: '', best_moves: '' };
    }
    setBoard(cells, answer);
  }

  /* A board of w x h for the placeholder: the goal, its blank moved left and up. */
  function example(w, h) {
    var n = w * h, cells = [];
    for (var i = 1; i < n; i++) cells.push(String(i));
    cells.push('x');
    var b = n - 1, swap = function (to) { cells[b] = cells[to]; cells[to] = 'x'; b = to; };
    swap(b - 1);
    swap(b - w);
    var rows = [];
    for (var y = 0; y < h; y++) rows.push(cells.slice(y * w, y * w + w).join(' '));
    return rows.join('\n');
  }

  function stopSolving() {
    if (!S.solving) return false;
    S.solving.stop = true;
    clearTimeout(S.solving.timer);
    S.solving = null;
    updateButtons();
    return true;
  }

  function solve() {
    if (stopSolving()) { status('Stopped.'); return; }
    var key = curKey(), epoch = S.epoch;
    status(fullTable() ? '' : 'Searching for a solution\u2026');
    answerFor(S.cells, S.goal, false).then(function (a) {
      if (key !== curKey() || epoch !== S.epoch || S.solving) return;
      if (a.solvable === false || typeof a.moves !== 'string') {
        status('This board cannot reach the goal: there is no solution to play.', 'warn');
        return;
      }
      if (!a.moves.length) { status('Already at the goal.'); return; }
      var moves = movesOf(a.moves), d0 = a.distance, goal = boardStr(S.goal), i = 0;
      var run = { stop: false, timer: 0 };
      S.solving = run;
      updateButtons();
      status('Playing ' + moves.length + ' optimal moves: ' + a.moves + ' (Stop or Escape to stop).');
      var step = function () {
        if (run.stop) return;
        var next = applied(S.cells, moves[i].d, moves[i].k);
        if (!next) { stopSolving(); status('The solution does not fit this board.', 'error'); return; }
        var rest = moves.slice(i + 1).map(moveText).join('');
        remember({ start: boardStr(next), goal: goal, size: sizeStr(), solvable: true,
          distance: d0 - i - 1, best_move: rest ? rest[0] : null, moves: rest }, keyOf(next, S.goal));
        move(moves[i].d, 'solver', moves[i].k);
        i++;
        if (i < moves.length) {
          run.timer = setTimeout(step, SOLVE_STEP_MS);
        } else {
          S.solving = null;
          updateButtons();
          status('Solved: the goal in ' + moves.length + ' moves, the fewest possible.', 'good');
        }
      };
      step();
    }, function (e) {
      if (e.name !== 'AbortError' && key === curKey()) showError(e);
    });
  }

  function showHint() {
    var key = curKey();
    if (!S.hint.length && !fullTable()) status('Searching\u2026');
    answerFor(S.cells, S.goal, true).then(function (a) {
      if (key !== curKey()) return;
      if (a.solvable === false || typeof a.distance !== 'number') {
        status('This board cannot reach the goal: no move helps.', 'warn');
        return;
      }
      if (a.distance === 0) { status('Already at the goal.'); return; }
      /* STM: every best move. MTM: the first move of the answer, its slide's
       * length with it (the best directions alone do not say how far). */
      var best = S.metric === 'mtm' && a.moves ? movesOf(a.moves).slice(0, 1)
        : (typeof a.best_moves === 'string' ? a.best_moves : a.best_move || '').split('').map(function (d) {
          return { d: d, k: 1 };
        });
      S.hint = best;
      render();
      var b = blankIndex(), parts = best.map(function (m) {
        var c = b;
        for (var k = 0; k < m.k; k++) c = neighbour(c, m.d);
        return 'tile ' + S.cells[c] + ' ' + TILE_WAY[m.d] + (m.k > 1 ? ' (with the ' + (m.k - 1) +
          (m.k > 2 ? ' tiles' : ' tile') + ' before it)' : '');
      });
      status('Best ' + (parts.length > 1 ? 'moves' : 'move') + ': slide ' + parts.join(' or ') + '.');
    }, function (e) {
      if (e.name !== 'AbortError' && key === curKey()) showError(e);
    });
  }

  /* ---------- replacing the board ---------- */

  function scramble() {
    var lim = limits(), n = Number(ui.distance.value);
    if (!Number.isInteger(n) || n < lim.min || n > lim.max) {
      status('Choose a whole number from ' + lim.min + ' to ' + lim.max + '.', 'error');
      ui.distance.focus();
      return;
    }
    var epoch = ++S.epoch, params = withMetric({ size: sizeStr(), goal: boardStr(S.goal), count: 1, all_best: 1 });
    stopSolving();
    if (lim.walk) params.walk = n; else params.distance = n;
    status(lim.walk ? 'Scrambling by a random walk of ' + n + ' moves\u2026'
      : 'Drawing a board ' + n + ' moves from the goal\u2026');
    api('v1/random', params).then(function (arr) {
      if (epoch !== S.epoch) return;
      var a = Array.isArray(arr) ? arr[0] : arr;
      if (!a || typeof a.start !== 'string') throw ApiError('The server sent an answer this page cannot read.', 0);
      var cells = parseBoard(a.start);
      if (cells.length !== S.w * S.h) throw ApiError('The server drew a board of another size.', 0);
      setBoard(cells, a.goal === boardStr(S.goal) ? a : null);
      status(lim.walk ? 'New board, after a random walk of ' + n + ' moves.'
        : 'New board, ' + n + ' moves from the goal.');
    }).catch(function (e) {
      if (epoch === S.epoch) status(e.message, 'error');
    });
  }

  function loadBoard() {
    var text = ui.paste.value.trim();
    if (!text) { status('Type or paste a board first.', 'error'); ui.paste.focus(); return; }
    var epoch = ++S.epoch;
    stopSolving();
    status('Reading the board\u2026');
    api('v1/solve', withMetric({ start: text, goal: boardStr(S.goal), size: sizeStr(), all_best: 1 })).then(function (a) {
      if (epoch !== S.epoch) return;
      setBoard(parseBoard(a.start), a);
      if (a.solvable !== false) status('Board loaded.');
    }, function (e) {
      if (epoch !== S.epoch) return;
      if (e.status !== 400) { status(e.message, 'error'); return; }
      /* Maybe a board of another size: ask again with its own default goal. */
      api('v1/solve', withMetric({ start: text, all_best: 1 })).then(function (a) {
        if (epoch !== S.epoch) return;
        if (a.size === sizeStr() || S.sizes.indexOf(a.size) < 0) { status(e.message, 'error'); return; }
        switchSize(a.size, parseBoard(a.goal), parseBoard(a.start), a);
        if (a.solvable === false) {
          status('Loaded a ' + a.size + ' board, which cannot reach its goal ' + a.goal + ': set another goal.', 'warn');
        } else {
          status('Loaded a ' + a.size + ' board, with its goal ' + a.goal + '.');
        }
      }, function () {
        if (epoch === S.epoch) status(e.message, 'error');
      });
    });
  }

  /* The goal is read as a board of its own (the goal asked from itself: no
   * search, whatever the board), then the board is answered against it: a
   * search that gives up leaves the goal set and the distance not known yet.
   * A goal of another size starts from that goal. */
  function setGoal() {
    var text = ui.goal.value.trim();
    if (!text) { status('Type a goal first.', 'error'); ui.goal.focus(); return; }
    var epoch = ++S.epoch;
    stopSolving();
    status('Reading the goal\u2026');
    /* (the goal is asked as start and goal: its faults are the goal's) */
    var read = function (params) {
      return api('v1/solve', params).catch(function (e) {
        if (e.name === 'AbortError' || !e.detail) throw e;
        var said = e.detail.replace(/^(start|goal): /, 'goal: ');
        throw ApiError(friendly(said, e.status), e.status, said);
      });
    };
    read({ start: text, goal: text, size: sizeStr() }).catch(function (e) {
      if (e.status !== 400) throw e;
      return read({ start: text, goal: text }).catch(function () { throw e; });
    }).then(function (a) {
      if (epoch !== S.epoch) return;
      var g = parseBoard(a.goal);
      if (a.size !== sizeStr()) {
        if (S.sizes.indexOf(a.size) < 0) throw ApiError('This server has no tables for ' + a.size + ' boards.', 404);
        switchSize(a.size, g, g, a);
        status('Goal set, on a ' + a.size + ' board: press Scramble to play.');
        return;
      }
      S.goal = g;
      renderGoal();
      updateLimits(false);
      drawChart();
      setBoard(S.cells);
      status('Goal set.');
    }).catch(function (e) {
      if (epoch === S.epoch) status(e.message, 'error');
    });
  }

  /* The page's metric, shown in its picker, and whether this board has its table. */
  function setMetric(metric) {
    S.metric = metric === 'mtm' ? 'mtm' : 'stm';
    ui.metric.value = S.metric;
    noteMetric();
  }
  /* Past 14 cells there are no full tables: the server searches in MTM. */
  function noteMetric() {
    ui.metricNote.textContent = S.metric !== 'mtm' || fullTable() ? ''
      : S.w * S.h > 14 ? 'answered by a search in this metric: a hint may take seconds'
      : 'this server has no multi-tile table for this goal (slidedb-gen full ' + sizeStr() +
        ' --metric mtm builds it)';
  }

  function changeSize() {
    var size = ui.size.value, g = defaultGoal(size);
    S.epoch++;
    switchSize(size, g, g);
    scramble();
  }

  /* ---------- input ---------- */

  function wire() {
    ui.board.addEventListener('click', function (e) {
      if (Date.now() - lastSwipe < 400) return;
      var el = e.target.closest('[data-tile]');
      if (!el || el.dataset.tile === '0') return;
      var m = moveTo(Number(el.dataset.cell));
      if (m) move(m.d, 'user', m.k);
      else status(S.metric === 'mtm' ? 'Only a tile in the empty cell\u2019s row or column can slide.'
        : 'Only a tile next to the empty cell can slide.');
    });
    var down = null;
    ui.board.addEventListener('pointerdown', function (e) {
      down = { x: e.clientX, y: e.clientY, id: e.pointerId };
    });
    ui.board.addEventListener('pointerup', function (e) {
      if (!down || down.id !== e.pointerId) return;
      var dx = e.clientX - down.x, dy = e.clientY - down.y;
      down = null;
      var min = Math.max(24, ui.board.clientWidth / S.w / 4);
      if (Math.max(Math.abs(dx), Math.abs(dy)) < min) return;
      lastSwipe = Date.now();
      /* A swipe slides a tile the swipe's way, like the arrow keys. */
      var dir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'l' : 'r') : (dy > 0 ? 'u' : 'd');
      if (!move(dir, 'user')) status('No tile can slide ' + TILE_WAY[dir] + '.');
    });
    ui.board.addEventListener('pointercancel', function () { down = null; });
    ui.board.addEventListener('keydown', function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var dir = KEY_MOVE[e.key];
      if (dir) {
        e.preventDefault();
        if (!move(dir, 'user')) status('No tile can slide ' + TILE_WAY[dir] + '.');
      } else if (e.key === 'h' || e.key === 'H') {
        e.preventDefault();
        showHint();
      } else if (e.key === 'u' || e.key === 'U' || e.key === 'Backspace') {
        e.preventDefault();
        undo();
      }
    });
    document.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && stopSolving()) status('Stopped.');
    });
    ui.hint.addEventListener('click', showHint);
    ui.solve.addEventListener('click', solve);
    ui.undo.addEventListener('click', undo);
    ui.size.addEventListener('change', changeSize);
    ui.metric.addEventListener('change', function () {
      S.epoch++;
      setMetric(ui.metric.value);
      updateLimits(true);
      drawChart();
      setBoard(S.cells);
      status(S.metric === 'mtm' ? 'A move now slides every tile between the empty cell and the tile ' +
        'clicked in its row or column.' : 'A move now slides one tile.');
    });
    var submit = function (form, fn) {
      form.addEventListener('submit', function (e) { e.preventDefault(); fn(); });
      /* a box of rows: Enter submits, as in a one-line field; Shift+Enter is a new row */
      Array.prototype.forEach.call(form.querySelectorAll('textarea'), function (box) {
        box.addEventListener('keydown', function (e) {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            fn();
          }
        });
      });
    };
    submit(ui.scrambleForm, scramble);
    submit(ui.pasteForm, loadBoard);
    submit(ui.goalForm, setGoal);
  }

  function sizeOrder(a, b) {
    var p = a.split('x').map(Number), q = b.split('x').map(Number);
    return p[0] * p[1] - q[0] * q[1] || p[0] - q[0] || p[1] - q[1];
  }

  /* The goal of the default size; scrambled, unless a message must stay. */
  function startDefault(scrambled) {
    var size = S.sizes.indexOf('3x3') >= 0 ? '3x3' : S.sizes[0], g = defaultGoal(size);
    switchSize(size, g, g);
    if (scrambled) scramble();
  }

  function init() {
    wire();
    updateButtons();
    api('v1/tables', {}).then(function (info) {
      S.tables = info && Array.isArray(info.tables) ? info.tables.filter(function (t) {
        return t && typeof t.size === 'string' && /^\d+x\d+$/.test(t.size);
      }) : [];
      if (!S.tables.length) {
        ui.board.dataset.state = 'error';
        status('The database holds no tables: build some with slidedb-gen (slidedb-gen full 3x3).', 'error');
        return;
      }
      S.sizes = S.tables.map(function (t) { return t.size; })
        .filter(function (s, i, all) { return all.indexOf(s) === i; }).sort(sizeOrder);
      ui.size.textContent = '';
      S.sizes.forEach(function (s) {
        var o = document.createElement('option'), full = S.tables.some(function (t) {
          return t.size === s && t.kind === 'full';
        });
        o.value = s;
        o.textContent = s + (full ? '' : ' (search)');
        ui.size.appendChild(o);
      });
      ui.size.disabled = false;
      if (!openLink()) startDefault(true);
      window.addEventListener('hashchange', function () {
        if (location.hash !== shownHash) openLink();
      });
    }, function (e) {
      ui.board.dataset.state = 'error';
      status('Cannot read the server\u2019s tables. ' + e.message, 'error');
    });
  }

  init();
})();
