#include "rewrite_env.h"

#include <algorithm>
#include <stdexcept>

namespace quartz {

RewriteEnvCore::RewriteEnvCore(std::shared_ptr<const XferIndex> ix, const Circuit& c,
                               const GateCost& gc)
    : ix_(std::move(ix)), gc_(gc), dag_(c, gc) {
  build_index();
  refresh_all();
}

void RewriteEnvCore::build_index() {
  trie_.clear();
  radius_ = 0;
  for (int t = 0; t < kNumGateTypes; t++) {
    root_[t] = static_cast<int>(trie_.size());
    trie_.emplace_back();
    for (int x : ix_->by_type[t]) {
      const Xfer& xf = ix_->xfers[x];
      const int n = xf.src_gates;
      if (n > static_cast<int>(sizeof(walk_) / sizeof(walk_[0])))
        throw std::invalid_argument("a transformation's source is too long for the environment");
      radius_ = std::max(radius_, n - 1);
      int cur = root_[t];
      for (int i = 1; i < n; i++) {
        TrieNode key;
        key.from = static_cast<int>(std::find(xf.order.begin(), xf.order.begin() + i,
                                              xf.step_from[i]) - xf.order.begin());
        key.slot = xf.step_from_slot[i];
        key.fwd = xf.step_forward[i] ? 1 : 0;
        key.to_slot = xf.step_to_slot[i];
        key.type = xf.src.gates()[xf.order[i]].type;
        int found = -1;
        for (int ch : trie_[cur].children) {
          const TrieNode& c = trie_[ch];
          if (c.from == key.from && c.slot == key.slot && c.fwd == key.fwd &&
              c.to_slot == key.to_slot && c.type == key.type) { found = ch; break; }
        }
        if (found < 0) {
          found = static_cast<int>(trie_.size());
          trie_.push_back(key);
          trie_[cur].children.push_back(found);
        }
        cur = found;
      }
      trie_[cur].xfers.push_back(x);
    }
  }
}

void RewriteEnvCore::reset(const Circuit& c) {
  dag_ = Dag(c, gc_);
  refresh_all();
}

void RewriteEnvCore::clear(int v) {
  if (v < static_cast<int>(app_.size())) {
    total_ -= static_cast<long>(app_[v].size());
    app_[v].clear();
  }
}

void RewriteEnvCore::walk(int t, int depth) {
  const TrieNode& node = trie_[t];
  for (int x : node.xfers) {
    const Xfer& xf = ix_->xfers[x];
    try {
      if (match_view(dag_, xf, anchor_, m_) && dag_.prepare(xf, m_, rw_)) out_->push_back(x);
    } catch (const std::overflow_error&) {  // exact angle arithmetic overflowed: no move
    }
  }
  for (int ch : node.children) {
    const TrieNode& c = trie_[ch];
    const int u = walk_[c.from];
    const int cand = c.fwd ? dag_.next(u, c.slot) : dag_.prev(u, c.slot);
    if (cand < 0 || dag_.type(cand) != c.type) continue;
    if (dag_.qubit(cand, c.to_slot) != dag_.qubit(u, c.slot)) continue;
    bool seen = false;
    for (int j = 0; j < depth && !seen; j++) seen = walk_[j] == cand;
    if (seen) continue;
    walk_[depth] = cand;
    walk(ch, depth + 1);
  }
}

void RewriteEnvCore::refresh(int v) {
  if (static_cast<int>(app_.size()) < dag_.capacity()) app_.resize(dag_.capacity());
  clear(v);
  std::vector<int>& out = app_[v];
  out_ = &out;
  anchor_ = v;
  walk_[0] = v;
  walk(root_[static_cast<int>(dag_.type(v))], 1);
  std::sort(out.begin(), out.end());
  total_ += static_cast<long>(out.size());
}

void RewriteEnvCore::refresh_all() {
  app_.assign(dag_.capacity(), {});
  total_ = 0;
  for (int i = 0; i < dag_.num_gates(); i++) refresh(dag_.live_node(i));
  last_refreshed_ = dag_.num_gates();
}

bool RewriteEnvCore::step(int pos, int x, double& delta) {
  if (pos < 0 || pos >= dag_.num_gates()) throw std::out_of_range("gate position out of range");
  if (x < 0 || x >= static_cast<int>(ix_->xfers.size()))
    throw std::out_of_range("transformation index out of range");
  const int v = dag_.live_node(pos);
  std::vector<int>& lst = app_[v];
  auto it = std::lower_bound(lst.begin(), lst.end(), x);
  const bool listed = it != lst.end() && *it == x;
  const Xfer& xf = ix_->xfers[x];
  bool ok = false;
  if (listed && xf.valid) {
    try {
      ok = match_view(dag_, xf, v, m_) && dag_.prepare(xf, m_, rw_);
    } catch (const std::overflow_error&) {
      ok = false;
    }
  }
  if (!ok) {
    if (listed) {
      lst.erase(it);
      total_--;
    }
    last_refreshed_ = 0;
    return false;
  }
  // Seeds of the region to refresh: the live wire neighbours of the matched gates, and the
  // gates the rewrite creates. Every match that touched a changed gate is anchored within
  // radius_ wire steps of a seed.
  frontier_.clear();
  for (int u : rw_.matched)
    for (int k = 0; k < dag_.num_qubits_of(u); k++)
      for (int nb : {dag_.prev(u, k), dag_.next(u, k)})
        if (nb >= 0 && std::find(rw_.matched.begin(), rw_.matched.end(), nb) == rw_.matched.end())
          frontier_.push_back(nb);
  const std::vector<int> matched = rw_.matched;
  delta = rw_.delta;
  dag_.commit(rw_);
  for (int u : matched) clear(u);
  for (int u : dag_.added()) frontier_.push_back(u);
  if (static_cast<int>(mark_.size()) < dag_.capacity()) mark_.resize(dag_.capacity(), 0);
  if (++stamp_ == 0) {
    std::fill(mark_.begin(), mark_.end(), 0);
    stamp_ = 1;
  }
  region_.clear();
  for (int u : frontier_)
    if (mark_[u] != stamp_) { mark_[u] = stamp_; region_.push_back(u); }
  frontier_.assign(region_.begin(), region_.end());
  for (int d = 0; d < radius_ && !frontier_.empty(); d++) {
    next_.clear();
    for (int u : frontier_)
      for (int k = 0; k < dag_.num_qubits_of(u); k++)
        for (int nb : {dag_.prev(u, k), dag_.next(u, k)})
          if (nb >= 0 && mark_[nb] != stamp_) {
            mark_[nb] = stamp_;
            next_.push_back(nb);
            region_.push_back(nb);
          }
    frontier_.swap(next_);
  }
  for (int u : region_) refresh(u);
  last_refreshed_ = static_cast<int>(region_.size());
  return true;
}

std::vector<int> RewriteEnvCore::topo_order() const {
  std::vector<int> out;
  out.reserve(dag_.num_gates());
  for (int i = dag_.seq_head(); i >= 0; i = dag_.seq_next(i)) out.push_back(dag_.live_pos(i));
  return out;
}

}  // namespace quartz
