// Anytime simulated annealing over transformations, in the manner of GUOQ (Xu et al.,
// ASPLOS 2025): each move picks a random gate and a transformation that matches there,
// prices it on the working Dag in O(pattern) and applies it when it lowers or keeps the cost,
// or raises it by d with probability exp(-d / T) (T drawn per chain and restart around the
// option's temperature). A chain that finds nothing better for a
// while returns to its best; chains (one per thread) exchange their bests; with epochs on, a
// search whose best stalls starts again from its input (the best of all epochs is kept), so a
// long budget samples several local minima instead of waiting in one; rotation merging
// ("polish", O(n)) runs on the whole circuit at intervals that keep it a small share of the
// work. Chains keep time in work units, not seconds, and exchange in lockstep, in chain order:
// a seed gives the same search whatever the machine's speed or load, up to where the deadline
// or the patience rule (the only readers of the wall clock) cut it.
#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "dag.h"
#include "search.h"

namespace quartz {

namespace {

// Seconds as work units of a chain's clock (SearchOptions::units_per_second).
long units(double seconds, double per_second) {
  return static_cast<long>(std::max(0.0, seconds) * per_second);
}

struct SharedBest {
  Circuit circuit;  // the best of all epochs: the result
  double cost;
  // The best of the current epoch, which the chains exchange; an epoch ends when it stalls.
  int epoch = 0;
  Circuit epoch_circuit;
  double epoch_cost;
  uint64_t version = 0;  // of epoch_circuit
  long epoch_start = 0, epoch_last = 0;  // on the exchanges' clock (units)
  // Take c when it is better than the best so far (and report it), and as the epoch's best
  // when it is better than that. True when the epoch's best changed.
  bool offer(const Circuit& c, double c_cost, long now, SearchProgress& pr) {
    keep(c, c_cost, pr);
    if (c_cost >= epoch_cost - 1e-9) return false;
    epoch_circuit = c;
    epoch_cost = c_cost;
    version++;
    epoch_last = now;
    return true;
  }
  // Take c as the result when it is better than the best of all epochs.
  void keep(const Circuit& c, double c_cost, SearchProgress& pr) {
    if (c_cost >= cost - 1e-9) return;
    circuit = c;
    cost = c_cost;
    pr.report(c_cost, c.num_gates());
  }
  // Start a new epoch from `start`.
  void new_epoch(const Circuit& start, double start_cost, long now) {
    epoch++;
    epoch_circuit = start;
    epoch_cost = start_cost;
    version++;
    epoch_start = epoch_last = now;
  }
};

// What a chain brings to an exchange.
struct Slot {
  bool arrived = false;
  const Circuit* best = nullptr;
  double cost = 0.0;
  uint64_t seen_version = 0;
};

// The chains' exchanges: a cyclic barrier whose last arrival runs the exchange for all, in
// chain order, so that what the chains see does not depend on which of them came first. A
// chain that stops (deadline, error) leaves; the others no longer wait for it.
class Exchange {
 public:
  explicit Exchange(int n) : slots_(n), gone_(n, 0), waiting_(n), members_(n) {}
  // Arrive as chain `id` and wait for the others; `exchange(slots)` runs once all are in.
  template <class F>
  void arrive(int id, const Circuit& best, double cost, uint64_t& seen_version, F&& exchange) {
    std::unique_lock<std::mutex> lk(mu_);
    slots_[id] = Slot{true, &best, cost, seen_version};
    const uint64_t phase = phase_;
    if (--waiting_ == 0) {
      finish(exchange);
    } else {
      cv_.wait(lk, [&] { return phase_ != phase; });
    }
    seen_version = slots_[id].seen_version;
  }
  // Leave for good as chain `id` (again: nothing), first running `last()` under the lock.
  template <class L, class F>
  void leave(int id, L&& last, F&& exchange) {
    std::unique_lock<std::mutex> lk(mu_);
    if (gone_[id]) return;
    gone_[id] = 1;
    slots_[id].arrived = false;  // (set when an exchange this chain ran threw)
    last();
    members_--;
    if (--waiting_ <= 0 && members_ > 0) finish(exchange);
  }

