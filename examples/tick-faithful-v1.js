#!/usr/bin/env node
// tick-faithful.js as it was written before the conformance protocol had versions, kept
// unchanged (this comment aside) to show that an implementation keeps working on the
// version it speaks: its hello names no version, so it speaks protocol version 1, and a
// level's end is answered without `next_dealer` (version 2) or the next round's set-up
// (version 3), which `rulings conform` then neither asks nor compares.
//
// Tick's meld and move rules, written from the rules (the adopted readings of
// spec/tick.yaml), independently of rulings: no code is shared with it. It speaks the
// conformance protocol (docs/conformance.md): one JSON request per line on stdin, one
// JSON answer per line on stdout.
//
//   node examples/tick-faithful.js                  the faithful implementation
//   require("./tick-faithful.js").make({plant})     the same with planted rule errors
//                                                   (examples/tick-planted.js)
"use strict";

const RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B"];
const WILDS = { SW: 25, BW: 50 };
const ORDER = [...RANKS, "SW", "BW"];            // the order cards are listed in
const LEVELS = { 1: [3], 2: [3, 3], 3: [4], 4: [4, 4], 5: [5], 6: [5, 5], 7: [6], 8: [6, 6] };
const FURTHER_SET = 3;                            // a further set holds three or more
const CHIPS_PER_TICK = 1, STOCK_PER_TICK = 2;     // each face-up card taken costs this
const BONUS = 100;                                // the dealer's exact-deal bonus

function value(card) {
  if (card in WILDS) return WILDS[card];
  if (card === "B") return 20;
  const n = Number(card);
  return n <= 5 ? 5 : 10;
}

function canon(card) {
  const c = String(card).toUpperCase();
  if (!ORDER.includes(c)) throw new Error(`unknown card ${JSON.stringify(card)}`);
  return c;
}

const sorted = (cards) => [...cards].map(canon).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
const isWild = (c) => c in WILDS;

