// The search's mutable working state: a gate DAG (per-wire prev/next links) threaded on a
// topological list with order labels, so that matching a transformation, checking its
// convexity, pricing it and applying it cost O(pattern + the gates between its ends), not
// O(circuit). Circuit stays the value type; a Dag is built from one and turned back into one.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "circuit.h"
#include "matcher.h"
#include "preprocess.h"
#include "xfer_trie.h"

namespace quartz {

// Additive gate cost: weight per gate type plus t_weight per T-like gate (Circuit::t_count).
struct GateCost {
  double weight[kNumGateTypes];
  double t_weight = 0.0;
  // Connectivity (SearchOptions::allowed; nullptr: none): a rewrite that places a gate where
  // it may not stand is no move (Dag::prepare).
  const uint8_t* allowed = nullptr;
  int allowed_n = 0;
  double operator()(GateType t, const Param* params) const;
};

// A rewrite priced but not yet applied (Dag::prepare, then Dag::commit).
struct PreparedRewrite {
  std::vector<int> matched;                // the source's gates (node ids)
  std::vector<preprocess::PGate> gates;    // the target, bound and normalized
  std::vector<int> descendants;            // nodes to move after the target, in order
  Param phase_change;                      // added to the global phase on commit
  double delta = 0.0;                      // cost after - cost before
  int anchor = -1;                         // matched node with the largest label
};

class Dag {
 public:
  Dag(const Circuit& c, const GateCost& cost);
  Circuit to_circuit() const;
  int num_gates() const { return static_cast<int>(live_.size()); }
  double cost() const { return cost_; }
  // A uniformly random live node.
  int random_node(std::mt19937_64& rng) const { return live_[rng() % live_.size()]; }

  // Matcher view (see CircuitView).
  GateType type(int i) const { return nodes_[i].type; }
  int qubit(int i, int k) const { return nodes_[i].q[k]; }
  int next(int i, int k) const { return nodes_[i].nxt[k]; }
  int prev(int i, int k) const { return nodes_[i].prv[k]; }
  const Param& param(int i, int k) const { return nodes_[i].p[k]; }

  // Price match m of x: false when it is not convex or its phase is not constant.
  bool prepare(const Xfer& x, const Match& m, PreparedRewrite& rw);
  // Apply a prepared rewrite (the DAG must not have changed since prepare).
  void commit(const PreparedRewrite& rw);
  // Consistency of links, labels and the cost (for tests).
  bool check() const;

  // Node-level views for the RL environment (quartz/_core/rewrite_env.h).
  int capacity() const { return static_cast<int>(nodes_.size()); }  // node ids are < this
  bool alive(int i) const { return nodes_[i].alive; }
  int num_qubits_of(int i) const { return nodes_[i].nq; }
  int num_params_of(int i) const { return nodes_[i].np; }
  int live_node(int pos) const { return live_[pos]; }  // pos in [0, num_gates())
  int live_pos(int i) const { return nodes_[i].live_pos; }
  int seq_head() const { return shead_; }               // the topological list
  int seq_next(int i) const { return nodes_[i].snext; }
  const std::vector<int>& added() const { return added_; }  // nodes the last commit created
  long relabels() const { return relabels_; }  // whole-list relabellings so far

 private:
  struct Node {
    GateType type;
    uint8_t nq = 0, np = 0;
    bool alive = false;
    int32_t q[kMaxGateQubits] = {-1, -1, -1};
    int32_t prv[kMaxGateQubits] = {-1, -1, -1};
    int32_t nxt[kMaxGateQubits] = {-1, -1, -1};
    Param p[kMaxGateParams];
    uint64_t label = 0;
    int32_t sprev = -1, snext = -1;  // topological list
    int32_t live_pos = -1;
  };
  int new_node(const preprocess::PGate& g);
  void free_node(int i);
  static int slot_of(const Node& n, int qubit);
  void link(int a, int b, int qubit);  // a -> b on the wire (either may be -1)
  void seq_insert_after(int after, int i);
  void seq_unlink(int i);
  void relabel();
  double node_cost(const Node& n) const { return gc_(n.type, n.p); }

  int num_qubits_;
  GateCost gc_;
  std::vector<Node> nodes_;
  std::vector<int> free_, live_;
  std::vector<int> head_, tail_;  // first/last node on each wire
  int shead_ = -1, stail_ = -1;
  Param phase_;
  double cost_ = 0.0;
  // Scratch marks for prepare (stamped, so no clearing).
  std::vector<uint32_t> in_match_, seen_;
  uint32_t stamp_ = 0;
  long relabels_ = 0;
  std::vector<int> added_;
};

// A move at node v: the first transformation (from a random offset in v's type list) that
// matches there convexly, prepared in rw; false when none does.
// `tried`, when given, counts the transformations tried (the move's work, for anneal's clock).
bool propose_move(const XferIndex& ix, Dag& dag, int v, std::mt19937_64& rng, Match& m,
                  PreparedRewrite& rw, long* tried = nullptr);
// A move at node v drawn uniformly among the transformations that match there convexly: the
// trie's structural candidates, tried in random order until one matches (scratch: a buffer).
bool propose_move(const XferTrie& trie, const XferIndex& ix, Dag& dag, int v,
                  std::mt19937_64& rng, Match& m, PreparedRewrite& rw, std::vector<int>& scratch,
                  long* tried = nullptr);

}  // namespace quartz