 private:
  template <class F>
  void finish(F& exchange) {
    exchange(slots_);
    for (Slot& s : slots_) s.arrived = false;
    waiting_ = members_;
    phase_++;
    cv_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Slot> slots_;
  std::vector<char> gone_;  // chains that have left
  int waiting_, members_;
  uint64_t phase_ = 0;
};

}  // namespace

Circuit Searcher::anneal(const Circuit& start, int chains) {
  if (!cost_.additive()) throw std::invalid_argument("annealing needs an additive cost");
  GateCost gc;
  for (int t = 0; t < kNumGateTypes; t++) gc.weight[t] = cost_.weight[t];
  gc.t_weight = cost_.t_weight;
  if (opt_.allowed_n > 0) {
    gc.allowed = opt_.allowed.data();
    gc.allowed_n = opt_.allowed_n;
  }
  SharedBest shared;
  shared.circuit = start;
  shared.cost = Dag(start, gc).cost();
  shared.epoch_circuit = start;
  shared.epoch_cost = shared.cost;
  const double start_cost = shared.cost;
  const bool epochs = opt_.epoch_seconds >= 0;
  const double T0 = std::max(1e-9, opt_.temperature);
  const double ups = std::max(1.0, opt_.units_per_second);
  const long sync_units = std::max(1L, units(opt_.sync_every, ups));
  const long restart_units = units(opt_.restart_after, ups);
  const int n = std::max(1, chains);
  Exchange ex(n);
  long exchanges = 0;  // the exchanges' clock: sync_units per exchange
  // Run by the last chain to arrive, for all: offers in chain order, then the stall test.
  auto exchange = [&](std::vector<Slot>& slots) {
    const long now = ++exchanges * sync_units;
    for (Slot& s : slots)
      if (s.arrived && shared.offer(*s.best, s.cost, now, pr_)) s.seen_version = shared.version;
    // A stalled epoch ends: every chain starts again from the input.
    const double took = static_cast<double>(shared.epoch_last - shared.epoch_start);
    const double window = units(opt_.epoch_seconds + opt_.epoch_per_gate *
                                shared.epoch_circuit.num_gates(), ups) + opt_.epoch_growth * took;
    if (epochs && now - shared.epoch_last >= window) {
      shared.new_epoch(start, start_cost, now);
      pr_.restarts.fetch_add(1, std::memory_order_relaxed);
    }
  };

  std::vector<std::pair<Circuit, double>> finals(n, {Circuit(), INFINITY});
  auto chain = [&](int id) {
    std::mt19937_64 rng(opt_.seed * 0x9e3779b97f4a7c15ULL + 0x51ed27 * (id + 1));
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    // Circuits differ in the temperature that suits them: each chain draws its own,
    // log-uniform in [T0/2, 2 T0], at the start and at every return to its best.
    auto draw_temperature = [&] { return T0 * std::exp2(2.0 * unif(rng) - 1.0); };
    double T = draw_temperature();
    Circuit best = start;
    Dag dag(best, gc);
    double bc = dag.cost();
    bool unsaved = false;  // the Dag is at cost bc but `best` is not a copy of it yet
    uint64_t seen_version = 0;
    int epoch = 0;
    // This chain's clock in work units: a proposal 1, each transformation tried there 1 more,
    // a polish polish_units_per_gate per gate.
    long clock = 0, last_best = 0, next_sync = sync_units, next_polish = 0;
    Match m;
    PreparedRewrite rw;
    std::vector<int> scratch;
    auto save = [&] {
      if (unsaved) { best = dag.to_circuit(); unsaved = false; }
    };
    while (!out_of_time(deadline_) && (opt_.work_limit < 0 || clock < opt_.work_limit)) {
      long moves = 0;
      for (int b = 0; b < 256 && dag.num_gates() > 0; b++) {
        clock++;
        int v = dag.random_node(rng);
        if (ix_.by_type[static_cast<int>(dag.type(v))].empty()) continue;
        if (opt_.proposal == 0 ? !propose_move(trie_, ix_, dag, v, rng, m, rw, scratch, &clock)
                               : !propose_move(ix_, dag, v, rng, m, rw, &clock))
          continue;
        moves++;  // a move evaluated: a transformation matched and priced
        const double d = rw.delta;
        if (d > 1e-9 && unif(rng) >= std::exp(-d / T)) continue;
        if (d > 1e-9) save();  // leaving a best state
        dag.commit(rw);
        if (dag.cost() < bc - 1e-9) {
          bc = dag.cost();
          unsaved = true;
          last_best = clock;
        }
      }
      pr_.expansions.fetch_add(moves, std::memory_order_relaxed);
      if (dag.num_gates() == 0) { save(); break; }
      // Rotation merging on the whole circuit, about a tenth of the chain's work.
      if (opt_.polish_style >= 0 && clock >= next_polish) {
        Circuit cur = dag.to_circuit();
        Circuit p = polish(cur);
        if (opt_.resynth_blocks) {
          Circuit r = resynthesize(p);
          if (cost_(r) < cost_(p) - 1e-9) p = std::move(r);
        }
        Dag pd(p, gc);
        const double pc = pd.cost();
        if (pc < dag.cost() - 1e-9) {
          save();
          dag = std::move(pd);
          if (pc < bc - 1e-9) {
            best = std::move(p);
            bc = pc;
            last_best = clock;
          }
        }
        const long cost = static_cast<long>(opt_.polish_units_per_gate * cur.num_gates());
        clock += cost;
        next_polish = clock + std::max(units(0.05, ups), 10 * cost);
      }
      // Exchange bests between chains.
      if (clock >= next_sync) {
        next_sync = clock + sync_units;
        save();
        if (out_of_time(deadline_)) break;
        ex.arrive(id, best, bc, seen_version, exchange);
        // Until this chain arrives again no one writes the epoch's state: read it unlocked.
        auto adopt = [&] {  // continue from the epoch's best
          seen_version = shared.version;
          best = shared.epoch_circuit;
          bc = shared.epoch_cost;
          dag = Dag(best, gc);
          unsaved = false;
          last_best = clock;
        };
        if (epoch != shared.epoch) {  // a new epoch: start again from the input
          epoch = shared.epoch;
          adopt();
          T = draw_temperature();
        } else if (shared.epoch_cost < bc - 1e-9 && shared.version != seen_version) {
          adopt();
        }
      }
      // Back to the best after a while without progress.
      if (clock - last_best >= restart_units && dag.cost() > bc + 1e-9) {
        save();
        dag = Dag(best, gc);
        T = draw_temperature();
        last_best = clock;
      }
    }
    save();
    // Only this chain's final slot is written here: a chain released from an exchange may be
    // reading the epoch's state. The finals are kept in chain order once all have left, so the
    // trace does not depend on which chain left first.
    ex.leave(id, [&] { finals[id] = {best, bc}; }, exchange);
  };

  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(n);
  auto run = [&](int i) {
    try {
      chain(i);
    } catch (...) {
      errors[i] = std::current_exception();
      pr_.stop = true;
      ex.leave(i, [] {}, exchange);
    }
  };
  for (int i = 1; i < n; i++) pool.emplace_back(run, i);
  run(0);
  for (auto& t : pool) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  for (auto& [c, cost] : finals)
    if (cost < INFINITY) shared.keep(c, cost, pr_);
  return shared.circuit;
}

}  // namespace quartz
