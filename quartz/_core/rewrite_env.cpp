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
  trie_ = XferTrie(*ix_);
  radius_ = trie_.radius();
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

void RewriteEnvCore::refresh(int v) {
  if (static_cast<int>(app_.size()) < dag_.capacity()) app_.resize(dag_.capacity());
  clear(v);
  std::vector<int>& out = app_[v];
  cand_.clear();
  trie_.candidates(dag_, v, cand_);
  for (int x : cand_) {
    const Xfer& xf = ix_->xfers[x];
    try {
      if (match_view(dag_, xf, v, m_) && dag_.prepare(xf, m_, rw_)) out.push_back(x);
    } catch (const std::overflow_error&) {  // exact angle arithmetic overflowed: no move
    }
  }
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
