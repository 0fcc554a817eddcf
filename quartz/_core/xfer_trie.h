// The transformations' sources as a trie of their match steps, so that finding what can match
// at a gate tests each wire step once for all the sources that share it, instead of once per
// transformation. One root per first gate type; a child is one more source gate, reached from
// the gate matched at position `from` of the match order along its wire `slot`, forward or
// backward, of gate type `type`, arriving at its wire `to_slot`. A node lists the
// transformations whose source ends there. Qubit identity, parameters and convexity are left
// to match_view and Dag::prepare.
#pragma once
#include <vector>

#include "gates.h"
#include "matcher.h"

namespace quartz {

class XferTrie {
 public:
  XferTrie() = default;
  explicit XferTrie(const XferIndex& ix);
  // Largest source, in gates, minus one: how far (in wire steps) a match reaches from its anchor.
  int radius() const { return radius_; }
  // Transformations whose source's wire structure is present around gate v of g (any view
  // with type/next/prev/qubit), appended to out.
  template <class V>
  void candidates(const V& g, int v, std::vector<int>& out) const {
    int path[kMaxSteps];
    path[0] = v;
    walk(g, root_[static_cast<int>(g.type(v))], 1, path, out);
  }

 private:
  static constexpr int kMaxSteps = 64;
  struct Node {
    int from = 0, slot = 0, fwd = 0, to_slot = 0;
    GateType type = GateType::NUM_TYPES;
    std::vector<int> children, xfers;
  };
  template <class V>
  void walk(const V& g, int t, int depth, int* path, std::vector<int>& out) const {
    const Node& node = nodes_[t];
    out.insert(out.end(), node.xfers.begin(), node.xfers.end());
    for (int ch : node.children) {
      const Node& c = nodes_[ch];
      const int u = path[c.from];
      const int cand = c.fwd ? g.next(u, c.slot) : g.prev(u, c.slot);
      if (cand < 0 || g.type(cand) != c.type || g.qubit(cand, c.to_slot) != g.qubit(u, c.slot))
        continue;
      bool seen = false;
      for (int j = 0; j < depth && !seen; j++) seen = path[j] == cand;
      if (seen) continue;
      path[depth] = cand;
      walk(g, ch, depth + 1, path, out);
    }
  }

  std::vector<Node> nodes_;
  int root_[kNumGateTypes] = {};
  int radius_ = 0;
};

}  // namespace quartz
