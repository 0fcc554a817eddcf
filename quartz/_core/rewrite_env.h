// The learned optimizer's environment state: the search's working Dag plus, for every live
// gate, the transformations that apply there. A step prices and applies one rewrite on the
// Dag (O(pattern)) and recomputes the applicable lists only of the gates within a pattern's
// reach of the rewritten region, so a step costs O(neighbourhood), not O(circuit).
//
// Gates are addressed by their dense position in [0, num_gates()) (the Dag's live list);
// graph() exports the GNN's arrays in that same order. Positions change when gates are
// removed, so they are valid until the next step.
//
// Convexity is the one non-local condition of a match: a rewrite can make a far match convex
// or not. The lists are exact for the region they were last computed on, and step() checks the
// chosen move again, dropping it when it no longer applies; refresh_all() recomputes every list.
#pragma once
#include <memory>
#include <vector>

#include "circuit.h"
#include "dag.h"
#include "matcher.h"

namespace quartz {

class RewriteEnvCore {
 public:
  RewriteEnvCore(std::shared_ptr<const XferIndex> ix, const Circuit& c, const GateCost& gc);

  void reset(const Circuit& c);
  int num_gates() const { return dag_.num_gates(); }
  double cost() const { return dag_.cost(); }
  Circuit circuit() const { return dag_.to_circuit(); }
  // The transformations that apply at the gate in position pos (sorted).
  const std::vector<int>& applicable_at(int pos) const { return app_[dag_.live_node(pos)]; }
  long num_applicable() const { return total_; }
  // Apply transformation x at position pos; false (and the entry dropped) when it does not
  // apply there. delta: the cost change.
  bool step(int pos, int x, double& delta);
  // Recompute every gate's list (O(circuit)); what step() keeps up to date incrementally.
  void refresh_all();
  // Positions in topological (circuit) order: circuit() gate i is position topo_order()[i].
  std::vector<int> topo_order() const;
  // Gates whose list was recomputed by the last step (for tests and statistics).
  int last_refreshed() const { return last_refreshed_; }
  const Dag& dag() const { return dag_; }
  int radius() const { return radius_; }

 private:
  void build_index();
  void refresh(int v);
  void clear(int v);

  std::shared_ptr<const XferIndex> ix_;
  GateCost gc_;
  Dag dag_;
  void walk(int t, int depth);

  // The sources' structure as a trie: one root per first gate type; a child is one more source
  // gate, reached from the gate matched at position `from` of the match order along its wire
  // `slot`, forward or backward, of type `type`, arriving at its wire `to_slot`. A node lists
  // the transformations whose source ends there, so a refresh tests each step once for all
  // the sources that share it, and runs the full match only on what survives.
  struct TrieNode {
    int from = 0, slot = 0, fwd = 0, to_slot = 0;
    GateType type = GateType::NUM_TYPES;
    std::vector<int> children, xfers;
  };
  std::vector<TrieNode> trie_;
  int root_[kNumGateTypes];
  int radius_ = 0;                      // largest source, in gates, minus one
  int walk_[kMaxPatternQubits * 8];     // gates matched so far, in match order
  std::vector<int>* out_ = nullptr;
  int anchor_ = -1;
  std::vector<std::vector<int>> app_;   // by node id
  long total_ = 0;
  int last_refreshed_ = 0;
  Match m_;
  PreparedRewrite rw_;
  std::vector<uint32_t> mark_;
  uint32_t stamp_ = 0;
  std::vector<int> frontier_, next_, region_;
};

}  // namespace quartz
