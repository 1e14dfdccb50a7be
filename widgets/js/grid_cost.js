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
 * Plain ES2015, no imports: defines the global GridCost (and module.exports under Node).
 */
var GridCost = (function () {
  "use strict";
  // Same neighbour order as grid.STEPS: N, E, S, W, NE, SE, SW, NW.
  var DX = [0, 1, 0, -1, 1, 1, -1, -1];
  var DY = [-1, 0, 1, 0, -1, 1, 1, -1];

  function flags(n, list) {
    var out = new Uint8Array(n);
    if (list) for (var k = 0; k < list.length; k++) out[list[k]] = 1;
    return out;
  }

  /* opts: {width, height, start (index), blocked, barrier, difficult, allies, enemies,
   *        engagedDoubles (bool, default false), mayLeaveEngagement (bool, default true)} */
  function costMap(opts) {
    var w = opts.width, h = opts.height, n = w * h, i, k;
    var wall = flags(n, opts.blocked), enemy = flags(n, opts.enemies);
    var barrier = flags(n, opts.barrier), difficult = flags(n, opts.difficult);
    var doubles = !!opts.engagedDoubles;
    var mayLeave = opts.mayLeaveEngagement === undefined ? true : !!opts.mayLeaveEngagement;
    // Engaged: an open square next to an enemy.
    var engaged = new Uint8Array(n);
    for (i = 0; i < n; i++) {
      if (!enemy[i]) continue;
      var ex = i % w, ey = (i / w) | 0;
      for (k = 0; k < 8; k++) {
        var ax = ex + DX[k], ay = ey + DY[k];
        if (ax < 0 || ay < 0 || ax >= w || ay >= h) continue;
        var a = ay * w + ax;
        if (!wall[a] && !enemy[a]) engaged[a] = 1;
      }
    }
    var m = 2 * n;
    var dist = new Int32Array(m).fill(-1), pred = new Int32Array(m).fill(-1);
    // Binary heap of keys cost * m + state (exact in a double: cost < 2^31, m <= 7200).
    var heap = new Float64Array(16), size = 0;
    function push(key) {
      if (size === heap.length) { var bigger = new Float64Array(size * 2); bigger.set(heap); heap = bigger; }
      var j = size++;
      while (j > 0) {
        var p = (j - 1) >> 1;
        if (heap[p] <= key) break;
        heap[j] = heap[p]; j = p;
      }
      heap[j] = key;
    }
    function pop() {
      var top = heap[0], last = heap[--size], j = 0;
      for (;;) {
        var c = 2 * j + 1;
        if (c >= size) break;
        if (c + 1 < size && heap[c + 1] < heap[c]) c++;
        if (heap[c] >= last) break;
        heap[j] = heap[c]; j = c;
      }
      heap[j] = last;
      return top;
    }
    var s0 = 2 * opts.start;
    dist[s0] = 0;
    push(s0);
    while (size > 0) {
      var key = pop();
      var s = key % m, d = (key - s) / m;
      if (d !== dist[s]) continue; // stale entry
      var sq = s >> 1, parity = s & 1, x = sq % w, y = (sq / w) | 0;
      for (k = 0; k < 8; k++) {
        var nx = x + DX[k], ny = y + DY[k];
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        var j2 = ny * w + nx;
        if (wall[j2] || enemy[j2]) continue;
        var diag = k >= 4;
        if (diag && (wall[y * w + nx] || wall[ny * w + x])) continue; // no cutting wall corners
        if (!mayLeave && engaged[sq] && !engaged[j2]) continue;
        var step, np;
        if (diag) { step = parity ? 10 : 5; np = parity ^ 1; } else { step = 5; np = parity; }
        if (difficult[j2]) step *= 2;
        if (doubles && engaged[sq] && engaged[j2]) step *= 2;
        var nd = d + step + (barrier[j2] ? 5 : 0);
        var ns = 2 * j2 + np;
        if (dist[ns] < 0 || nd < dist[ns]) {
          dist[ns] = nd; pred[ns] = s; push(nd * m + ns);
        }
      }
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

  // DX, DY and flags are shared with the other grid twins (bfrpg_options.js).
  return { costMap: costMap, pathTo: pathTo, DX: DX, DY: DY, flags: flags };
})();
if (typeof module !== "undefined" && module.exports) module.exports = GridCost;
