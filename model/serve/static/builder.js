// The situation builder of `rulings serve` (ask a ruling). Driven by the game's description
// (its zones and their kinds, counters, inputs, phases, cards), it edits a scenario document
// (docs/scenarios.md) by clicks: the server judges it. No library, no network but this server.
(function () {
  "use strict";
  var desc = JSON.parse(document.getElementById("builder-desc").textContent);
  var doc = JSON.parse(document.getElementById("builder-doc").textContent);
  var game = document.body.getAttribute("data-game");
  var svg = {};
  desc.cards.forEach(function (c) { svg[c.token] = c.svg; });
  var target = "move";
  var $ = function (id) { return document.getElementById(id); };
  var esc = function (s) {
    return String(s).replace(/[&<>"']/g, function (ch) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[ch];
    });
  };

  // ---- the document ----------------------------------------------------------------------
  function n() { return doc.players; }
  function zoneValue(z, seat) { return z.each ? doc[z.id][seat] : doc[z.id]; }
  function setZoneValue(z, seat, v) { if (z.each) doc[z.id][seat] = v; else doc[z.id] = v; }
  function emptyOf(z) { return z.kind === "layout" ? "" : []; }
  function emptyBoard() {
    return (desc.board && desc.board.numbers || []).map(function (row) {
      return row.map(function (x) { return x === 0 ? "*" : "."; }).join("");
    });
  }
  function normalise() {
    var k = n();
    desc.zones.forEach(function (z) {
      if (z.kind === "other") return;
      if (z.kind === "board") { if (!Array.isArray(doc[z.id])) doc[z.id] = emptyBoard(); return; }
      if (z.each) {
        var v = Array.isArray(doc[z.id]) ? doc[z.id] : [];
        while (v.length < k) v.push(emptyOf(z));
        doc[z.id] = v.slice(0, k);
      } else if (doc[z.id] === undefined) {
        doc[z.id] = emptyOf(z);
      }
    });
    desc.counters.forEach(function (c) {
      if (!c.each) { if (doc[c.id] === undefined) doc[c.id] = c.start; return; }
      var v = Array.isArray(doc[c.id]) ? doc[c.id] : [];
      while (v.length < k) v.push(c.start);
      doc[c.id] = v.slice(0, k);
    });
    if (doc.dealer >= k) doc.dealer = 0;
    if (doc.to_play >= k) doc.to_play = 0;
  }
  function layoutList(v) { return (typeof v === "string" ? v.split(/\s+/) : v || []).filter(Boolean).map(String); }
  function listOf(v) { return typeof v === "string" ? v.split(/\s+/).filter(Boolean) : (v || []).map(String); }

  // ---- drawing -----------------------------------------------------------------------------
  function cardButton(tok, where, index, label, down) {
    return '<button type="button" class="placed' + (down ? " down" : "") + '" data-where="' + esc(where) +
      '" data-index="' + index + '" aria-label="' + esc(label) + '">' + (svg[tok] || esc(tok)) + "</button>";
  }
  function targetButton(key, label) {
    return '<button type="button" class="here' + (target === key ? " on" : "") + '" data-target="' + esc(key) +
      '" aria-label="put clicked cards into ' + esc(label) + '">' + (target === key ? "cards go here" : "put cards here") +
      "</button>";
  }
  function drawCards(key, label, tokens, downs) {
    var out = '<div class="cards" role="group" aria-label="' + esc(label) + '">';
    tokens.forEach(function (t, i) {
      out += cardButton(t, key, i, "remove " + t + " from " + label + (downs && downs[i] ? " (face down)" : ""),
                        downs && downs[i]);
    });
    if (!tokens.length) out += '<span class="empty">none</span>';
    return out + "</div>";
  }
  function drawZoneSeat(z, seat) {
    var key = z.id + (z.each ? "." + seat : "");
    var label = z.id + (z.each ? " of seat " + seat : "");
    var v = zoneValue(z, seat), out = '<div class="seat"><span class="who">' + esc(label) + "</span>" +
      targetButton(key, label);
    if (z.kind === "melds" || z.kind === "table") {
      out += '<button type="button" class="group-add" data-group="' + esc(key) + '" aria-label="start a new group in ' +
        esc(label) + '">new group</button><div class="groups">';
      (v || []).forEach(function (g, gi) {
        out += drawCards(key + "#" + gi, label + ", group " + (gi + 1), listOf(g));
      });
      out += "</div>";
    } else if (z.kind === "layout") {
      var items = layoutList(v);
      out += drawCards(key, label, items.map(function (p) { return p.replace(/^\?/, ""); }),
                       items.map(function (p) { return p.charAt(0) === "?"; }));
    } else if (v && !Array.isArray(v) && typeof v === "object") {
      out += '<label class="inline"><input type="checkbox" class="rest" data-zone="' + esc(z.id) +
        '" checked> the rest of the deck under these cards</label>' + drawCards(key, label + ", on top", listOf(v.top));
    } else {
      if (!z.each && z.kind === "pile") {
        out += '<label class="inline"><input type="checkbox" class="rest" data-zone="' + esc(z.id) +
          '"> the rest of the deck under these cards</label>';
      }
      out += drawCards(key, label, listOf(v));
    }
    return out + "</div>";
  }
  function drawBoard(z) {
    var rows = doc[z.id], out = '<div class="board-grid" role="grid" aria-label="' + esc(z.id) + '">';
    rows.forEach(function (row, r) {
      out += '<div class="brow" role="row">';
      row.split("").forEach(function (ch, c) {
        var what = ch === "*" ? "free corner" : ch === "." ? "empty" : "chip of side " + ch;
        var num = desc.board.numbers[r][c];
        out += '<button type="button" role="gridcell" class="space s' + esc(ch === "*" ? "free" : ch) + '" data-row="' + r +
          '" data-col="' + c + '" aria-label="row ' + r + " column " + c + " (" + num + "): " + what + '"' +
          (ch === "*" ? " disabled" : "") + ">" + (ch === "." ? '<small>' + num + "</small>" : esc(ch)) + "</button>";
      });
      out += "</div>";
    });
    return out + "</div>";
  }
  function draw() {
    normalise();
    // the table
    $("players").value = doc.players;
    ["dealer", "to_play"].forEach(function (f) {
      var s = $(f), opts = "";
      for (var i = 0; i < n(); i++) opts += '<option value="' + i + '">seat ' + i + "</option>";
      s.innerHTML = opts;
      s.value = String(doc[f]);
    });
    $("phase").value = doc.phase;
    $("turns_finished").value = doc.turns_finished;
    $("lays_this_turn").value = doc.lays_this_turn || 0;
    var cs = "";
    desc.counters.forEach(function (c) {
      if (c.each) {
        for (var i = 0; i < n(); i++) {
          cs += '<label class="num">' + esc(c.id) + " of seat " + i + ' <input type="number" class="counter" data-counter="' +
            esc(c.id) + '" data-seat="' + i + '" value="' + esc(doc[c.id][i]) + '"></label>';
        }
      } else {
        cs += '<label class="num">' + esc(c.id) + ' <input type="number" class="counter" data-counter="' + esc(c.id) +
          '" value="' + esc(doc[c.id]) + '"></label>';
      }
    });
    desc.inputs.forEach(function (i) {
      var on = doc[i.id] === undefined ? i.default : doc[i.id];
      cs += '<label class="inline"><input type="checkbox" class="input" data-input="' + esc(i.id) + '"' +
        (on ? " checked" : "") + "> " + esc(i.id) + "</label>";
    });
    $("counters").innerHTML = cs;
    // the zones
    var zs = "";
    desc.zones.forEach(function (z) {
      zs += '<section class="zone" aria-label="' + esc(z.id) + '"><h3>' + esc(z.id) + ' <span class="kind">(' +
        esc(z.declared) + (z.each ? ", one per seat" : "") + ")</span></h3>";
      if (z.kind === "board") zs += drawBoard(z);
      else if (z.kind === "other") {
        zs += '<label for="raw-' + esc(z.id) + '">' + esc(z.id) + " as in a scenario file (YAML)</label>" +
          '<textarea class="raw" id="raw-' + esc(z.id) + '" name="raw.' + esc(z.id) + '" rows="4">' +
          esc(doc[z.id] === undefined ? "" : JSON.stringify(doc[z.id])) + "</textarea>";
      } else if (z.each) {
        for (var i = 0; i < n(); i++) zs += drawZoneSeat(z, i);
      } else zs += drawZoneSeat(z, 0);
      zs += "</section>";
    });
    $("zones").innerHTML = zs;
    // where clicked cards go
    var opts = '<option value="move">the move being composed</option>';
    desc.zones.forEach(function (z) {
      if (z.kind === "board" || z.kind === "other") return;
      if (z.each) for (var i = 0; i < n(); i++) opts += '<option value="' + esc(z.id) + "." + i + '">' + esc(z.id) + " of seat " + i + "</option>";
      else opts += '<option value="' + esc(z.id) + '">' + esc(z.id) + "</option>";
    });
    $("target").innerHTML = opts;
    $("target").value = target;
    $("scenario-json").value = JSON.stringify(clean());
  }

  // ---- editing -------------------------------------------------------------------------------
  function zoneOf(key) {
    var id = key.split("#")[0].split(".")[0];
    for (var i = 0; i < desc.zones.length; i++) if (desc.zones[i].id === id) return desc.zones[i];
    return null;
  }
  function seatOf(key) { var p = key.split("#")[0].split("."); return p.length > 1 ? parseInt(p[1], 10) : 0; }
  function addCard(tok) {
    if (target === "move") {
      var arg = $("move-arg");
      arg.value = (arg.value.trim() ? arg.value.trim() + " " : "") + tok;
      return;
    }
    var z = zoneOf(target), seat = seatOf(target), v = zoneValue(z, seat);
    if (tok === "|") {                       // a new group, where groups are
      if (z.kind === "melds" || z.kind === "table") { v.push([]); draw(); }
      return;
    }
    if (z.kind === "melds" || z.kind === "table") {
      if (!v.length) v.push([]);
      v[v.length - 1] = listOf(v[v.length - 1]).concat([tok]);
    } else if (z.kind === "layout") {
      var items = layoutList(v);
      items.push(($("face-down").checked ? "?" : "") + tok);
      v = items.join(" ");
    } else if (v && !Array.isArray(v) && typeof v === "object") {
      v.top = listOf(v.top).concat([tok]);
    } else {
      v = listOf(v).concat([tok]);
    }
    setZoneValue(z, seat, v);
    draw();
  }
  function removeCard(where, index) {
    var group = where.indexOf("#") >= 0 ? parseInt(where.split("#")[1], 10) : null;
    var z = zoneOf(where), seat = seatOf(where), v = zoneValue(z, seat);
    if (group !== null) {
      var g = listOf(v[group]);
      g.splice(index, 1);
      v[group] = g;
      if (!g.length) v.splice(group, 1);
    } else if (z.kind === "layout") {
      var items = layoutList(v);
      items.splice(index, 1);
      v = items.join(" ");
    } else if (v && !Array.isArray(v) && typeof v === "object") {
      v.top = listOf(v.top);
      v.top.splice(index, 1);
    } else {
      v = listOf(v);
      v.splice(index, 1);
    }
    setZoneValue(z, seat, v);
    draw();
  }
  function clean() {
    var out = JSON.parse(JSON.stringify(doc));
    delete out.move;
    delete out.moves;
    desc.zones.forEach(function (z) {
      if (z.kind === "other") { delete out[z.id]; return; }
      if (z.kind === "melds" || z.kind === "table") {
        var strip = function (gs) { return (gs || []).filter(function (g) { return listOf(g).length; }); };
        out[z.id] = z.each ? out[z.id].map(strip) : strip(out[z.id]);
      }
    });
    return out;
  }
  function raw() {
    var out = {};
    document.querySelectorAll("textarea.raw").forEach(function (t) { out[t.name.slice(4)] = t.value; });
    out.moves = $("moves-text").value;
    return out;
  }

  // ---- composing a move ----------------------------------------------------------------------
  function moveLine() {
    var id = $("move-id").value, arg = $("move-arg").value.trim(), m = null;
    for (var i = 0; i < desc.moves.length; i++) if (desc.moves[i].id === id) m = desc.moves[i];
    if (!m) return null;
    var tokens = arg.split(/[\s,]+/).filter(Boolean);
    if (m.mechanic === "lay") return JSON.stringify(Object.fromEntries([[id, tokens]]));
    if (m.mechanic === "discard" || m.mechanic === "exchange") return JSON.stringify(Object.fromEntries([[id, tokens[tokens.length - 1] || ""]]));
    if (m.mechanic === "rearrange") return JSON.stringify(Object.fromEntries([[id, arg]]));
    return "{" + id + ": " + (arg || "null") + "}";
  }
  function addMoveLine(line) {
    var t = $("moves-text");
    t.value = (t.value.trim() ? t.value.replace(/\s+$/, "") + "\n" : "") + "- " + line + "\n";
  }

  // ---- talking to the server -----------------------------------------------------------------
  function post(path, body, then) {
    $("builder-error").textContent = "";
    $("builder-status").textContent = "asking the server...";
    fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
      .then(function (a) {
        $("builder-status").textContent = "";
        if (a[0] !== 200) { $("builder-error").textContent = a[1].error || "no answer"; return; }
        then(a[1]);
      })
      .catch(function (e) { $("builder-status").textContent = ""; $("builder-error").textContent = String(e); });
  }
  function readings() { return JSON.parse(document.body.getAttribute("data-readings") || "{}"); }
  function loadSituation(s) {
    var moves = s.moves || (s.move ? [s.move] : []);
    delete s.moves; delete s.move;
    doc = s;
    $("moves-text").value = moves.map(function (m) { return "- " + JSON.stringify(m); }).join("\n") + (moves.length ? "\n" : "");
    draw();
  }

  // ---- events --------------------------------------------------------------------------------
  document.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    if (b.classList.contains("pick")) addCard(b.getAttribute("data-token"));
    else if (b.classList.contains("placed")) removeCard(b.getAttribute("data-where"), parseInt(b.getAttribute("data-index"), 10));
    else if (b.classList.contains("here")) { target = b.getAttribute("data-target"); draw(); }
    else if (b.classList.contains("group-add")) {
      var key = b.getAttribute("data-group"), z = zoneOf(key), seat = seatOf(key), v = zoneValue(z, seat);
      v.push([]);
      target = key;
      draw();
    } else if (b.classList.contains("space")) {
      var r = parseInt(b.getAttribute("data-row"), 10), c = parseInt(b.getAttribute("data-col"), 10);
      var zb = desc.zones.filter(function (z) { return z.kind === "board"; })[0], row = doc[zb.id][r].split("");
      var cycle = ["."];
      for (var i = 0; i < Math.min(n(), 10); i++) cycle.push(String(i));
      row[c] = cycle[(cycle.indexOf(row[c]) + 1) % cycle.length];
      doc[zb.id][r] = row.join("");
      draw();
    } else if (b.id === "move-add") {
      var line = moveLine();
      if (line) { addMoveLine(line); $("move-arg").value = ""; }
    } else if (b.id === "offered-add") {
      var sel = $("offered");
      if (sel.value) addMoveLine(sel.value);
    } else if (b.id === "offered-show") {
      post("/api/moves", {game: game, readings: readings(), scenario: clean(), raw: raw()}, function (j) {
        var sel = $("offered"), opts = "";
        j.moves.forEach(function (m) { opts += '<option value="' + esc(JSON.stringify(m.move)) + '">' + esc(m.words) + "</option>"; });
        sel.innerHTML = opts;
        if (j.moves.length) sel.value = JSON.stringify(j.moves[0].move);
        $("offered-note").textContent = j.question ? "No clause decides what comes next: " + j.question :
          j.after && j.after !== "legal" ? "The moves so far are " + j.after + ": nothing is offered after them." :
          j.moves.length + " move(s) offered to seat " + j.to_play + " (" + j.phase + ")" +
          (j.after ? ", after the moves so far" : "") + ".";
      });
    } else if (b.id === "deal") {
      post("/api/situation", {game: game, readings: readings(), deal: {players: doc.players, seed: parseInt($("seed").value, 10) || 0}}, loadSituation);
    } else if (b.id === "blank") {
      post("/api/situation", {game: game, readings: readings()}, function (s) { s.players = doc.players; loadSituation(s); });
    } else if (b.id === "paste-load") {
      post("/api/situation", {game: game, readings: readings(), scenario: $("paste").value}, loadSituation);
    }
  });
  document.addEventListener("change", function (e) {
    var t = e.target;
    if (t.id === "players") { var k = parseInt(t.value, 10); if (k >= desc.players[0] && k <= desc.players[1]) doc.players = k; draw(); }
    else if (t.id === "dealer" || t.id === "to_play") { doc[t.id] = parseInt(t.value, 10); draw(); }
    else if (t.id === "phase") { doc.phase = t.value; draw(); }
    else if (t.id === "turns_finished" || t.id === "lays_this_turn") { doc[t.id] = parseInt(t.value, 10) || 0; draw(); }
    else if (t.id === "target") { target = t.value; draw(); }
    else if (t.classList.contains("counter")) {
      var v = parseInt(t.value, 10) || 0, id = t.getAttribute("data-counter");
      if (t.hasAttribute("data-seat")) doc[id][parseInt(t.getAttribute("data-seat"), 10)] = v; else doc[id] = v;
      draw();
    } else if (t.classList.contains("input")) { doc[t.getAttribute("data-input")] = t.checked; draw(); }
    else if (t.classList.contains("rest")) {
      var zid = t.getAttribute("data-zone"), cur = doc[zid];
      if (t.checked) {
        desc.zones.forEach(function (z) { // one pile takes the rest of the deck
          if (z.id !== zid && doc[z.id] && !Array.isArray(doc[z.id]) && typeof doc[z.id] === "object") doc[z.id] = listOf(doc[z.id].top);
        });
        doc[zid] = {top: listOf(cur), rest: "deck"};
      } else doc[zid] = listOf(cur && cur.top);
      draw();
    }
  });
  $("ask-form").addEventListener("submit", function () {
    $("scenario-json").value = JSON.stringify(clean());
  });
  var first = doc.moves || (doc.move ? [doc.move] : []);
  loadSituation(doc);
  if (!first.length) $("moves-text").value = "";
  document.body.classList.add("js");
})();
