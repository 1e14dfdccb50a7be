/* BfrpgOptions: the browser twin of widgets/bfrpg.py move_options / MoveOptions.option.
 *
 * Classifies every square for a combatant at `start` moving `rate` ft a round, from three
 * searches of GridCost (widgets/js/grid_cost.js), engagement counted per opponent:
 *   stay   = melee steps double, no step may leave an opponent
 *   flight = moves that leave at least one opponent, with who is left (GridCost.flightMap;
 *            melee steps double unless the combatant starts engaged)
 *   plain  = no doubling
 * Options (keys of bfrpg.MOVE_OPTIONS): start, walk, run, melee_move, withdraw, flee_walk,
 * flee_run, out, pass, blocked. Engaged at the start: melee_move, then withdraw, then run
 * staying engaged, then flight. Same rules, same order of tests as MoveOptions.option; the
 * agreement test is tests/test_views_bfrpg.py. Needs the global GridCost at call time.
 * Plain ES2015, no imports: defines the global BfrpgOptions (and module.exports under Node).
 */
var BfrpgOptions = (function () {
  "use strict";
  function withFlags(opts, doubles, mayLeave) {
    var o = {};
    for (var key in opts) if (Object.prototype.hasOwnProperty.call(opts, key)) o[key] = opts[key];
    o.engagedDoubles = doubles;
    o.mayLeaveEngagement = mayLeave;
    return o;
  }

  /* opts: {width, height, start, rate, blocked, barrier, difficult, allies, enemies, maxWork}
   * returns {option: Array(n) of strings, feet: Int32Array(n) (-1: none), shots: Array(n) of
   * the enemies (square indices) whose parting shot the move takes, maps: [stay, flight,
   * plain], mapOf: Int8Array(n) (which search decided the square, -1: none), engaged} */
  function options(opts) {
    var w = opts.width, h = opts.height, n = w * h, r = opts.rate, i;
    var wall = GridCost.flags(n, opts.blocked), enemy = GridCost.flags(n, opts.enemies);
    var ally = GridCost.flags(n, opts.allies);
    var foes = GridCost.foesNextTo(w, h, wall, enemy);
    var engaged = new Uint8Array(n);
    for (i = 0; i < n; i++) if (foes[i].length) engaged[i] = 1;
    var engagedStart = engaged[opts.start] === 1;
    var stay = GridCost.costMap(withFlags(opts, true, false));
    var flight = GridCost.flightMap(withFlags(opts, !engagedStart, true));
    var plain = GridCost.costMap(withFlags(opts, false, true));
    var maps = [stay, flight, plain];
    var option = new Array(n), feet = new Int32Array(n).fill(-1), mapOf = new Int8Array(n).fill(-1);
    var shots = new Array(n), none = [];
    for (i = 0; i < n; i++) {
      var opt = null, m = -1;
      shots[i] = none;
      if (i === opts.start) { opt = "start"; m = 0; }
      else if (wall[i] || enemy[i]) opt = "blocked";
      else if (ally[i]) opt = "pass";
      else {
        var s = stay.cost[i];
        if (!engagedStart) {
          if (s >= 0 && s <= 2 * r) { opt = s <= r ? "walk" : "run"; m = 0; }
        } else {
          var kept = engaged[i] && s >= 0, p = plain.cost[i];
          if (kept && s <= r) { opt = "melee_move"; m = 0; }
          else if (p >= 0 && p <= Math.floor(r / 2)) { opt = "withdraw"; m = 2; }
          // running while staying engaged: no attack, no parting shot (nobody is left)
          else if (kept && s <= 2 * r) { opt = "run"; m = 0; }
        }
        if (opt === null) {
          var f = flight.cost[i];
          if (f < 0) opt = "out";
          else { opt = f <= r ? "flee_walk" : "flee_run"; m = 1; shots[i] = flight.foes[i]; }
        }
      }
      option[i] = opt;
      mapOf[i] = m;
      if (m >= 0) feet[i] = maps[m].cost[i];
    }
    return { option: option, feet: feet, shots: shots, maps: maps, mapOf: mapOf, engaged: engaged };
  }

  // A cheapest path (square indices, start first) for the option of square i; [] if none.
  function pathTo(result, i) {
    var m = result.mapOf[i];
    if (m < 0) return [];
    return m === 1 ? GridCost.flightPath(result.maps[1], i) : GridCost.pathTo(result.maps[m], i);
  }

  return { options: options, pathTo: pathTo };
})();
if (typeof module !== "undefined" && module.exports) module.exports = BfrpgOptions;
