/* GridCost: the browser twin of widgets/grid.py cost_map (same rules, same tie-breaking).
 *
 * Squares are flat indices (row * width + col). States are index * 2 + parity, parity being
 * the number of diagonals taken so far mod 2 (it decides whether the next diagonal costs 5
 * or 10). Input sets are arrays of square indices. Output:
 *   cost      Int32Array(n)   cheapest feet per square, -1 if unreachable
 *   pred      Int32Array(n)   previous square on that cheapest path, -1 at start/unreachable
 *   stateCost Int32Array(2n)  per state, -1 if unreachable
 *   statePred Int32Array(2n)  previous state, -1 at the start
 * The heap pops states in (cost, state) order exactly like Python's heapq on tuples, and a
 * state only changes on a strict improvement, so predecessors match the Python ones (the
 * pop order alone decides them; the neighbour order does not matter).
 * Engagement is per opponent (grid.Terrain.foe_masks): a step leaves an opponent when it goes
 * from a square next to it to one that is not; engagedDoubles doubles a step that stays next
 * to some opponent; mayLeaveEngagement=false refuses every step that leaves one.
 * flightMap is the twin of grid.flight_map (moves that leave opponents, with who is left).
 * Plain ES2015, no imports: defines the global GridCost (and module.exports under Node).
 */
