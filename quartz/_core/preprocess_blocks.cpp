// Resynthesis of small {cx, x, diagonal rotation} blocks with the fewest cx gates.
//
// A block is a convex piece of the circuit on at most 3 (or 4) qubits made of cx, x and
// mergeable diagonal rotations. Over its inputs it is an affine map plus a phase polynomial: a set of
// (parity, angle) terms, a rotation seen through a negated parity counting with the opposite
// sign. A search over the invertible bit matrices times the set of parities seen so far
// (preprocess_ladder.cpp) finds the shortest cx sequence that reaches the block's linear map and
// shows every needed parity on some wire; the rotations are written where their parity first
// appears and the negations as x gates at the end. The block is replaced only when that is
// strictly fewer gates.
#include <algorithm>
#include <array>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

namespace {

// How many gates a block scan looks at (keeps the pass linear on large circuits).
constexpr int kMaxScan = 256;

constexpr int kMaxBlockQubits = 4;

struct Block {
  int q[kMaxBlockQubits] = {-1, -1, -1, -1};
  int nq = 0;
  int rows[kMaxBlockQubits] = {0, 0, 0, 0};  // linear part of each wire over the block inputs
  bool neg[kMaxBlockQubits] = {false, false, false, false};
  std::vector<int> gates;          // absorbed gate indices
  std::vector<int> term_order;     // parity masks in order of first appearance
  std::array<Param, 1 << kMaxBlockQubits> angle;  // total rz angle per parity mask (un-negated)
  std::array<bool, 1 << kMaxBlockQubits> has{};
  int insert_at = -1;              // emit the new block before this gate (or after the last)
  Param phase_terms;               // global phase of rewriting its rotations as rz
  int local(int qubit) const {
    for (int k = 0; k < nq; k++)
      if (q[k] == qubit) return k;
    return -1;
  }
};

class BlockResynth {
 public:
  BlockResynth(const Circuit& c, DiagStyle style, int max_qubits)
      : g_(to_list(c)), n_(c.num_qubits()), style_(style), phase_(c.global_phase()),
        max_q_(std::max(2, std::min(kMaxBlockQubits, max_qubits))) {}

  Circuit run(int* changed) {
    const int m = static_cast<int>(g_.size());
    removed_.assign(m, 0);
    std::vector<std::vector<PGate>> inserted(m + 1);
    int blocked_until = -1;  // next block must start after the previous insertion point
    int count = 0;
    for (int s = 0; s < m; s++) {
      if (removed_[s] || g_[s].type != GateType::CX || s <= blocked_until) continue;
      Block b;
      grow(s, b);
      std::vector<PGate> seq;
      Param ph = phase_;
      if (!synthesize(b, seq, ph) || static_cast<int>(seq.size()) >= static_cast<int>(b.gates.size())) continue;
      phase_ = ph;
      for (int i : b.gates) removed_[i] = 1;
      const int at = b.insert_at < 0 ? b.gates.back() + 1 : b.insert_at;
      for (PGate& x : seq) inserted[at].push_back(x);
      blocked_until = at;
      count++;
    }
    std::vector<PGate> out;
    out.reserve(g_.size());
    for (int i = 0; i <= m; i++) {
      for (const PGate& x : inserted[i]) out.push_back(x);
      if (i < m && !removed_[i]) out.push_back(g_[i]);
    }
    if (changed) *changed = count;
    return from_list(n_, out, phase_);
  }

