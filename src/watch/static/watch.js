// arena watch: the page's own script. It fetches the figures every second
// and redraws them in place; every text from a run is set with
// textContent, never parsed as HTML (the report's sections come as HTML
// the server escaped, and are parsed inertly with DOMParser).
'use strict';
(function () {
  var PERIOD = 1000;
  var FIGURES_EVERY = 3;

  function byId(id) { return document.getElementById(id); }
  function setText(id, value) { var e = byId(id); if (e) { e.textContent = value; } }
  function num(x, digits) {
    return (typeof x === 'number' && isFinite(x)) ? x.toFixed(digits) : '–';
  }
  function when(unix) {
    if (!unix) { return '–'; }
    var ago = Math.max(0, Math.round(Date.now() / 1000 - unix));
    var d = new Date(unix * 1000);
    return d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC (' + ago + ' s ago)';
  }
  function cells(tbody, rows) {
    var fresh = document.createElement('tbody');
    fresh.id = tbody.id;
    rows.forEach(function (row) {
      var tr = document.createElement('tr');
      row.forEach(function (cell) {
        var td = document.createElement('td');
        if (cell && typeof cell === 'object') {
          if (cell.href) {
            var a = document.createElement('a');
            a.href = cell.href;
            a.textContent = cell.text;
            td.appendChild(a);
          } else {
            td.textContent = cell.text;
          }
          if (cell.cls) { td.className = cell.cls; }
        } else {
          td.textContent = String(cell);
        }
        tr.appendChild(td);
      });
      fresh.appendChild(tr);
    });
    tbody.replaceWith(fresh);
  }
  function href(name) {
    return '/run/' + name.split('/').map(encodeURIComponent).join('/') + '/';
  }

  function index() {
    fetch('/runs.json', { cache: 'no-store' }).then(function (r) { return r.json(); }).then(function (rows) {
      var tbody = document.querySelector('#runs tbody');
      cells(tbody, rows.map(function (r) {
        return [{ href: href(r.name), text: r.name }, r.kind, { text: r.state, cls: 'state' },
          { text: String(r.games), cls: 'num' }, { text: num(r.games_a_minute, 1), cls: 'num' },
          r.figures, when(r.last_game)];
      }));
    }).catch(function () {});
  }

  var updates = 0;
  var firstGames = null;
  function run() {
    fetch('live.json', { cache: 'no-store' }).then(function (r) { return r.json(); }).then(function (live) {
      updates += 1;
      if (firstGames === null) {
        firstGames = live.games;
        byId('updates').setAttribute('data-first-games', String(firstGames));
      }
      setText('updates', String(updates));
      setText('kind', live.kind);
      setText('state', live.state);
      setText('games', String(live.games));
      setText('rate', num(live.games_a_minute, 1));
      setText('left', live.pairs_left === null ? '–' : String(live.pairs_left));
      setText('figures-line', live.figures);
      setText('last-game', when(live.last_game));
      setText('problem', live.problem || '');
      var h2h = live.results && live.results.head_to_head;
      // The SPRT's figures are flattened into the head-to-head's.
      var sprt = h2h && typeof h2h.llr === 'number' ? h2h : null;
      setText('llr', sprt ? num(sprt.llr, 2) + ' (' + num(sprt.lower_bound, 2) + ', ' + num(sprt.upper_bound, 2) + ')' : '–');
      var tune = live.results && live.results.tune;
      byId('tune-live').hidden = !tune;
      if (tune) {
        cells(byId('theta'), tune.params.map(function (p, i) {
          var g = live.gains[i] || {};
          return [p.field, { text: num(p.start, 3), cls: 'num' }, { text: num(p.value, 3), cls: 'num' },
            { text: num(p.min, 3), cls: 'num' }, { text: num(p.max, 3), cls: 'num' },
            { text: num(g.c, 4), cls: 'num' }, { text: num(g.a, 6), cls: 'num' }];
        }));
      }
      byId('workers-live').hidden = live.workers.length === 0;
      cells(byId('workers'), live.workers.map(function (w) {
        return [w.id, w.host, { text: String(w.pid), cls: 'num' }, { text: String(w.games), cls: 'num' },
          { text: w.heartbeat_age_s === null ? '–' : w.heartbeat_age_s + ' s ago', cls: 'num' }, w.state];
      }));
      cells(byId('last-games'), live.last_games.map(function (g) {
        return [{ text: String(g.game_id), cls: 'num' }, g.black, g.white,
          { text: num(g.result, 1) + ' (' + (g.disc_diff > 0 ? '+' : '') + g.disc_diff + ')', cls: 'num' },
          { text: g.reason, cls: g.forfeit ? 'forfeit' : '' }];
      }));
      if (updates % FIGURES_EVERY === 1) { figures(); }
    }).catch(function () {});
  }
  function figures() {
    fetch('figures.html', { cache: 'no-store' }).then(function (r) { return r.text(); }).then(function (text) {
      var doc = new DOMParser().parseFromString('<main>' + text + '</main>', 'text/html');
      var main = doc.querySelector('main');
      byId('figures').replaceChildren.apply(byId('figures'), Array.prototype.slice.call(main.childNodes));
    }).catch(function () {});
  }

  function start() {
    var tick = document.body.id === 'index' ? index : run;
    tick();
    setInterval(tick, PERIOD);
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
