#include "generator.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <tuple>
#include <stdexcept>
#include <thread>

namespace quartz {

namespace {

constexpr double kSameStateTolerance = 1e-9;

// In-place product of a dense 2^k x 2^k matrix on qubits qs of a raw state of dimension dim
// (the generator's batched states live in flat buffers, not std::vectors).
void apply_gate(cplx* st, size_t dim, const cplx* m, const int32_t* qs, int k) {
  const int d = 1 << k;
  size_t mask = 0, offs[8];
  for (int j = 0; j < k; j++) mask |= static_cast<size_t>(1) << qs[j];
  for (int a = 0; a < d; a++) {
    size_t o = 0;
    for (int j = 0; j < k; j++)
      if (a >> j & 1) o |= static_cast<size_t>(1) << qs[j];
    offs[a] = o;
  }
  cplx in[8];
  for (size_t base = 0; base < dim; base++) {
    if (base & mask) continue;
    for (int a = 0; a < d; a++) in[a] = st[base | offs[a]];
    for (int r = 0; r < d; r++) {
      cplx acc = 0.0;
      for (int c = 0; c < d; c++) acc += m[r * d + c] * in[c];
      st[base | offs[r]] = acc;
    }
  }
}

}  // namespace

Generator::Generator(const std::vector<GateType>& gates, int num_qubits, int num_symbols,
                     bool sums, uint64_t seed, bool qubit_major,
                     const std::vector<GenConstant>& constants)
    : q_(num_qubits), m_(num_symbols), dim_(static_cast<size_t>(1) << num_qubits),
      fp_(num_qubits, num_symbols, seed) {
  if (num_qubits < 1 || num_qubits > kMaxGenQubits)
    throw std::invalid_argument("generator: number of qubits must be 1.." + std::to_string(kMaxGenQubits));
  if (num_symbols < 0 || num_symbols > 16)
    throw std::invalid_argument("generator: number of symbolic parameters must be 0..16");
  // Parameter table: p0..p(m-1), then p_a + p_b for a <= b (Quartz's `add` expressions).
  for (int a = 0; a < m_; a++) params_.push_back({a, -1, 0, 1});
  if (sums)
    for (int a = 0; a < m_; a++)
      for (int b = a; b < m_; b++) params_.push_back({a, b, 0, 1});
  const int num_symbolic = static_cast<int>(params_.size());
  // Constants (k/d * pi) come last; each is offered only to the gate types listed with it.
  std::vector<GateType> const_gate;
  for (const GenConstant& c : constants) {
    if (c.den <= 0) throw std::invalid_argument("generator: constant with a non-positive denominator");
    params_.push_back({-1, -1, c.num, c.den});
    const_gate.push_back(c.type);
  }
  std::vector<double> pval;
  for (const GenParam& p : params_) {
    if (p.a < 0) {
      param_masks_.push_back(0);
      pval.push_back(M_PI * static_cast<double>(p.num) / static_cast<double>(p.den));
      continue;
    }
    param_masks_.push_back((1ULL << p.a) | (p.b >= 0 ? 1ULL << p.b : 0));
    pval.push_back(fp_.symbol_values()[p.a] + (p.b >= 0 ? fp_.symbol_values()[p.b] : 0.0));
  }
  const int np_total = static_cast<int>(params_.size());
  for (GateType t : gates) {
    const GateInfo& info = gate_info(t);
    if (info.num_qubits > q_) continue;
    std::vector<std::vector<int>> qtuples, ptuples;
    std::vector<int> cur;
    std::function<void()> rec_q = [&] {
      if (static_cast<int>(cur.size()) == info.num_qubits) {
        if (!info.symmetric || std::is_sorted(cur.begin(), cur.end())) qtuples.push_back(cur);
        return;
      }
      for (int x = 0; x < q_; x++) {
        if (std::find(cur.begin(), cur.end(), x) != cur.end()) continue;
        cur.push_back(x);
        rec_q();
        cur.pop_back();
      }
    };
    rec_q();
    std::function<void(uint64_t)> rec_p = [&](uint64_t used) {
      if (static_cast<int>(cur.size()) == info.num_params) {
        ptuples.push_back(cur);
        return;
      }
      for (int x = 0; x < np_total; x++) {
        if (used & param_masks_[x]) continue;
        if (x >= num_symbolic && const_gate[x - num_symbolic] != t) continue;
        cur.push_back(x);
        rec_p(used | param_masks_[x]);
        cur.pop_back();
      }
    };
    cur.clear();
    rec_p(0);
    for (const auto& qt : qtuples)
      for (const auto& pt : ptuples) {
        GateChoice ch{};
        ch.type = t;
        ch.nq = info.num_qubits;
        ch.np = info.num_params;
        ch.qmask = 0;
        ch.pmask = 0;
        ch.minq = q_;
        double pv[kMaxGateParams] = {0, 0, 0};
        for (int k = 0; k < ch.nq; k++) {
          ch.qubits[k] = qt[k];
          ch.qmask |= 1u << qt[k];
          ch.minq = std::min(ch.minq, qt[k]);
        }
        for (int k = 0; k < ch.np; k++) {
          ch.params[k] = pt[k];
          ch.pmask |= param_masks_[pt[k]];
          pv[k] = pval[pt[k]];
        }
        ch.matrix = gate_matrix(t, pv);
        choices_.push_back(std::move(ch));
      }
  }
  if (qubit_major) {
    // Quartz's loop order: minimum qubit, then arity, then the other qubits (as a set), then
    // gate type, parameters, and the qubit permutation.
    auto key = [&](const GateChoice& c) {
      std::array<int, 3> sorted_q = {c.qubits[0], c.nq > 1 ? c.qubits[1] : -1, c.nq > 2 ? c.qubits[2] : -1};
      std::sort(sorted_q.begin(), sorted_q.begin() + c.nq);
      int type_rank = static_cast<int>(std::find(gates.begin(), gates.end(), c.type) - gates.begin());
      return std::make_tuple(c.minq, c.nq, sorted_q, type_rank,
                             std::array<int, 3>{c.params[0], c.params[1], c.params[2]},
                             std::array<int, 3>{c.qubits[0], c.qubits[1], c.qubits[2]});
    };
    std::stable_sort(choices_.begin(), choices_.end(),
                     [&](const GateChoice& a, const GateChoice& b) { return key(a) < key(b); });
  }
  if (choices_.size() >= 65535) throw std::invalid_argument("generator: too many gate choices");
  // The empty circuit is the identity class's representative.
  circuits_.push_back(GenCircuit{});
  class_of_.push_back(0);
  fps_.push_back(fp_.dot(fp_.input_state().data()));
  const cplx* st = store_state(fp_.input_state().data());
  class_rep_.push_back(add_representative(0, 0, st, -1));
  class_state_.push_back(st);
  buckets_.insert(std::abs(fps_[0]), 0);
  new_reps_.push_back(0);
}

const cplx* Generator::store_state(const cplx* st) {
  constexpr size_t kStatesPerBlock = 4096;
  if (state_blocks_.empty() || state_block_used_ == kStatesPerBlock) {
    state_blocks_.emplace_back(new cplx[kStatesPerBlock * dim_]);
    state_block_used_ = 0;
  }
  cplx* out = state_blocks_.back().get() + state_block_used_++ * dim_;
  std::copy(st, st + dim_, out);
  return out;
}

void Generator::Buckets::insert(double abs_fp, int id) {
  const int64_t b = bucket(abs_fp);
  size_t empty = 0;
  uint64_t* own = map_.find(static_cast<uint64_t>(b), &empty);  // sets empty: not inline
  append(b, own, empty, id);
}

int Generator::add_representative(size_t circuit, uint64_t pmask, const cplx* state, int parent) {
  int id = static_cast<int>(rep_circuit_.size());
  rep_circuit_.push_back(static_cast<int>(circuit));
  rep_pmask_.push_back(pmask);
  rep_state_.push_back(state);
  const GenCircuit& c = circuits_[circuit];
  int suffix = -1;
  if (parent >= 0 && !last_round_) {  // what expanding it would need
    const uint64_t last = c.g[c.ng - 1];
    rep_ext_.put(static_cast<uint64_t>(parent) << 16 | last, static_cast<uint64_t>(id));
    // The suffix of parent + g is suffix(parent) + g, a representative (expand_one checked).
    suffix = c.ng == 1 ? 0 : static_cast<int>(*rep_ext_prev_.find(
        static_cast<uint64_t>(rep_suffix_[parent]) << 16 | last));
  }
  rep_suffix_.push_back(suffix);
  return id;
}

int Generator::earlier_class_of(const cplx* st, double abs_fp) const {
  return buckets_.find(abs_fp, [&](int id) {
    return state_overlap(earlier_state_[id], st, dim_) > 1.0 - kSameStateTolerance;
  });
}

bool Generator::canonical_after(const GenCircuit& parent, int choice) const {
  // The canonical order always takes the ready gate with the smallest minimum qubit (ready
  // gates touch disjoint qubits, so this is strict). parent + g stays canonical iff g loses
  // to every parent gate placed after g became ready.
  const GateChoice& g = choices_[choice];
  int t = 0;
  for (int i = 0; i < parent.ng; i++)
    if (choices_[parent.g[i]].qmask & g.qmask) t = i + 1;
  for (int i = t; i < parent.ng; i++)
    if (choices_[parent.g[i]].minq > g.minq) return false;
  return true;
}

void Generator::expand_one(const FrontierRep& rep, Batch& out, std::vector<cplx>& scratch) const {
  const GenCircuit& parent = rep.circuit;
  const uint64_t pmask = rep.pmask;
  const cplx* st = rep.state;
  scratch.resize(dim_);
  for (int c = 0; c < static_cast<int>(choices_.size()); c++) {
    const GateChoice& g = choices_[c];
    if (pmask & g.pmask) continue;
    out.considered++;
    if (!canonical_after(parent, c)) continue;
    // RepGen: the circuit without its first gate must be a representative too.
    if (parent.ng > 0 &&
        !rep_ext_prev_.find(static_cast<uint64_t>(rep.suffix) << 16 | static_cast<uint64_t>(c)))
      continue;
    GenCircuit child = parent;
    child.g[child.ng++] = static_cast<uint16_t>(c);
    std::copy(st, st + dim_, scratch.begin());
    apply_gate(scratch.data(), dim_, g.matrix.data(), g.qubits, g.nq);
    const cplx f = fp_.dot(scratch.data());
    const double af = std::abs(f);
    const int cls = earlier_class_of(scratch.data(), af);
    out.circuits.push_back(child);
    out.fps.push_back(f);
    out.afs.push_back(af);
    out.cls.push_back(cls);
    if (cls < 0) {
      out.pmasks.push_back(pmask | g.pmask);
      out.parents.push_back(rep.id);
      out.states.insert(out.states.end(), scratch.begin(), scratch.end());
    }
  }
}

void Generator::begin_round(bool last) {
  if (round_ >= kMaxGenGates) throw std::invalid_argument("generator: too many gates");
  if (last_round_) throw std::logic_error("generator: the last round has been run");
  round_++;
  last_round_ = last;
  // The last round's classes join the earlier ones, in the order they were made.
  for (const auto& [id, af] : round_classes_) buckets_.insert(af, id);
  round_classes_.clear();
  round_buckets_ = Buckets();
  earlier_state_ = class_state_;
  rep_ext_prev_ = std::move(rep_ext_);
  rep_ext_ = FlatMap64(1 << 16);
  frontier_.clear();
  frontier_.reserve(new_reps_.size());
  for (int r : new_reps_)
    frontier_.push_back(FrontierRep{circuits_[rep_circuit_[r]], rep_pmask_[r], rep_state_[r],
                                    rep_suffix_[r], r});
  new_reps_.clear();
  // Reserve for this round's children and classes at the last round's rates per expanded
  // representative: growing these (and rehashing the buckets) copies and faults in far more
  // memory than the round keeps.
  if (prev_frontier_ > 0) {
    const double per_rep = static_cast<double>(frontier_.size()) / prev_frontier_ * 1.1;
    const size_t kept = static_cast<size_t>(kept_.back() * per_rep);
    const size_t made = static_cast<size_t>(frontier_.size() * per_rep);
    circuits_.reserve(circuits_.size() + kept);
    fps_.reserve(fps_.size() + kept);
    class_of_.reserve(class_of_.size() + kept);
    round_buckets_.reserve(made);
  }
  prev_frontier_ = frontier_.size();
  next_frontier_ = 0;
  considered_.push_back(0);
  kept_.push_back(0);
}

void Generator::classify(Batch& b) {
  // In order: a child whose class is from an earlier round has it already (expand_one looked,
  // in parallel); the others look among this round's classes, and found none make one. The
  // lookups miss the cache (most children make a class of their own), so the bucket of the
  // fresh child kAhead places on is prefetched.
  constexpr size_t kAhead = 8;
  const size_t n = b.circuits.size();
  const size_t first = circuits_.size();
  circuits_.insert(circuits_.end(), b.circuits.begin(), b.circuits.end());
  fps_.insert(fps_.end(), b.fps.begin(), b.fps.end());
  size_t fresh = 0;
  for (size_t i = 0; i < n; i++) {
    if (i + kAhead < n && b.cls[i + kAhead] < 0) round_buckets_.prefetch(b.afs[i + kAhead]);
    int cls = b.cls[i];
    if (cls < 0) {
      const size_t j = fresh++;
      const cplx* st = &b.states[j * dim_];
      const int id = static_cast<int>(class_rep_.size());
      cls = round_buckets_.find_or_insert(b.afs[i], id, [&](int c) {
        return state_overlap(class_state_[c], st, dim_) > 1.0 - kSameStateTolerance;
      });
      if (cls < 0) {
        cls = id;
        // The last round's states stay in their batch (kept whole below): no copy.
        const cplx* kept = last_round_ ? st : store_state(st);
        class_rep_.push_back(add_representative(first + i, b.pmasks[j], kept, b.parents[j]));
        class_state_.push_back(kept);
        if (!last_round_) {  // what the next round needs
          round_classes_.emplace_back(cls, b.afs[i]);
          new_reps_.push_back(class_rep_.back());
        }
      }
    }
    class_of_.push_back(cls);
  }
  considered_.back() += b.considered;
  kept_.back() += n;
  if (last_round_ && fresh > 0) last_round_states_.push_back(std::move(b.states));
}

size_t Generator::expand(size_t max_reps, int threads) {
  if (round_ == 0) throw std::logic_error("generator: begin_round() first");
  const size_t lo = next_frontier_, hi = std::min(frontier_.size(), lo + max_reps);
  if (hi <= lo) return 0;
  // Blocks of the slice are expanded in any order by any thread and classified here in
  // order, each as soon as it is ready, while the other threads expand the next ones: the
  // classes and their order do not depend on the number of threads.
  constexpr size_t kBlock = 64;
  const size_t nb = (hi - lo + kBlock - 1) / kBlock;
  std::vector<Batch> batches(nb);
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::condition_variable cv;
  std::vector<char> ready(nb, 0);
  std::exception_ptr error;
  // Expands the next unclaimed block; false when none is left.
  auto expand_next = [&](std::vector<cplx>& scratch) {
    const size_t b = next.fetch_add(1);
    if (b >= nb) return false;
    try {
      const size_t e = std::min(hi, lo + (b + 1) * kBlock);
      for (size_t i = lo + b * kBlock; i < e; i++) expand_one(frontier_[i], batches[b], scratch);
    } catch (...) {
      std::lock_guard<std::mutex> lk(mu);
      if (!error) error = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lk(mu);
      ready[b] = 1;
    }
    cv.notify_all();
    return true;
  };
  const int helpers = static_cast<int>(std::min<size_t>(std::max(1, threads), nb)) - 1;
  std::vector<std::thread> pool;
  for (int t = 0; t < helpers; t++)
    pool.emplace_back([&] {
      std::vector<cplx> scratch;
      while (expand_next(scratch)) {
      }
    });
  std::vector<cplx> scratch;
  std::exception_ptr classify_error;
  for (size_t b = 0; b < nb; b++) {
    bool failed = false;
    for (;;) {  // this thread expands too while block b is not ready
      {
        std::unique_lock<std::mutex> lk(mu);
        if (ready[b]) {
          failed = error != nullptr;
          break;
        }
      }
      if (!expand_next(scratch)) {
        std::unique_lock<std::mutex> lk(mu);
        cv.wait(lk, [&] { return ready[b] != 0; });
        failed = error != nullptr;
        break;
      }
    }
    if (!failed && !classify_error) {
      try {
        classify(batches[b]);
      } catch (...) {
        classify_error = std::current_exception();
      }
    }
    batches[b] = Batch{};
  }
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
  if (classify_error) std::rethrow_exception(classify_error);
  next_frontier_ = hi;
  return hi - lo;
}

}  // namespace quartz