 private:
  void grow(int s, Block& b) {
    std::vector<uint8_t> tainted(n_, 0), closed(kMaxBlockQubits, 0);
    bool frozen = false;
    int open = 0;
    const int m = static_cast<int>(g_.size());
    for (int i = s, steps = 0; i < m && steps < kMaxScan; i++, steps++) {
      if (removed_[i]) continue;
      const PGate& h = g_[i];
      bool touches_taint = false, touches_block = false;
      for (int k = 0; k < h.nq; k++) {
        touches_taint |= tainted[h.q[k]] != 0;
        touches_block |= b.local(h.q[k]) >= 0;
      }
      if (!touches_block && !touches_taint && i != s) continue;
      const Kind kind = classify(h, style_);
      bool absorb = !touches_taint && (kind == Kind::CX || kind == Kind::X || kind == Kind::ROT);
      int fresh = 0;
      for (int k = 0; absorb && k < h.nq; k++) {
        const int l = b.local(h.q[k]);
        if (l >= 0 && closed[l]) absorb = false;
        if (l < 0) fresh++;
      }
      if (absorb && fresh > 0 && (frozen || b.nq + fresh > max_q_)) absorb = false;
      if (absorb) {
        for (int k = 0; k < h.nq; k++)
          if (b.local(h.q[k]) < 0) {
            b.q[b.nq] = h.q[k];
            b.rows[b.nq] = 1 << b.nq;
            b.nq++;
            open++;
          }
        apply(b, h, kind);
        b.gates.push_back(i);
        continue;
      }
      // h depends on the block's output: close its wires, taint its qubits.
      if (b.insert_at < 0) b.insert_at = i;
      frozen = true;
      for (int k = 0; k < h.nq; k++) {
        const int l = b.local(h.q[k]);
        if (l >= 0 && !closed[l]) {
          closed[l] = 1;
          open--;
        }
        tainted[h.q[k]] = 1;
      }
      if (open == 0) break;
    }
  }

  void apply(Block& b, const PGate& h, Kind kind) {
    if (kind == Kind::CX) {
      const int c = b.local(h.q[0]), t = b.local(h.q[1]);
      b.rows[t] ^= b.rows[c];
      b.neg[t] ^= b.neg[c];
    } else if (kind == Kind::X) {
      const int l = b.local(h.q[0]);
      b.neg[l] = !b.neg[l];
    } else {
      const int l = b.local(h.q[0]);
      Param theta, ph;
      rot_as_rz(h, theta, ph);
      b.phase_terms = b.phase_terms + ph;
      const int mask = b.rows[l];
      if (!b.has[mask]) {
        b.has[mask] = true;
        b.angle[mask] = Param();
        b.term_order.push_back(mask);
      }
      b.angle[mask] = b.angle[mask] + (b.neg[l] ? -theta : theta);
    }
  }

  bool synthesize(const Block& b, std::vector<PGate>& seq, Param& phase) {
    if (b.nq < 2) return false;
    int need = 0;
    for (int mask : b.term_order)
      if (rz_cost(b.angle[mask], style_) > 0) need |= 1 << (mask - 1);
    std::vector<std::pair<int, int>> moves;
    if (!shortest_ladder(b.nq, b.rows, need, moves)) return false;
    phase = phase + b.phase_terms;
    int rows[kMaxBlockQubits] = {0, 0, 0, 0};
    for (int k = 0; k < b.nq; k++) rows[k] = 1 << k;
    std::array<bool, 1 << kMaxBlockQubits> done{};
    auto write_visible = [&](int wire) {
      const int mask = rows[wire];
      if (mask == 0 || !b.has[mask] || done[mask]) return;
      done[mask] = true;
      emit_rz(seq, b.q[wire], b.angle[mask], style_, phase);
    };
    for (int k = 0; k < b.nq; k++) write_visible(k);
    for (const auto& mv : moves) {
      seq.push_back(make_gate(GateType::CX, b.q[mv.first], b.q[mv.second]));
      rows[mv.second] ^= rows[mv.first];
      write_visible(mv.second);
    }
    // Terms whose total is the identity (up to -I) were not needed: account for their phase.
    std::vector<PGate> none;
    for (int mask : b.term_order)
      if (!done[mask]) emit_rz(none, 0, b.angle[mask], style_, phase);
    for (int k = 0; k < b.nq; k++)
      if (b.neg[k]) seq.push_back(make_gate(GateType::X, b.q[k]));
    return true;
  }

  std::vector<PGate> g_;
  int n_;
  DiagStyle style_;
  Param phase_;
  int max_q_;
  std::vector<uint8_t> removed_;
};

}  // namespace

Circuit resynthesize_blocks(const Circuit& c, DiagStyle style, int* changed, int max_qubits) {
  return BlockResynth(c, style, max_qubits).run(changed);
}

}  // namespace preprocess
}  // namespace quartz
