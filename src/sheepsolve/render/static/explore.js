// sheepsolve explore: step through a hand, see every card's value, try other cards, play on against the engine.
// Plain JavaScript, no library. Every string from the record is put in the page as text (textContent), never as
// markup; the only markup inserted is what the app rendered through its autoescaping templates (the chart).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("explore-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var MAX_LINES = 200;  // variations kept on the page
  var st = {
    sel: D.main.slice(),          // the line selected (the main line, or a variation), maybe beyond the position
    cur: 0,                       // cards of sel played at the position shown
    lines: [D.main.slice()],      // every line explored, the main line first
    table: null,                  // the table at the position shown
    values: null,
    seatView: D.seat || "",
    play: null,                   // {seat, since} while playing against the engine
    hint: null
  };
  var cache = new Map();
  window.sheepsolveEngineDelay = 600;  // ms before an engine card is played (tests set it lower)

  function key(line) { return line.join("."); }
  function label(n) {
    if (n === 0) { return "start"; }
    return "t" + (Math.floor((n - 1) / D.seats) + 1) + "." + ((n - 1) % D.seats + 1);
  }
  function common(a, b) { var i = 0; while (i < a.length && i < b.length && a[i] === b[i]) { i += 1; } return i; }
  function line() { return st.sel.slice(0, st.cur); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function face(card, cls) {
    var f = document.querySelector('#faces [data-card="' + card + '"]');
    var e = f ? f.cloneNode(true) : el("span", "c", card);
    if (cls) { e.classList.add(cls); }
    return e;
  }
  function back() { return el("span", "c back", ""); }

  // ---- talking to the app ----
  function api(method, path, body) {
    var opts = { method: method, headers: { "X-Sheepsolve-Token": D.token } };
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    return fetch(path, opts).then(function (r) {
      return r.text().then(function (t) {
        var data = null;
        try { data = JSON.parse(t); } catch (e) { data = { error: t || ("HTTP " + r.status) }; }
        if (!r.ok) { throw new Error(data.error || ("HTTP " + r.status)); }
        return data;
      });
    });
  }
  function position(l) {
    var k = key(l);
    if (cache.has(k)) { return Promise.resolve(cache.get(k)); }
    return api("POST", "/api/position", { line: l }).then(function (t) {
      if (cache.size > 300) { cache.delete(cache.keys().next().value); }
      cache.set(k, t);
      return t;
    });
  }
  var running = {};  // lane -> job id
  function job(kind, l, extra, onProgress) {
    var body = { kind: kind, line: l };
    if (extra) { Object.keys(extra).forEach(function (k) { body[k] = extra[k]; }); }
    return api("POST", "/api/jobs", body).then(function (j) {
      running[kind] = j.id;
      function poll() {
        return api("GET", "/api/jobs/" + j.id + "?wait=0.5").then(function (s) {
          if (running[kind] !== j.id) { return null; }  // replaced by a newer job
          if (s.status === "done") { delete running[kind]; return s.result; }
          if (s.status === "error") { delete running[kind]; throw new Error(s.error); }
          if (s.status === "cancelled") { delete running[kind]; return null; }
          if (onProgress) { onProgress(s.done, s.total); }
          return poll();
        });
      }
      return poll();
    });
  }
  function cancel(kind) {
    var id = running[kind];
    if (id) { delete running[kind]; api("POST", "/api/jobs/" + id + "/cancel", {}).catch(function () {}); }
  }

  function showError(msg) { var e = $("error"); e.textContent = msg; e.hidden = !msg; }
  function showStatus(msg) { var e = $("status"); e.textContent = msg; e.hidden = !msg; }

  // ---- the address ----
  function address() {
    var l = line();
    var k = common(l, D.main);
    var h = "#" + label(k);
    if (k < l.length) { h += "+" + l.slice(k).join("."); }
    return h;
  }
  function fromAddress() {
    var h = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (!h) { return null; }
    var m = /^(start|t(\d+)\.(\d+))(?:\+([A-Za-z0-9.]+))?$/.exec(h);
    if (!m) { return null; }
    var n = m[1] === "start" ? 0 : (parseInt(m[2], 10) - 1) * D.seats + parseInt(m[3], 10);
    if (n > D.main.length) { return null; }
    var l = D.main.slice(0, n);
    if (m[4]) { l = l.concat(m[4].split(".").filter(Boolean)); }
    return l;
  }

  // ---- going to a position ----
  function go(l, sel) {
    showError("");
    return position(l).then(function (t) {
      if (sel) { st.sel = sel; } else if (common(l, st.sel) < l.length) { st.sel = l.slice(); }
      st.cur = l.length;
      st.table = t;
      st.values = null;
      st.hint = null;
      remember(st.sel);
      if (location.hash !== address()) { history.replaceState(null, "", address()); }
      render();
      judge();
      return t;
    }, function (e) { showError(e.message); throw e; });
  }
  function remember(l) {
    if (st.lines.some(function (x) { return common(x, l) === l.length; })) { return; }
    st.lines = st.lines.filter(function (x) { return x === st.lines[0] || common(x, l) < x.length; });
    if (st.lines.length >= MAX_LINES) { st.lines.splice(1, 1); }
    st.lines.push(l.slice());
  }
  function step(n) {
    var to = Math.max(0, Math.min(st.sel.length, n));
    if (to !== st.cur) { go(st.sel.slice(0, to), st.sel).catch(function () {}); }
  }
  function playCard(card) {
    if (!st.table || !st.table.can_vary) { showError("Trying other cards needs every hand of the record."); return; }
    var l = line().concat([card]);
    var sel = st.sel[st.cur] === card ? st.sel : l;
    return go(l, sel).then(function () { if (st.play) { setTimeout(engineTurn, 0); } }, function () {});
  }

  // ---- drawing the table ----
  function render() {
    var t = st.table;
    $("where").textContent = label(st.cur) + (common(line(), D.main) < st.cur ? " (variation)" : "");
    $("contract").textContent = t.header.length ? t.header[0] : "The table";
    var hd = $("header"); hd.textContent = "";
    t.header.slice(1).forEach(function (s) { hd.appendChild(el("div", "", s)); });
    drawSeats(t);
    drawTrick(t);
    drawScore(t);
    drawMoves();
    drawLines();
    $("values").textContent = "";
    $("values-legend").textContent = "";
    $("judgement").hidden = !!st.play;
    $("download").disabled = !t.can_vary;
    $("bestline").disabled = !t.can_vary || t.finished || !!st.play;
    $("hint").disabled = !t.can_vary || t.finished || !!st.play;
    $("playstart").disabled = !t.can_vary || t.finished || !!st.play;
    $("playstop").hidden = !st.play; $("playstart").hidden = !!st.play;
    ["first", "back", "forward", "last"].forEach(function (id) { $(id).disabled = !!st.play; });
    if (!st.play) { $("result").hidden = true; }
    markChart();
  }
  function hidden(seatName) {  // an ouvert declarer's hand is open to every seat
    var open = st.table && st.table.open ? st.table.open : [];
    return st.seatView && seatName !== st.seatView && open.indexOf(seatName) < 0;
  }
  function drawSeats(t) {
    var box = $("seats"); box.textContent = "";
    t.players.forEach(function (p, s) {
      var h = el("div", "hand" + (t.to_move === p ? " tomove" : ""));
      h.setAttribute("data-seat", p);
      var who = el("div", "who", p);
      var role = t.roles[p];
      if (role) { who.appendChild(el("span", "tag" + (role === "declarer" || role === "picker" ? " decl" : ""), role)); }
      who.appendChild(el("span", "pts", (t.points[p] || 0) + " points, " + (t.tricks[p] || 0) + " tricks"));
      h.appendChild(who);
      var cards = el("div", "cards");
      var now = t.hands_now[s];
      var mover = t.to_move === p && !t.finished;
      var mine = !st.play || st.play.seat === p;
      if (now.cards === null || hidden(p)) {
        for (var i = 0; i < now.left; i += 1) { cards.appendChild(back()); }
        if (now.cards === null) { cards.appendChild(el("span", "legend", " (not in the record)")); }
      } else {
        now.cards.forEach(function (c) {
          var legal = t.legal && t.legal.indexOf(c) >= 0;
          if (mover && mine) {
            var b = el("button", "cardbtn" + (legal ? " legal" : " notlegal"));
            b.type = "button"; b.setAttribute("data-card", c); b.title = legal ? "play it" : "not legal here";
            b.appendChild(face(c));
            b.appendChild(el("span", "val", ""));
            b.addEventListener("click", function () { playCard(c); });
            cards.appendChild(b);
          } else {
            cards.appendChild(face(c));
          }
        });
      }
      h.appendChild(cards);
      box.appendChild(h);
    });
  }
  function drawPlays(box, tr) {
    box.textContent = "";
    if (!tr) { return; }
    tr.cards.forEach(function (c, i) {
      var p = el("div", "play" + (tr.winner === tr.players[i] ? " win" : ""));
      p.appendChild(el("div", "p", tr.players[i]));
      p.appendChild(face(c));
      box.appendChild(p);
    });
  }
  function drawTrick(t) {
    drawPlays($("trick"), t.current_trick);
    drawPlays($("lasttrick"), t.tricks_played.length ? t.tricks_played[t.tricks_played.length - 1] : null);
  }
  function drawScore(t) {
    var box = $("score"); box.textContent = "";
    if (t.side_points) {
      box.appendChild(el("div", "", "Declaring side " + t.side_points.declaring + " points (" + t.side_tricks.declaring +
        " tricks), defenders " + t.side_points.defending + " (" + t.side_tricks.defending + ")"));
    }
    if (t.finished) {
      box.appendChild(el("div", "res", "Result: " + (t.result_text || t.no_result || "none")));
      if (t.payments) {
        var tab = el("table", "pay");
        var tr0 = el("tr"); ["player", "points", "payment"].forEach(function (h) { tr0.appendChild(el("th", "", h)); });
        tab.appendChild(tr0);
        t.players.forEach(function (p) {
          var tr = el("tr"); tr.setAttribute("data-player", p);
          tr.appendChild(el("td", "", p));
          tr.appendChild(el("td", "n pts", t.points[p]));
          var pay = t.payments[p];
          tr.appendChild(el("td", "n payment", (pay > 0 ? "+" : "") + pay));
          tab.appendChild(tr);
        });
        box.appendChild(tab);
      }
    } else if (t.to_move) {
      box.appendChild(el("div", "", t.to_move + " to " + (t.current_trick ? "play" : "lead")));
    }
  }
  function drawMoves() {
    var box = $("moves"); box.textContent = "";
    var sel = st.sel, k = common(sel, D.main);
    position(sel).then(function (t) {
      if (sel !== st.sel) { return; }
      box.textContent = "";
      var n = 0;
      var all = t.tricks_played.concat(t.current_trick ? [t.current_trick] : []);
      all.forEach(function (tr) {
        var row = el("div", "mrow");
        row.appendChild(el("b", "", tr.number + "."));
        tr.cards.forEach(function (c, i) {
          n += 1;
          var at = n;
          var b = el("button", "mv" + (at === st.cur ? " now" : "") + (at > k ? " var" : ""));
          b.type = "button"; b.setAttribute("data-at", label(at));
          b.appendChild(el("span", "who", tr.players[i]));
          b.appendChild(face(c, "in"));
          b.addEventListener("click", function () { step(at); });
          row.appendChild(b);
        });
        if (tr.winner) { row.appendChild(el("span", "legend", " \u2192 " + tr.winner + " (" + tr.points + ")")); }
        box.appendChild(row);
      });
      chart(sel);
    }).catch(function () {});
  }
  function drawLines() {
    // the lines as a tree: each variation under the line it leaves latest, at the card where it leaves it
    var box = $("lines"); box.textContent = "";
    var parent = st.lines.map(function (l, i) {
      var best = -1, at = -1;
      for (var j = 0; j < i; j += 1) { var k = common(l, st.lines[j]); if (k > at) { at = k; best = j; } }
      return best;
    });
    function add(i, depth) {
      var l = st.lines[i];
      var k = i === 0 ? 0 : common(l, st.lines[parent[i]]);
      var li = el("li", common(l, st.sel) === l.length && l.length === st.sel.length ? "now" : "");
      li.style.marginLeft = (depth * 22) + "px";
      var b = el("button", "ln", i === 0 ? "the record's line (" + l.length + " cards)" :
        "\u21b3 after " + label(k) + ": " + l.slice(k, k + 6).join(" ") + (l.length - k > 6 ? " \u2026" : "") +
        " (to " + label(l.length) + ")");
      b.type = "button";
      b.addEventListener("click", function () { go(l.slice(0, Math.max(k + 1, Math.min(st.cur, l.length))), l).catch(function () {}); });
      li.appendChild(b);
      box.appendChild(li);
      st.lines.map(function (x, j) { return j; }).filter(function (j) { return parent[j] === i; })
        .sort(function (a, b2) { return common(st.lines[a], l) - common(st.lines[b2], l); })
        .forEach(function (j) { add(j, depth + 1); });
    }
    if (st.lines.length) { add(0, 0); }
  }

  // ---- the judgement of every card ----
  function judge() {
    cancel("values"); cancel("view");
    var t = st.table, l = line();
    if (st.play) { return; }
    var vb = $("values");
    if (!t.can_vary) {
      vb.textContent = "";
      vb.appendChild(el("div", "legend", t.finished ? "The hand is over." : D.sie ? "A Sie is not played out." :
        "Double-dummy values need every hand: " + (t.missing || []).join("; ") + "."));
    } else if (t.finished) {
      vb.textContent = "";
      vb.appendChild(el("div", "legend", "The hand is over: " + (t.result_text || t.no_result || "no result") + "."));
    } else {
      $("valuesjob").textContent = "solving\u2026";
      job("values", l).then(function (v) {
        $("valuesjob").textContent = "";
        if (!v || key(v.line) !== key(line())) { return; }
        st.values = v;
        drawValues(v);
      }, function (e) { $("valuesjob").textContent = ""; showError(e.message); });
    }
    if ($("viewswitch").checked) { playerView(); } else { $("viewpanel").hidden = true; }
  }
  function costClass(cost, won, wonBest) {
    // red: 10 points or more, or the game won or lost by this card (the server's verdict by the game's own
    // scoring: 61, a Skat game's announcements and bid, a null declarer's trick), as the chart's dots
    var swing = won !== null && won !== undefined && won !== wonBest;
    return cost === 0 ? "best" : (cost >= 10 || swing) ? "large" : "small";
  }
  function hiddenMover() {
    var t = st.table;
    if (t && t.to_move && hidden(t.to_move)) {
      return t.to_move + "'s cards are hidden in " + st.seatView + "'s view (choose every hand to see them).";
    }
    return "";
  }
  function drawValues(v) {
    var box = $("values"); box.textContent = "";
    if (hiddenMover()) { box.appendChild(el("div", "legend", hiddenMover())); return; }
    var wonBest = v.won && v.best.length ? v.won[v.best[0]] : null;
    Object.keys(v.cards).forEach(function (c) {
      var cost = v.costs[c];
      var cls = costClass(cost, v.won ? v.won[c] : null, wonBest);
      var cell = el("div", "cv " + cls);
      cell.setAttribute("data-card", c);
      var b = el("button", "cardbtn legal"); b.type = "button"; b.appendChild(face(c));
      b.addEventListener("click", function () { playCard(c); });
      cell.appendChild(b);
      cell.appendChild(el("div", "v", v.cards[c]));
      cell.appendChild(el("div", "cost", cost === 0 ? "best" : "\u2212" + cost));
      box.appendChild(cell);
      var inHand = document.querySelector('#seats button.cardbtn[data-card="' + c + '"]');
      if (inHand) {
        inHand.classList.add(cls);
        inHand.querySelector(".val").textContent = String(v.cards[c]);
      }
    });
    $("values-legend").textContent = (D.two_sided ? "The declaring side's final card points" :
      "The mover's own final card points, every other player against him (lower is better)") +
      " with perfect play after each card (double dummy), and what it gives away against the best: green best, " +
      "orange under 10 points, red 10 or more or the game won or lost by it (by the game's own rule). Outcome with best play: " + (v.outcome || "\u2013") + ".";
  }

  // ---- the player's view (background, with progress, cancellable) ----
  function playerView() {
    var l = line(), t = st.table;
    $("viewpanel").hidden = false;
    var box = $("view"); box.textContent = ""; $("beliefs").textContent = "";
    if (t.finished) { box.appendChild(el("div", "legend", "The hand is over.")); return; }
    $("viewcancel").hidden = false;
    $("viewjob").textContent = "0 of " + D.worlds + " worlds";
    job("view", l, null, function (d, n) { $("viewjob").textContent = d + " of " + n + " worlds"; }).then(function (v) {
      $("viewcancel").hidden = true;
      if (!v) { $("viewjob").textContent = "cancelled"; return; }
      if (key(v.line) !== key(line())) { return; }
      $("viewjob").textContent = v.worlds + " worlds";
      drawView(v);
    }, function (e) { $("viewcancel").hidden = true; $("viewjob").textContent = ""; box.appendChild(el("div", "note e1", e.message)); });
  }
  function pct(x) { return x === null || x === undefined ? "\u2013" : Math.round(100 * x) + "%"; }
  function num(x, nd) { return x === null || x === undefined ? "\u2013" : Number(x).toFixed(nd === undefined ? 1 : nd); }
  function drawView(v) {
    var box = $("view"); box.textContent = "";
    $("beliefs").textContent = "";
    if (hiddenMover()) { box.appendChild(el("div", "legend", hiddenMover())); return; }
    var worth = v.effective_worlds !== null && v.effective_worlds !== v.worlds ?
      ", worth " + num(v.effective_worlds) + " uniform worlds" : "";
    box.appendChild(el("div", "legend", v.seat + "'s own view: " + v.worlds + " worlds of the cards " + v.seat +
      " cannot see" + worth + ", each solved double dummy (as sheepsolve suggest). " + (v.side === "self" ?
      "Values: his own final card points (lower is better)." : "Values: the declaring side's final card points.") +
      " Worlds: " + v.assumes_text + "."));
    var tab = el("table", "viewtab");
    var hr = el("tr");
    ["card", "mean", "\u00b1", "vs best", "61+", "payment", "double dummy", ""].forEach(function (h) { hr.appendChild(el("th", "", h)); });
    tab.appendChild(hr);
    Object.keys(v.cards).forEach(function (c) {
      var s = v.cards[c];
      var tr = el("tr", v.best.indexOf(c) >= 0 ? "best" : "");
      tr.setAttribute("data-card", c);
      var td = el("td"); td.appendChild(face(c, "sm")); tr.appendChild(td);
      tr.appendChild(el("td", "n mean", num(s.mean)));
      tr.appendChild(el("td", "n", num(s.stderr)));
      tr.appendChild(el("td", "n", s.vs_best ? "\u2212" + num(s.vs_best) : ""));
      tr.appendChild(el("td", "n", pct(s.p61)));
      tr.appendChild(el("td", "n", s.payment === null ? "\u2013" : num(s.payment, 2)));
      tr.appendChild(el("td", "n", v.double_dummy ? v.double_dummy[c] : "\u2013"));
      tr.appendChild(el("td", "", v.best.indexOf(c) >= 0 ? (c === v.top ? "best" : "within noise") : ""));
      tab.appendChild(tr);
    });
    box.appendChild(tab);
    box.appendChild(el("div", "legend caveat", v.caveat.charAt(0).toUpperCase() + v.caveat.slice(1) + "."));
    var bl = $("beliefs"); bl.textContent = "";
    var cards = Object.keys(v.beliefs);
    if (!cards.length) { return; }
    bl.appendChild(el("h3", "", "Where " + v.seat + " believes the unseen cards are"));
    var bt = el("div", "beliefs");
    cards.forEach(function (c) {
      var cell = el("div", "belief");
      cell.appendChild(face(c, "sm"));
      var where = v.beliefs[c];
      Object.keys(where).forEach(function (who) { cell.appendChild(el("div", "b", who + " " + pct(where[who]))); });
      bt.appendChild(cell);
    });
    bl.appendChild(bt);
  }

  // ---- the value chart ----
  var chartOf = null;
  function chart(sel) {
    if (!D.complete || !D.two_sided || !sel.length) { $("chart").textContent = D.two_sided ? "" : "No chart in a game without sides."; chartOf = null; return; }
    if (chartOf === key(sel)) { markChart(); return; }
    chartOf = key(sel);
    job("chart", sel).then(function (c) {
      if (!c || chartOf !== key(sel)) { return; }
      var box = $("chart");
      box.innerHTML = c.svg;  // rendered by the app's autoescaping template: numbers and fixed words only
      box.setAttribute("data-geometry", JSON.stringify(c.geometry));
      var svg = box.querySelector("svg");
      svg.addEventListener("click", function (ev) {
        var g = c.geometry, r = svg.getBoundingClientRect();
        var x = (ev.clientX - r.left) * g.width / r.width;
        var n = Math.max(Math.ceil(g.cards / g.seats) * g.seats, g.seats);
        var i = Math.round((x - g.left) * n / (g.right - g.left));
        if (i >= 0 && i <= g.cards) { step(i); }
      });
      markChart();
    }, function () {});
  }
  function markChart() {
    var box = $("chart"), svg = box.querySelector("svg");
    if (!svg || chartOf !== key(st.sel)) { return; }
    var g = JSON.parse(box.getAttribute("data-geometry"));
    var old = svg.querySelector(".nowmark"); if (old) { old.remove(); }
    var n = Math.max(Math.ceil(g.cards / g.seats) * g.seats, g.seats);
    var x = g.left + (g.right - g.left) * st.cur / n;
    var m = document.createElementNS("http://www.w3.org/2000/svg", "line");
    m.setAttribute("class", "nowmark"); m.setAttribute("x1", x); m.setAttribute("x2", x);
    m.setAttribute("y1", 10); m.setAttribute("y2", 190);
    svg.appendChild(m);
  }

  // ---- hint, best line, download ----
  $("hint").addEventListener("click", function () {
    var v = st.values;
    if (!v || key(v.line) !== key(line())) { showStatus("Still solving; try again in a moment."); return; }
    document.querySelectorAll("#seats button.cardbtn.hinted").forEach(function (b) { b.classList.remove("hinted"); });
    v.best.forEach(function (c) {
      var b = document.querySelector('#seats button.cardbtn[data-card="' + c + '"]');
      if (b) { b.classList.add("hinted"); }
    });
    showStatus("Hint: " + v.best.join(" or ") + " (" + v.value + ").");
  });
  $("bestline").addEventListener("click", function () {
    var l = line();
    showStatus("Finding the best line\u2026");
    job("bestline", l).then(function (r) {
      if (!r) { return; }
      showStatus("The best line from " + label(l.length) + ": " + r.best.join(" ") + ".");
      var full = l.concat(r.best);
      go(full, full).catch(function () {});
    }, function (e) { showError(e.message); });
  });
  $("download").addEventListener("click", function () {
    var a = document.createElement("a");
    a.href = "/api/variation?line=" + encodeURIComponent(st.sel.join(" ")) + "&token=" + encodeURIComponent(D.token);
    a.download = "variation.toml";
    document.body.appendChild(a); a.click(); a.remove();
    showStatus("Downloaded the line shown (" + st.sel.length + " cards) as a record: variation.toml.");
  });

  // ---- playing against the engine ----
  $("playstart").addEventListener("click", function () {
    st.play = { seat: $("playseat").value, since: st.cur };
    st.sel = line();
    showStatus("You play " + st.play.seat + "; the engine plays the others (each its best card from its own view).");
    go(line(), st.sel).then(engineTurn, function () {});
  });
  $("playstop").addEventListener("click", function () { stopPlay("Stopped playing."); });
  function stopPlay(msg) { cancel("engine"); cancel("judge"); st.play = null; showStatus(msg); render(); judge(); }
  function engineTurn() {
    var t = st.table, p = st.play;
    if (!p) { return; }
    if (t.finished) { finishPlay(); return; }
    if (t.to_move === p.seat) { showStatus("Your turn: play a card of " + p.seat + "'s hand."); return; }
    var l = line();
    showStatus(t.to_move + " is thinking\u2026");
    job("engine", l, null, function (d, n) { showStatus(t.to_move + " is thinking\u2026 " + d + " of " + n + " worlds"); }).then(function (r) {
      if (!r || !st.play || key(r.line) !== key(line())) { return; }
      setTimeout(function () {
        if (!st.play || key(r.line) !== key(line())) { return; }
        var nl = l.concat([r.card]);
        go(nl, nl).then(engineTurn, function () {});
      }, window.sheepsolveEngineDelay);
    }, function (e) { showError(e.message); });
  }
  function finishPlay() {
    var p = st.play, l = line();
    var box = $("result"); box.hidden = false;
    $("resulttext").textContent = "Result: " + (st.table.result_text || st.table.no_result || "none") + ". Judging your cards\u2026";
    $("judged").textContent = "";
    showStatus("The hand is over.");
    job("judge", l, { seat: p.seat, since: p.since }, function (d, n) {
      $("resulttext").textContent = "Result: " + (st.table.result_text || "none") + ". Judging your cards\u2026 " + d + " of " + n;
    }).then(function (j) {
      if (!j) { return; }
      drawJudged(j);
      st.play = null;
      $("playstop").hidden = true; $("playstart").hidden = false;
      $("playstart").disabled = true;
    }, function (e) { showError(e.message); });
  }
  function drawJudged(j) {
    var t = st.table;
    var text = "Result: " + (t.result_text || t.no_result || "none") + ".";
    if (t.payments) { text += " " + j.seat + "'s payment: " + (t.payments[j.seat] > 0 ? "+" : "") + t.payments[j.seat] + "."; }
    $("resulttext").textContent = text;
    var box = $("judged"); box.textContent = "";
    box.appendChild(el("p", "summary", "Your " + j.decisions.length + " cards judged as sheepsolve annotate --view player judges them (" +
      j.worlds + " worlds a decision): " + j.errors + " error" + (j.errors === 1 ? "" : "s") + " from your own view, expected loss " +
      num(j.expected_loss) + " points; double dummy you gave away " + j.dd_loss + "."));
    var tab = el("table", "judgedtab");
    var hr = el("tr");
    ["at", "card", "expected cost", "best from your view", "cost double dummy", ""].forEach(function (h) { hr.appendChild(el("th", "", h)); });
    tab.appendChild(hr);
    j.decisions.forEach(function (d) {
      var tr = el("tr", d.error ? "err" : "");
      tr.appendChild(el("td", "", d.at));
      var td = el("td"); td.appendChild(face(d.card, "sm")); tr.appendChild(td);
      tr.appendChild(el("td", "n", d.forced ? "forced" : num(d.cost)));
      var bt = el("td"); d.best.forEach(function (c) { bt.appendChild(face(c, "in")); }); tr.appendChild(bt);
      tr.appendChild(el("td", "n", d.forced ? "" : d.dd_cost));
      tr.appendChild(el("td", "", d.error ? "an error from your view" : ""));
      tab.appendChild(tr);
    });
    box.appendChild(tab);
  }

  // ---- controls ----
  $("first").addEventListener("click", function () { step(0); });
  $("back").addEventListener("click", function () { step(st.cur - 1); });
  $("forward").addEventListener("click", function () { step(st.cur + 1); });
  $("last").addEventListener("click", function () { step(st.sel.length); });
  $("viewswitch").addEventListener("change", function () { if (this.checked) { playerView(); } else { cancel("view"); $("viewpanel").hidden = true; } });
  $("viewcancel").addEventListener("click", function () { cancel("view"); $("viewcancel").hidden = true; $("viewjob").textContent = "cancelled"; });
  $("seatview").addEventListener("change", function () {
    st.seatView = this.value; render(); judge();
  });
  document.addEventListener("keydown", function (ev) {
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || st.play) { return; }
    var k = ev.key;
    if (k === "ArrowLeft") { step(st.cur - 1); } else if (k === "ArrowRight") { step(st.cur + 1); }
    else if (k === "Home") { step(0); } else if (k === "End") { step(st.sel.length); } else { return; }
    ev.preventDefault();
  });
  window.addEventListener("hashchange", function () {
    var l = fromAddress();
    if (l && key(l) !== key(line())) { go(l, common(l, st.sel) === l.length ? st.sel : l).catch(function () {}); }
  });

  $("seatview").value = st.seatView;
  if (D.seat) { $("playseat").value = D.seat; }
  var start = fromAddress();
  go(start || [], start && common(start, D.main) < start.length ? start : D.main.slice()).catch(function () {
    if (start) { go([], D.main.slice()).catch(function () {}); }
  });
  window.sheepsolveExplore = st;  // for a person (and the tests) to look at
})();
