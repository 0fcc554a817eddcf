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
#include "xfer_trie.h"

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
  XferTrie trie_;
  int radius_ = 0;
  std::vector<int> cand_;
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
