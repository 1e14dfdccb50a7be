/* BfrpgOptions: the browser twin of widgets/bfrpg.py move_options / MoveOptions.option.
 *
 * Classifies every square for a combatant at `start` moving `rate` ft a round, from the three
 * cost maps of GridCost (widgets/js/grid_cost.js):
 *   stay  = melee steps double, never leaving an engagement
 *   free  = melee steps double, leaving allowed
 *   plain = no doubling
 * Options (keys of bfrpg.OPTIONS_KO): start, walk, run, melee_move, withdraw, flee_walk,
 * flee_run, out, pass, blocked. Same rules, same order of tests as MoveOptions.option; the
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

  /* opts: {width, height, start, rate, blocked, barrier, difficult, allies, enemies}
   * returns {option: Array(n) of strings, feet: Int32Array(n) (-1: none), maps: [stay, free,
   * plain], mapOf: Int8Array(n) (which map decided the square, -1: none)} */
  function options(opts) {
    var w = opts.width, h = opts.height, n = w * h, r = opts.rate, i, k;
    var wall = GridCost.flags(n, opts.blocked), enemy = GridCost.flags(n, opts.enemies);
    var ally = GridCost.flags(n, opts.allies);
    var engaged = new Uint8Array(n);
    for (i = 0; i < n; i++) {
      if (!enemy[i]) continue;
      var ex = i % w, ey = (i / w) | 0;
      for (k = 0; k < 8; k++) {
        var ax = ex + GridCost.DX[k], ay = ey + GridCost.DY[k];
        if (ax < 0 || ay < 0 || ax >= w || ay >= h) continue;
        var a = ay * w + ax;
        if (!wall[a] && !enemy[a]) engaged[a] = 1;
      }
    }
    var stay = GridCost.costMap(withFlags(opts, true, false));
    var free = GridCost.costMap(withFlags(opts, true, true));
    var plain = GridCost.costMap(withFlags(opts, false, true));
    var maps = [stay, free, plain];
    var option = new Array(n), feet = new Int32Array(n).fill(-1), mapOf = new Int8Array(n).fill(-1);
    var engagedStart = engaged[opts.start] === 1;
    for (i = 0; i < n; i++) {
      var opt, m = -1;
      if (i === opts.start) { opt = "start"; m = 0; }
      else if (wall[i] || enemy[i]) opt = "blocked";
      else if (ally[i]) opt = "pass";
      else {
        var s = stay.cost[i];
        if (!engagedStart) {
          if (s >= 0 && s <= 2 * r) { opt = s <= r ? "walk" : "run"; m = 0; }
          else {
            var f = free.cost[i];
            if (f >= 0 && f <= 2 * r) { opt = f <= r ? "flee_walk" : "flee_run"; m = 1; }
            else opt = "out";
          }
        } else if (engaged[i] && s >= 0 && s <= r) { opt = "melee_move"; m = 0; }
        else {
          var p = plain.cost[i];
          if (p < 0 || p > 2 * r) opt = "out";
          else { m = 2; opt = p <= Math.floor(r / 2) ? "withdraw" : (p <= r ? "flee_walk" : "flee_run"); }
        }
      }
      option[i] = opt;
      mapOf[i] = m;
      if (m >= 0) feet[i] = maps[m].cost[i];
    }
    return { option: option, feet: feet, maps: maps, mapOf: mapOf, engaged: engaged };
  }

  // A cheapest path (square indices, start first) for the option of square i; [] if none.
  function pathTo(result, i) {
    var m = result.mapOf[i];
    return m < 0 ? [] : GridCost.pathTo(result.maps[m], i);
  }

  return { options: options, pathTo: pathTo };
})();
if (typeof module !== "undefined" && module.exports) module.exports = BfrpgOptions;
