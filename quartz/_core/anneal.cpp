// Anytime simulated annealing over transformations, in the manner of GUOQ (Xu et al.,
// ASPLOS 2025): each move picks a random gate and a transformation that matches there,
// prices it on the working Dag in O(pattern) and applies it when it lowers or keeps the cost,
// or raises it by d with probability exp(-d / T) (T drawn per chain and restart around the
// option's temperature). A chain that finds nothing better for a
// while returns to its best; chains (one per thread) exchange their bests; with epochs on, a
// search whose best stalls starts again from its input (the best of all epochs is kept), so a
// long budget samples several local minima instead of waiting in one; rotation merging
// ("polish", O(n)) runs on the whole circuit at intervals that keep it a small share of time.
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "dag.h"
#include "search.h"

namespace quartz {

using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct SharedBest {
  std::mutex mu;
  Circuit circuit;  // the best of all epochs: the result
  double cost;
  // The best of the current epoch, which the chains exchange; an epoch ends when it stalls.
  int epoch = 0;
  Circuit epoch_circuit;
  double epoch_cost;
  uint64_t version = 0;  // of epoch_circuit
  Clock::time_point epoch_start, epoch_last;
  // With mu held: take c when it is better than the best so far (and report it), and as the
  // epoch's best when it is better than that. True when the epoch's best changed.
  bool offer(const Circuit& c, double c_cost, SearchProgress& pr) {
    keep(c, c_cost, pr);
    if (c_cost >= epoch_cost - 1e-9) return false;
    epoch_circuit = c;
    epoch_cost = c_cost;
    version++;
    epoch_last = Clock::now();
    return true;
  }
  // With mu held: take c as the result when it is better than the best of all epochs.
  void keep(const Circuit& c, double c_cost, SearchProgress& pr) {
    if (c_cost >= cost - 1e-9) return;
    circuit = c;
    cost = c_cost;
    pr.report(c_cost, c.num_gates());
  }
  // With mu held: start a new epoch from `start`.
  void new_epoch(const Circuit& start, double start_cost) {
    epoch++;
    epoch_circuit = start;
    epoch_cost = start_cost;
    version++;
    epoch_start = epoch_last = Clock::now();
  }
};

}  // namespace

Circuit Searcher::anneal(const Circuit& start, int chains) {
  if (!cost_.additive()) throw std::invalid_argument("annealing needs an additive cost");
  GateCost gc;
  for (int t = 0; t < kNumGateTypes; t++) gc.weight[t] = cost_.weight[t];
  gc.t_weight = cost_.t_weight;
  SharedBest shared;
  shared.circuit = start;
  shared.cost = Dag(start, gc).cost();
  shared.epoch_circuit = start;
  shared.epoch_cost = shared.cost;
  shared.epoch_start = shared.epoch_last = Clock::now();
  const double start_cost = shared.cost;
  const bool epochs = opt_.epoch_seconds >= 0;
  const double T0 = std::max(1e-9, opt_.temperature);

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
    Clock::time_point last_best = Clock::now(), last_sync = Clock::now();
    Clock::time_point next_polish = Clock::now();
    double polish_cost = 0.0;  // seconds the last polish took
    Match m;
    PreparedRewrite rw;
    std::vector<int> scratch;
    auto save = [&] {
      if (unsaved) { best = dag.to_circuit(); unsaved = false; }
    };
    while (!out_of_time(deadline_)) {
      long moves = 0;
      for (int b = 0; b < 256 && dag.num_gates() > 0; b++) {
        int v = dag.random_node(rng);
        if (ix_.by_type[static_cast<int>(dag.type(v))].empty()) continue;
        if (opt_.proposal == 0 ? !propose_move(trie_, ix_, dag, v, rng, m, rw, scratch)
                               : !propose_move(ix_, dag, v, rng, m, rw))
          continue;
        moves++;  // a move evaluated: a transformation matched and priced
        const double d = rw.delta;
        if (d > 1e-9 && unif(rng) >= std::exp(-d / T)) continue;
        if (d > 1e-9) save();  // leaving a best state
        dag.commit(rw);
        if (dag.cost() < bc - 1e-9) {
          bc = dag.cost();
          unsaved = true;
          last_best = Clock::now();
        }
      }
      pr_.expansions.fetch_add(moves, std::memory_order_relaxed);
      if (dag.num_gates() == 0) { save(); break; }
      // Rotation merging on the whole circuit, at most ~10 % of the time.
      if (opt_.polish_style >= 0 && Clock::now() >= next_polish) {
        Clock::time_point t0 = Clock::now();
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
            last_best = Clock::now();
          }
        }
        polish_cost = seconds_since(t0);
        next_polish = Clock::now() + std::chrono::microseconds(
            static_cast<long long>(std::max(0.05, 10 * polish_cost) * 1e6));
      }
      // Exchange bests between chains.
      if (seconds_since(last_sync) >= opt_.sync_every) {
        last_sync = Clock::now();
        save();
        std::lock_guard<std::mutex> lk(shared.mu);
        if (epoch == shared.epoch) {
          if (shared.offer(best, bc, pr_)) {
            seen_version = shared.version;
          } else if (shared.epoch_cost < bc - 1e-9 && shared.version != seen_version) {
            seen_version = shared.version;
            best = shared.epoch_circuit;
            bc = shared.epoch_cost;
            dag = Dag(best, gc);
            last_best = Clock::now();
          }
          // A stalled epoch ends (judged after this chain's offer): every chain starts again
          // from the input.
          const double took = std::chrono::duration<double>(
              shared.epoch_last - shared.epoch_start).count();
          if (epochs && seconds_since(shared.epoch_last) >=
                            opt_.epoch_seconds +
                                opt_.epoch_per_gate * shared.epoch_circuit.num_gates() +
                                opt_.epoch_growth * took) {
            shared.new_epoch(start, start_cost);
            pr_.restarts.fetch_add(1, std::memory_order_relaxed);
          }
        }
        if (epoch != shared.epoch) {
          shared.keep(best, bc, pr_);  // what this chain found in its last epoch
          epoch = shared.epoch;
          seen_version = shared.version;
          best = shared.epoch_circuit;
          bc = shared.epoch_cost;
          dag = Dag(best, gc);
          unsaved = false;
          T = draw_temperature();
          last_best = Clock::now();
        }
      }
      // Back to the best after a while without progress.
      if (seconds_since(last_best) >= opt_.restart_after && dag.cost() > bc + 1e-9) {
        save();
        dag = Dag(best, gc);
        T = draw_temperature();
        last_best = Clock::now();
      }
    }
    save();
    std::lock_guard<std::mutex> lk(shared.mu);
    shared.offer(best, bc, pr_);
  };

  const int n = std::max(1, chains);
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(n);
  for (int i = 1; i < n; i++)
    pool.emplace_back([&, i] {
      try { chain(i); } catch (...) { errors[i] = std::current_exception(); pr_.stop = true; }
    });
  try { chain(0); } catch (...) { errors[0] = std::current_exception(); pr_.stop = true; }
  for (auto& t : pool) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  return shared.circuit;
}

}  // namespace quartz
