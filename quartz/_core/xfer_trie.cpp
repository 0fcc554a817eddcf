#include "xfer_trie.h"

#include <algorithm>
#include <stdexcept>

namespace quartz {

XferTrie::XferTrie(const XferIndex& ix) {
  for (int t = 0; t < kNumGateTypes; t++) {
    root_[t] = static_cast<int>(nodes_.size());
    nodes_.emplace_back();
    if (t >= static_cast<int>(ix.by_type.size())) continue;
    for (int x : ix.by_type[t]) {
      const Xfer& xf = ix.xfers[x];
      const int n = xf.src_gates;
      if (n > kMaxSteps) throw std::invalid_argument("a transformation's source is too long to index");
      radius_ = std::max(radius_, n - 1);
      int cur = root_[t];
      for (int i = 1; i < n; i++) {
        Node key;
        key.from = static_cast<int>(std::find(xf.order.begin(), xf.order.begin() + i,
                                              xf.step_from[i]) - xf.order.begin());
        key.slot = xf.step_from_slot[i];
        key.fwd = xf.step_forward[i] ? 1 : 0;
        key.to_slot = xf.step_to_slot[i];
        key.type = xf.src.gates()[xf.order[i]].type;
        int found = -1;
        for (int ch : nodes_[cur].children) {
          const Node& c = nodes_[ch];
          if (c.from == key.from && c.slot == key.slot && c.fwd == key.fwd &&
              c.to_slot == key.to_slot && c.type == key.type) { found = ch; break; }
        }
        if (found < 0) {
          found = static_cast<int>(nodes_.size());
          nodes_.push_back(key);
          nodes_[cur].children.push_back(found);
        }
        cur = found;
      }
      nodes_[cur].xfers.push_back(x);
    }
  }
}

}  // namespace quartz