var GridCost = (function () {
  "use strict";
  // Same neighbour order as grid.STEPS: N, E, S, W, NE, SE, SW, NW.
  var DX = [0, 1, 0, -1, 1, 1, -1, -1];
  var DY = [-1, 0, 1, 0, -1, 1, 1, -1];

  // A binary min-heap of numeric keys (both searches' priority queue): pops in key order, as
  // Python's heapq does on the same keys.
  function minHeap() {
    var keys = new Float64Array(16), size = 0;
    return {
      size: function () { return size; },
      push: function (key) {
        if (size === keys.length) { var bigger = new Float64Array(size * 2); bigger.set(keys); keys = bigger; }
        var j = size++;
        while (j > 0) {
          var p = (j - 1) >> 1;
          if (keys[p] <= key) break;
          keys[j] = keys[p]; j = p;
        }
        keys[j] = key;
      },
      pop: function () {
        var top = keys[0], last = keys[--size], j = 0;
        for (;;) {
          var c = 2 * j + 1;
          if (c >= size) break;
          if (c + 1 < size && keys[c + 1] < keys[c]) c++;
          if (keys[c] >= last) break;
          keys[j] = keys[c]; j = c;
        }
        keys[j] = last;
        return top;
      }
    };
  }

  // The steps out of square sq (diagonal parity `parity`), as grid._Floor.steps: no walls,
  // enemies or cut wall corners; difficult ground doubles a step, a barrier adds 5 ft, and with
  // doubles a step that stays next to an opponent counts double. Calls fn(square, feet, parity).
  function eachStep(f, sq, parity, fn) {
    var w = f.w, x = sq % w, y = (sq / w) | 0;
    for (var k = 0; k < 8; k++) {
      var nx = x + DX[k], ny = y + DY[k];
      if (nx < 0 || ny < 0 || nx >= w || ny >= f.h) continue;
      var j = ny * w + nx;
      if (f.wall[j] || f.enemy[j]) continue;
      var diag = k >= 4;
      if (diag && (f.wall[y * w + nx] || f.wall[ny * w + x])) continue; // no cutting wall corners
      var step, np;
      if (diag) { step = parity ? 10 : 5; np = parity ^ 1; } else { step = 5; np = parity; }
      if (f.difficult[j]) step *= 2;
      if (f.doubles && f.foes[sq].length && meets(f.foes[sq], f.foes[j])) step *= 2;
      fn(j, step + (f.barrier[j] ? 5 : 0), np);
    }
  }

  function flags(n, list) {
    var out = new Uint8Array(n);
    if (list) for (var k = 0; k < list.length; k++) out[list[k]] = 1;
    return out;
  }

  var NONE = [];
  /* Per square, the opponents next to it: sorted arrays of enemy ordinals (0 = the enemy with
   * the smallest index), as grid.Terrain.foe_masks; NONE where there is none. */
  function foesNextTo(w, h, wall, enemy) {
    var n = w * h, out = new Array(n), i, k, ord = 0;
    for (i = 0; i < n; i++) out[i] = NONE;
    for (i = 0; i < n; i++) {
      if (!enemy[i]) continue;
      var ex = i % w, ey = (i / w) | 0;
      for (k = 0; k < 8; k++) {
        var ax = ex + DX[k], ay = ey + DY[k];
        if (ax < 0 || ay < 0 || ax >= w || ay >= h) continue;
        var a = ay * w + ax;
        if (wall[a] || enemy[a]) continue;
        if (out[a] === NONE) out[a] = [];
        out[a].push(ord);
      }
      ord++;
    }
    return out;
  }
  // Sorted small arrays as sets: a minus b, a meets b, a within b, a union b.
  function minus(a, b) {
    if (!a.length) return NONE;
    var out = [], j = 0;
    for (var i = 0; i < a.length; i++) {
      while (j < b.length && b[j] < a[i]) j++;
      if (j >= b.length || b[j] !== a[i]) out.push(a[i]);
    }
    return out.length ? out : NONE;
  }
  function meets(a, b) {
    var i = 0, j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) return true;
      if (a[i] < b[j]) i++; else j++;
    }
    return false;
  }
  function within(a, b) { return minus(a, b).length === 0; }
  function union(a, b) {
    if (!b.length) return a;
    if (!a.length) return b;
    var out = [], i = 0, j = 0;
    while (i < a.length || j < b.length) {
      if (j >= b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
      else if (i >= a.length || b[j] < a[i]) out.push(b[j++]);
      else { out.push(a[i++]); j++; }
    }
    return out;
  }
  function compareSets(a, b) {  // lexicographic, as Python compares lists
    for (var i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  }

  /* opts: {width, height, start (index), blocked, barrier, difficult, allies, enemies,
   *        engagedDoubles (bool, default false), mayLeaveEngagement (bool, default true)} */
  function costMap(opts) {
    var w = opts.width, h = opts.height, n = w * h, i, k;
    var wall = flags(n, opts.blocked), enemy = flags(n, opts.enemies);
    var barrier = flags(n, opts.barrier), difficult = flags(n, opts.difficult);
    var doubles = !!opts.engagedDoubles;
    var mayLeave = opts.mayLeaveEngagement === undefined ? true : !!opts.mayLeaveEngagement;
    var foes = foesNextTo(w, h, wall, enemy);
    var floor = {w: w, h: h, wall: wall, enemy: enemy, barrier: barrier, difficult: difficult,
                 foes: foes, doubles: doubles};
    var m = 2 * n;
    var dist = new Int32Array(m).fill(-1), pred = new Int32Array(m).fill(-1);
    // Binary heap of keys cost * m + state (exact in a double: cost < 2^31, m <= 7200).
    var heap = minHeap();
    var s0 = 2 * opts.start;
    dist[s0] = 0;
    heap.push(s0);
    while (heap.size() > 0) {
      var key = heap.pop();
      var s = key % m, d = (key - s) / m;
      if (d !== dist[s]) continue; // stale entry
      var sq = s >> 1, here = foes[sq];
      eachStep(floor, sq, s & 1, function (j2, feet, np) {
        if (!mayLeave && here.length && !within(here, foes[j2])) return; // leaves an opponent
        var nd = d + feet, ns = 2 * j2 + np;
        if (dist[ns] < 0 || nd < dist[ns]) {
          dist[ns] = nd; pred[ns] = s; heap.push(nd * m + ns);
        }
      });
    }
    var cost = new Int32Array(n), prev = new Int32Array(n);
    for (i = 0; i < n; i++) {
      var b = bestState(dist, i);
      cost[i] = b < 0 ? -1 : dist[b];
      prev[i] = b < 0 || pred[b] < 0 ? -1 : pred[b] >> 1;
    }
    return { cost: cost, pred: prev, stateCost: dist, statePred: pred };
  }

  // The cheaper of a square's two states, parity 0 on a tie (as CostMap.best_state).
  function bestState(dist, i) {
    var a = dist[2 * i], b = dist[2 * i + 1];
    if (a < 0 && b < 0) return -1;
    return (b < 0 || (a >= 0 && a <= b)) ? 2 * i : 2 * i + 1;
  }

  // One cheapest path (square indices, start first) to square i; [] if unreachable.
  function pathTo(result, i) {
    var s = bestState(result.stateCost, i), out = [];
    while (s >= 0) { out.push(s >> 1); s = result.statePred[s]; }
    return out.reverse();
  }

  /* The twin of grid.flight_map: moves within 2 × rate that leave at least one opponent.
   * opts: as costMap plus rate and maxWork (limits.MAX_FLIGHT_WORK); engagedDoubles as
   * there, mayLeaveEngagement ignored. Partial moves are labels (cost, state, pred, left:
   * sorted enemy ordinals), taken cheapest first, then fewest left, then oldest; a label is
   * dropped when another at its state costs no more and left no opponent it has not (the
   * labels that left no one only compete among themselves). Returns
   *   cost   Int32Array(n)  feet of each square's chosen move, -1 if none
   *   foes   Array(n)       the enemies (square indices) that move leaves
   *   best   Int32Array(n)  its label, -1 if none; labelCost, labelState, labelPred, labelLeft
   * Throws an Error with .tooMany = true past maxWork (partial moves made + compared). */
  function flightMap(opts) {
    var w = opts.width, h = opts.height, n = w * h, i;
    var wall = flags(n, opts.blocked), enemy = flags(n, opts.enemies);
    var barrier = flags(n, opts.barrier), difficult = flags(n, opts.difficult);
    var doubles = !!opts.engagedDoubles, bound = 2 * opts.rate;
    var maxWork = opts.maxWork, work = 0;
    var foes = foesNextTo(w, h, wall, enemy);
    var floor = {w: w, h: h, wall: wall, enemy: enemy, barrier: barrier, difficult: difficult,
                 foes: foes, doubles: doubles};
    var enemyAt = [];
    for (i = 0; i < n; i++) if (enemy[i]) enemyAt.push(i);
    var cost = [], state = [], pred = [], left = [], alive = [];
    var noneLeft = new Int32Array(2 * n).fill(-1), front = new Array(2 * n);
    var heap = minHeap();
    var SHIFT = 1048576;  // key = (cost * 4096 + |left|) * 2^20 + label, exact below 2^53
    function add(feet, st, before, set) {
      if (feet > bound) return;
      work += 1 + (front[st] ? front[st].length : 0);
      if (work > maxWork) {
        var err = new Error("too many ways to flee: more than " + maxWork + " partial moves");
        err.tooMany = true;
        throw err;
      }
      var k, kept;
      if (!set.length) {
        var old = noneLeft[st];
        if (old >= 0 && cost[old] <= feet) return;
        if (old >= 0) alive[old] = 0;
      } else {
        kept = front[st] || NONE;
        for (k = 0; k < kept.length; k++) if (cost[kept[k]] <= feet && within(left[kept[k]], set)) return;
        var still = [];
        for (k = 0; k < kept.length; k++) {
          if (feet <= cost[kept[k]] && within(set, left[kept[k]])) alive[kept[k]] = 0;
          else still.push(kept[k]);
        }
        front[st] = still;
      }
      var label = cost.length;
      cost.push(feet); state.push(st); pred.push(before); left.push(set); alive.push(1);
      if (!set.length) noneLeft[st] = label; else front[st].push(label);
      heap.push((feet * 4096 + set.length) * SHIFT + label);
    }
    add(0, 2 * opts.start, -1, NONE);
    while (heap.size() > 0) {
      var label = heap.pop() % SHIFT;
      if (!alive[label]) continue;
      var d = cost[label];
      var s = state[label], sq = s >> 1, here = foes[sq];
      eachStep(floor, sq, s & 1, function (j2, feet, np) {
        add(d + feet, 2 * j2 + np, label, union(left[label], minus(here, foes[j2])));
      });
    }
    var best = new Int32Array(n).fill(-1), out = new Int32Array(n).fill(-1), who = new Array(n);
    for (i = 0; i < n; i++) {
      var pick = -1;
      for (var q = 0; q < 2; q++) {
        var list = front[2 * i + q] || NONE;
        for (var z = 0; z < list.length; z++) {
          var c2 = list[z];
          if (!alive[c2]) continue;
          if (pick < 0 || better(c2, pick)) pick = c2;
        }
      }
      best[i] = pick;
      who[i] = NONE;
      if (pick >= 0) {
        out[i] = cost[pick];
        who[i] = left[pick].map(function (o) { return enemyAt[o]; });
      }
    }
    function better(a, b) {  // (|left|, cost, left, state) as flight_map's min
      if (left[a].length !== left[b].length) return left[a].length < left[b].length;
      if (cost[a] !== cost[b]) return cost[a] < cost[b];
      var c = compareSets(left[a], left[b]);
      return c !== 0 ? c < 0 : state[a] < state[b];
    }
    return { cost: out, foes: who, best: best, labelCost: cost, labelState: state,
             labelPred: pred, labelLeft: left };
  }

  // The squares (indices, start first) of the chosen flight to square i; [] if none.
  function flightPath(result, i) {
    var k = result.best[i], out = [];
    while (k >= 0) { out.push(result.labelState[k] >> 1); k = result.labelPred[k]; }
    return out.reverse();
  }

  // DX, DY, flags and foesNextTo are shared with the other grid twins (bfrpg_options.js).
  return { costMap: costMap, pathTo: pathTo, flightMap: flightMap, flightPath: flightPath,
           DX: DX, DY: DY, flags: flags, foesNextTo: foesNextTo };
})();
if (typeof module !== "undefined" && module.exports) module.exports = GridCost;
