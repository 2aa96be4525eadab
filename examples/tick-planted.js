#!/usr/bin/env node
// tick-faithful.js with four rule errors planted, for `rulings conform` to find:
//   wilds-outnumber  a set of four or more may hold more wilds than naturals
//   first-turn-out   a player may go out before everyone has had a turn
//   free-tick        a tick costs no chip
//   bonus-in-hand    a Bonus card held at the level's end costs 10 points, not 20
"use strict";
const { make, serve } = require("./tick-faithful.js");

const PLANTED = ["wilds-outnumber", "first-turn-out", "free-tick", "bonus-in-hand"];
const only = process.argv.slice(2);        // name some to plant only those
serve(make({ plant: only.length ? only : PLANTED }), "tick-planted.js");
