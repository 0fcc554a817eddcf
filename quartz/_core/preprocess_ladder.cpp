// Shortest cx "ladders" on three wires for the phase parities of a CCZ.
//
// A ladder starts and ends with every wire holding its own input and, in between, puts each
// requested parity (a^b, a^c, b^c, a^b^c) on some wire. A breadth-first search over the 168
// invertible 3x3 bit matrices times the 16 subsets of parities seen finds the shortest one for
// every request; the full request needs the usual 6 cx, smaller ones fewer.
#include <array>
#include <queue>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

namespace {

int parity_bit(int row) {  // row: bit 0 = wire a, 1 = b, 2 = c
  switch (row) {
    case 3: return 0;  // a^b
    case 5: return 1;  // a^c
    case 6: return 2;  // b^c
    case 7: return 3;  // a^b^c
    default: return -1;
  }
}

struct Table {
  std::array<std::vector<std::pair<int, int>>, 16> ladder;
  Table() {
    // State: rows r0 | r1 << 3 | r2 << 6 (9 bits), seen-mask << 9.
    const int kStates = 1 << 13;
    std::vector<int> dist(kStates, -1), parent(kStates, -1), move(kStates, -1);
    const int start = 1 | (2 << 3) | (4 << 6);
    std::queue<int> q;
    dist[start] = 0;
    q.push(start);
    while (!q.empty()) {
      const int s = q.front();
      q.pop();
      int rows[3] = {s & 7, (s >> 3) & 7, (s >> 6) & 7};
      const int seen = s >> 9;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          if (i == j) continue;
          int r[3] = {rows[0], rows[1], rows[2]};
          r[j] ^= r[i];
          int sn = seen;
          const int b = parity_bit(r[j]);
          if (b >= 0) sn |= 1 << b;
          const int t = r[0] | (r[1] << 3) | (r[2] << 6) | (sn << 9);
          if (dist[t] >= 0) continue;
          dist[t] = dist[s] + 1;
          parent[t] = s;
          move[t] = i * 3 + j;
          q.push(t);
        }
    }
    for (int need = 0; need < 16; need++) {
      int best = -1;
      for (int seen = 0; seen < 16; seen++) {
        if ((seen & need) != need) continue;
        const int t = start | (seen << 9);
        if (dist[t] >= 0 && (best < 0 || dist[t] < dist[best])) best = t;
      }
      std::vector<std::pair<int, int>> moves;
      for (int t = best; t != start; t = parent[t]) moves.emplace_back(move[t] / 3, move[t] % 3);
      ladder[need].assign(moves.rbegin(), moves.rend());
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

const std::vector<std::pair<int, int>>& cx_ladder(int need) { return table().ladder[need & 15]; }

int ladder_parity_bit(int row) { return parity_bit(row); }

}  // namespace preprocess
}  // namespace quartz
