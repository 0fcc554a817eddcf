// Shortest cx "ladders": cx sequences on 2 to 4 wires that reach a given linear map and show
// a given set of parities on some wire along the way.
//
// A breadth-first search from the identity over the invertible bit matrices (168 for 3 wires)
// times the set of parities seen so far (7 bits) is done once per wire count; a query picks the
// closest state with the wanted matrix whose seen set covers the request. The full CCZ request
// (a^b, a^c, b^c, a^b^c, back to the identity) needs the usual 6 cx, smaller ones fewer.
#include <algorithm>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

namespace {

// A 4-wire query gives up (no resynthesis then) after this many A* expansions, or at once when
// it needs more than kLadder4MaxTerms parities beyond the inputs (the search space doubles
// with each).
constexpr long kLadder4Budget = 20000;
constexpr int kLadder4MaxTerms = 8;

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

// Four wires: 20160 invertible matrices times 2^11 seen sets is too many states to tabulate, so
// each query runs A* from the identity. Only the parities of `need` are tracked. The heuristic,
// max(cx distance from the matrix to the target, parities of `need` not yet seen), is
// consistent: a cx changes the matrix by one row operation and shows one new wire value.
// The distance of M to the target T is that of N = T M^-1 to the identity, read from a table
// made once; N is carried along (a row operation on M is a column operation on N).
struct Ladder4 {
  static int encode(const int* r) { return r[0] | (r[1] << 4) | (r[2] << 8) | (r[3] << 12); }
  static void decode(int m, int* r) {
    for (int k = 0; k < 4; k++) r[k] = (m >> (4 * k)) & 15;
  }
  static constexpr int kIdentity = 1 | (2 << 4) | (4 << 8) | (8 << 12);
  // Row operations from the identity to every matrix (-1: not invertible).
  static const std::vector<int8_t>& distances() {
    static const std::vector<int8_t> d = [] {
      std::vector<int8_t> out(1 << 16, -1);
      std::vector<int> q{kIdentity};
      out[kIdentity] = 0;
      for (size_t h = 0; h < q.size(); h++) {
        int r[4];
        decode(q[h], r);
        for (int i = 0; i < 4; i++)
          for (int j = 0; j < 4; j++) {
            if (i == j) continue;
            r[j] ^= r[i];
            const int t = encode(r);
            r[j] ^= r[i];
            if (out[t] >= 0) continue;
            out[t] = static_cast<int8_t>(out[q[h]] + 1);
            q.push_back(t);
          }
      }
      return out;
    }();
    return d;
  }
  // N with column i ^= column j (N E for the row operation E: row j ^= row i).
  static int column_op(int n, int i, int j) {
    for (int k = 0; k < 4; k++) n ^= ((n >> (4 * k + j)) & 1) << (4 * k + i);
    return n;
  }
  static bool find(const int* rows, int need, std::vector<std::pair<int, int>>& moves, long budget) {
    int idx[16];
    int k = 0;
    for (int m = 1; m < 16; m++)
      idx[m] = ((need >> (m - 1)) & 1) && (m & (m - 1)) ? k++ : -1;  // inputs show at the start
    if (k > kLadder4MaxTerms) return false;
    const std::vector<int8_t>& dist = distances();
    const int target = encode(rows);
    if (dist[target] < 0) return false;
    const uint32_t all = (1u << k) - 1;
    struct Node {
      uint32_t key;  // matrix | seen << 16
      uint16_t n;    // target x matrix^-1
      int g, parent, move;
    };
    std::vector<Node> nodes;
    std::unordered_map<uint32_t, int> index;
    using Entry = std::tuple<int, int, int>;  // (f, -g, node)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
    auto h = [&](uint32_t key, int n) { return std::max<int>(dist[n], k - __builtin_popcount(key >> 16)); };
    nodes.push_back({static_cast<uint32_t>(kIdentity), static_cast<uint16_t>(target), 0, -1, -1});
    index.emplace(kIdentity, 0);
    open.emplace(h(kIdentity, target), 0, 0);
    for (long expanded = 0; !open.empty() && expanded < budget; expanded++) {
      auto [f, ng, u] = open.top();
      open.pop();
      const Node cur = nodes[u];
      if (-ng != cur.g) continue;  // a stale entry
      if (cur.n == kIdentity && (cur.key >> 16) == all) {
        moves.clear();
        for (int v = u; nodes[v].parent >= 0; v = nodes[v].parent)
          moves.emplace_back(nodes[v].move / 4, nodes[v].move % 4);
        std::reverse(moves.begin(), moves.end());
        return true;
      }
      int r[4];
      decode(cur.key & 0xffff, r);
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
          if (i == j) continue;
          r[j] ^= r[i];
          uint32_t seen = cur.key >> 16;
          if (idx[r[j]] >= 0) seen |= 1u << idx[r[j]];
          const uint32_t key = static_cast<uint32_t>(encode(r)) | (seen << 16);
          r[j] ^= r[i];
          const int n = column_op(cur.n, i, j);
          auto [it, fresh] = index.emplace(key, static_cast<int>(nodes.size()));
          if (!fresh && nodes[it->second].g <= cur.g + 1) continue;
          const Node next{key, static_cast<uint16_t>(n), cur.g + 1, u, i * 4 + j};
          if (fresh) nodes.push_back(next);
          else nodes[it->second] = next;
          open.emplace(cur.g + 1 + h(key, n), -(cur.g + 1), it->second);
        }
    }
    return false;
  }
};

}  // namespace

bool shortest_ladder(int wires, const int* rows, int need, std::vector<std::pair<int, int>>& moves) {
  if (wires == 4) {
    // Queries repeat (the same blocks at every polish): remember the answers per thread.
    thread_local std::unordered_map<uint64_t, std::pair<bool, std::vector<std::pair<int, int>>>> memo;
    const uint64_t key = static_cast<uint64_t>(Ladder4::encode(rows)) | (static_cast<uint64_t>(need) << 16);
    auto it = memo.find(key);
    if (it == memo.end()) {
      std::vector<std::pair<int, int>> found;
      const bool ok = Ladder4::find(rows, need, found, kLadder4Budget);
      if (memo.size() > 100000) memo.clear();
      it = memo.emplace(key, std::make_pair(ok, std::move(found))).first;
    }
    moves = it->second.second;
    return it->second.first;
  }
  return search(wires).find(rows, need, moves);
}

}  // namespace preprocess
}  // namespace quartz