function make(options = {}) {
  const plant = new Set(options.plant || []);

  // ---- melds --------------------------------------------------------------------------

  // wilds a set of n naturals needs to reach `size` cards, or Infinity if it cannot
  function setWilds(n, size) {
    if (n < 1) return Infinity;
    const w = Math.max(0, size - n);
    if (w <= n) return w;
    if (plant.has("wilds-outnumber")) return Math.max(w, 4 - n);   // planted: sets of four take any wilds
    return Infinity;
  }

  // fewest wilds to lay every one of c naturals of one rank as further sets
  function furtherWilds(c) {
    if (c === 0) return 0;
    let best = Infinity;
    for (let n = 1; n <= c; n++) {            // one set of n, the rest in further sets
      const here = setWilds(n, FURTHER_SET);
      if (here === Infinity) continue;
      const rest = c - n === 0 ? 0 : c - n >= FURTHER_SET ? 0 : furtherWilds(c - n);
      best = Math.min(best, here + rest);
    }
    return best;
  }

  // fewest wilds to lay c naturals of one rank as `k` required sets of `size` plus further sets
  function rankWilds(c, k, size) {
    if (k === 0) return furtherWilds(c);
    let best = Infinity;
    for (let n = 1; n <= c; n++) {
      const here = setWilds(n, size);
      if (here === Infinity) continue;
      best = Math.min(best, here + rankWilds(c - n, k - 1, size));
    }
    return best;
  }

  // may these cards all go down together: `sizes` are the required sets (none after the level)
  function layable(cards, sizes) {
    const count = {};
    let wilds = 0;
    for (const c of cards.map(canon)) {
      if (isWild(c)) wilds++;
      else count[c] = (count[c] || 0) + 1;
    }
    const ranks = Object.keys(count);
    // share the required sets out among the ranks held (two sets may share a rank)
    function assign(i, left) {
      if (i === ranks.length) return left === 0 ? 0 : Infinity;
      let best = Infinity;
      for (let k = 0; k <= left; k++) {
        const here = rankWilds(count[ranks[i]], k, sizes[0] || 0);
        if (here === Infinity) continue;
        best = Math.min(best, here + assign(i + 1, left - k));
      }
      return best;
    }
    if (sizes.length && ranks.length === 0) return false;
    return assign(0, sizes.length) <= wilds;          // wilds left over lie on their own
  }

  function meld(cards, contract) {
    return layable(cards, LEVELS[level(contract)]);
  }

  function level(contract) {
    const m = /^level (\d+)$/.exec(String(contract));
    if (!m || !LEVELS[m[1]]) throw new Error(`no contract ${JSON.stringify(contract)}`);
    return Number(m[1]);
  }

  // the most points a lay-down from this hand can lay, keeping one card for the discard
  function bestLay(cards, contract) {
    const sizes = LEVELS[level(contract)];
    const hand = sorted(cards);
    const kinds = [...new Set(hand)];
    const have = kinds.map((k) => hand.filter((c) => c === k).length);
    let best = null;
    const take = new Array(kinds.length).fill(0);
    function walk(i) {
      if (i === kinds.length) {
        const laid = [];
        kinds.forEach((k, j) => { for (let x = 0; x < take[j]; x++) laid.push(k); });
        if (hand.length - laid.length < 1) return;
        const points = laid.reduce((s, c) => s + value(c), 0);
        if ((best === null || points > best) && layable(laid, sizes)) best = points;
        return;
      }
      for (let n = have[i]; n >= 0; n--) { take[i] = n; walk(i + 1); }
    }
    walk(0);
    return best;
  }

  // ---- moves --------------------------------------------------------------------------

  const clone = (s) => JSON.parse(JSON.stringify(s));
  const refuse = (why) => ({ legal: false, why });

  function remove(hand, cards) {
    const left = [...hand];
    for (const c of cards) {
      const i = left.indexOf(c);
      if (i < 0) return null;
      left.splice(i, 1);
    }
    return left;
  }

  const mayGoOut = (s) => plant.has("first-turn-out") || s.turns_finished >= s.hands.length;

  function endLevel(s) {
    s.phase = "level_over";
    return { legal: true, state: s, scores: score(s) };
  }

  // a draw finds the stock empty: the face-up pile but its top card becomes the stock
  function refill(s) {
    if (s.face_up.length <= 1) return false;
    const top = s.face_up.pop();
    s.stock = shuffle(s.face_up.concat(s.stock));
    s.face_up = [top];
    return true;
  }

  function shuffle(cards) {
    const out = [...cards];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  function tableRanks(s) {
    const ranks = new Set();
    for (const seat of s.laid) for (const lay of seat) for (const c of lay) if (!isWild(c)) ranks.add(c);
    return ranks;
  }

  // nobody is down and no hand can ever reach the level's cards plus a discard
  function stalled(s) {
    const need = LEVELS[s.level].reduce((a, b) => a + b, 0) + 1;
    return s.hands.every((hand, i) => s.laid[i].length === 0 &&
      hand.length + Math.max(1, Math.floor(s.chips[i] / CHIPS_PER_TICK) * (1 + STOCK_PER_TICK)) < need);
  }

  // a situation in the scenario format (docs/scenarios.md); the answer is the same shape
  function move(state, mv) {
    const s = clone(state);
    const n = s.hands.length;
    s.hands = s.hands.map(sorted);
    s.laid = (s.laid || s.hands.map(() => [])).map((seat) => seat.map(sorted));
    s.chips = s.chips || s.hands.map(() => 10);
    s.lays_this_turn = s.lays_this_turn || 0;
    s.stock = s.stock.map(canon);
    s.face_up = s.face_up.map(canon);
    const me = s.to_play;
    const [kind] = Object.keys(mv);
    switch (kind) {
      case "draw":
      case "tick": {
        if (s.phase !== "draw") return refuse("the turn has drawn already");
        if (s.stock.length === 0 && !refill(s)) return endLevel(s);   // nothing left to draw
        if (kind === "draw") {
          s.hands[me] = sorted(s.hands[me].concat([s.stock.pop()]));
        } else {
          const k = mv.tick;
          if (!(k >= 1)) return refuse("a tick takes at least one card");
          if (k > s.face_up.length) return refuse("not that many face-up cards");
          const cost = plant.has("free-tick") ? 0 : k * CHIPS_PER_TICK;
          if (cost > s.chips[me]) return refuse("not enough chips");
          if (s.stock.length < k * STOCK_PER_TICK) return refuse("the stock is too short");
          const taken = s.face_up.splice(s.face_up.length - k, k)
            .concat(s.stock.splice(s.stock.length - k * STOCK_PER_TICK, k * STOCK_PER_TICK));
          s.hands[me] = sorted(s.hands[me].concat(taken));
          s.chips[me] -= cost;
        }
        s.phase = "play";
        return { legal: true, state: s };
      }
      case "lay": {
        if (s.phase !== "play") return refuse("draw first");
        const cards = sorted(mv.lay || []);
        if (cards.length === 0) return refuse("an empty lay");
        const left = remove(s.hands[me], cards);
        if (left === null) return refuse("cards not in hand");
        if (s.laid[me].length === 0) {
          if (!layable(cards, LEVELS[s.level])) return refuse("not the level");
        } else {
          const table = tableRanks(s);
          const rest = cards.filter((c) => isWild(c) || !table.has(c));
          if (rest.length && !layable(rest, [])) return refuse("not further sets or matching cards");
        }
        if (left.length === 0) return refuse("going out needs a discard");
        if (left.length <= 1 && !mayGoOut(s)) return refuse("too early to go out");
        s.hands[me] = left;
        s.laid[me].push(cards);
        s.lays_this_turn += 1;
        return { legal: true, state: s };
      }
      case "discard": {
        if (s.phase !== "play") return refuse("draw first");
        const card = canon(mv.discard);
        const left = remove(s.hands[me], [card]);
        if (left === null) return refuse("card not in hand");
        if (left.length === 0 && !mayGoOut(s)) return refuse("too early to go out");
        s.hands[me] = left;
        s.face_up.push(card);
        if (left.length === 0) return endLevel(s);
        s.phase = "draw";
        s.turns_finished += 1;
        s.to_play = (me + 1) % n;
        s.lays_this_turn = 0;
        if (stalled(s)) return endLevel(s);
        return { legal: true, state: s };
      }
      default:
        throw new Error(`no move ${JSON.stringify(mv)}`);
    }
  }

  // ---- scoring ------------------------------------------------------------------------

  function handValue(cards) {
    return cards.reduce((s, c) => s + (plant.has("bonus-in-hand") && canon(c) === "B" ? 10 : value(canon(c))), 0);
  }

  function score(state) {
    return state.hands.map((hand, i) => {
      const laid = (state.laid ? state.laid[i] : []).flat().reduce((s, c) => s + value(canon(c)), 0);
      return laid - handValue(hand) + (state.exact_deal && i === state.dealer ? BONUS : 0);
    });
  }

  return { meld, best_lay: bestLay, move, score };
}

// ---- the protocol: JSON lines ----------------------------------------------------------

function serve(impl, name) {
  const readline = require("readline");
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  rl.on("line", (line) => {
    if (!line.trim()) return;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      process.stdout.write(JSON.stringify({ error: `not JSON: ${e.message}` }) + "\n");
      return;
    }
    const p = req.params || {};
    let answer;
    try {
      switch (req.method) {
        case "hello": answer = { result: { name, methods: ["meld", "best_lay", "move", "score"] } }; break;
        case "meld": answer = { result: impl.meld(p.cards, p.contract) }; break;
        case "best_lay": answer = { result: impl.best_lay(p.cards, p.contract) }; break;
        case "move": answer = { result: impl.move(p.state, p.move) }; break;
        case "score": answer = { result: impl.score(p.state) }; break;
        default: answer = { unsupported: true };
      }
    } catch (e) {
      answer = { error: String(e && e.message || e) };
    }
    process.stdout.write(JSON.stringify({ id: req.id, ...answer }) + "\n");
  });
}

module.exports = { make, serve };

if (require.main === module) serve(make(), "tick-faithful.js");
