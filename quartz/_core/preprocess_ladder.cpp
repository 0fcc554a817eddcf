// Shortest cx "ladders": cx sequences on 2 or 3 wires that reach a given linear map and show
// a given set of parities on some wire along the way.
//
// A breadth-first search from the identity over the invertible bit matrices (168 for 3 wires)
// times the set of parities seen so far (7 bits) is done once per wire count; a query picks the
// closest state with the wanted matrix whose seen set covers the request. The full CCZ request
// (a^b, a^c, b^c, a^b^c, back to the identity) needs the usual 6 cx, smaller ones fewer.
#include <algorithm>
#include <queue>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

namespace {

// BFS from the identity over states rows (3 bits each, 9 bits) | seen (7 bits: mask m -> bit m-1).
struct LadderSearch {
  static constexpr int kStates = 1 << 16;
  std::vector<int> dist, parent, move;
  explicit LadderSearch(int wires) : dist(kStates, -1), parent(kStates, -1), move(kStates, -1) {
    int rows[3] = {1, 2, wires == 3 ? 4 : 0};
    int seen = 0;
    for (int k = 0; k < wires; k++) seen |= 1 << (rows[k] - 1);
    const int start = encode(rows, seen);
    std::queue<int> q;
    dist[start] = 0;
    q.push(start);
    while (!q.empty()) {
      const int s = q.front();
      q.pop();
      for (int i = 0; i < wires; i++)
        for (int j = 0; j < wires; j++) {
          if (i == j) continue;
          int r[3] = {s & 7, (s >> 3) & 7, (s >> 6) & 7};
          r[j] ^= r[i];
          const int t = encode(r, (s >> 9) | (1 << (r[j] - 1)));
          if (dist[t] >= 0) continue;
          dist[t] = dist[s] + 1;
          parent[t] = s;
          move[t] = i * 3 + j;
          q.push(t);
        }
    }
  }
  static int encode(const int* r, int seen) { return r[0] | (r[1] << 3) | (r[2] << 6) | (seen << 9); }
  // Shortest moves reaching `rows` having seen every parity of `need`; false if unreachable.
  bool find(const int* rows, int need, std::vector<std::pair<int, int>>& moves) const {
    int best = -1;
    for (int seen = 0; seen < 128; seen++) {
      if ((seen & need) != need) continue;
      const int t = encode(rows, seen);
      if (dist[t] >= 0 && (best < 0 || dist[t] < dist[best])) best = t;
    }
    if (best < 0) return false;
    moves.clear();
    for (int t = best; dist[t] > 0; t = parent[t]) moves.emplace_back(move[t] / 3, move[t] % 3);
    std::reverse(moves.begin(), moves.end());
    return true;
  }
};

const LadderSearch& search(int wires) {
  static const LadderSearch two(2), three(3);
  return wires == 3 ? three : two;
}

}  // namespace

bool shortest_ladder(int wires, const int* rows, int need, std::vector<std::pair<int, int>>& moves) {
  return search(wires).find(rows, need, moves);
}

}  // namespace preprocess
}  // namespace quartz
