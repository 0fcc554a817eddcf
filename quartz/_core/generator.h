// RepGen (Quartz PLDI'22, section 4): breadth-first enumeration of canonical circuits over a
// gate set, with incremental numeric fingerprints that group the circuits into candidate
// equivalence classes. Proofs are done later, in Python, by quartz.verifier.
//
// A circuit is a sequence of "gate choices": indices into a table of every (gate type, qubit
// tuple, parameter tuple) that the gate set allows on q qubits. The table is sorted, so the
// lexicographic order of choice sequences is the documented total order of circuits (within
// one gate count).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "fingerprint.h"
#include "flat_map.h"
#include "gates.h"

namespace quartz {

constexpr int kMaxGenGates = 12;
constexpr int kMaxGenQubits = 6;

struct GateChoice {
  GateType type;
  int nq;
  int np;
  int32_t qubits[kMaxGateQubits];
  int params[kMaxGateParams];  // indices into the generator's parameter table
  uint32_t qmask;               // qubits touched
  uint64_t pmask;               // symbols used (unique-use check)
  int minq;
  std::vector<cplx> matrix;     // numeric matrix at the fingerprint's symbol values
};

// One generator parameter: symbol a (b == -1), the sum of symbols a + b (a <= b), or the
// constant num/den * pi (a == -1).
struct GenParam {
  int a;
  int b;
  int64_t num;
  int64_t den;
};

// A constant angle num/den * pi offered to one gate type (e.g. rx(pi/2) for Rigetti).
struct GenConstant {
  GateType type;
  int64_t num;
  int64_t den;
};

struct GenCircuit {
  uint8_t ng = 0;
  uint16_t g[kMaxGenGates];
};

class Generator {
 public:
  // qubit_major: order gate choices by qubit first (Quartz's enumeration order) instead of by
  // gate type first.
  Generator(const std::vector<GateType>& gates, int num_qubits, int num_symbols, bool sums,
            uint64_t seed, bool qubit_major = false,
            const std::vector<GenConstant>& constants = {});
  // Representatives point into state_blocks_: a copy would point into the original's.
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  int num_qubits() const { return q_; }
  const std::vector<GateChoice>& choices() const { return choices_; }
  const std::vector<GenParam>& params() const { return params_; }
  const std::vector<double>& symbol_values() const { return fp_.symbol_values(); }

  // Start round k = rounds_started()+1: its frontier is the representatives of size k-1.
  // last: no round follows, so the new representatives are not indexed for expansion (the
  // serial part of the biggest round shrinks); a later begin_round() throws.
  void begin_round(bool last = false);
  // Expand up to max_reps more frontier representatives and classify their children (in the
  // total order, so a new class's first member is its minimum and the next round's frontier);
  // returns how many representatives were expanded.
  size_t expand(size_t max_reps, int threads);
  size_t frontier_size() const { return frontier_.size(); }
  size_t frontier_done() const { return next_frontier_; }
  int rounds_started() const { return round_; }

  // Results: every circuit kept (candidates of all rounds plus the empty circuit).
  size_t num_circuits() const { return circuits_.size(); }
  const GenCircuit& circuit(size_t i) const { return circuits_[i]; }
  int class_of(size_t i) const { return class_of_[i]; }
  size_t num_classes() const { return class_rep_.size(); }
  // Candidates considered in each round (before the canonical/suffix filters) and kept.
  const std::vector<size_t>& considered_per_round() const { return considered_; }
  const std::vector<size_t>& kept_per_round() const { return kept_; }
  cplx fingerprint(size_t i) const { return fps_[i]; }

 private:
  // A representative to expand this round, copied out at begin_round() so that the threads
  // expanding it never read what classify() is appending to at the same time.
  struct FrontierRep {
    GenCircuit circuit;
    uint64_t pmask;
    const cplx* state;
    int suffix;  // the representative that is `circuit` without its first gate (-1: empty)
    int id;
  };
  // Children of a block of the frontier, made by one thread: each with its fingerprint and
  // the class it fell into among the classes of earlier rounds (-1: none; then its state,
  // symbol mask and parent are kept for classify(), which looks among this round's classes).
  struct Batch {
    std::vector<GenCircuit> circuits;
    std::vector<cplx> fps;
    std::vector<double> afs;           // |fingerprint|
    std::vector<int> cls;
    std::vector<uint64_t> pmasks;      // per child with cls < 0
    std::vector<int> parents;          // representative expanded, per child with cls < 0
    std::vector<cplx> states;          // dim_ per child with cls < 0
    size_t considered = 0;
  };
  // Classes by |fingerprint| in buckets of width kBucketWidth, each bucket a chain of class
  // ids in insertion order. A lookup also scans a neighbouring bucket when |fingerprint| lies
  // within kEdge of a bucket's width from the edge between them: equal states give
  // fingerprints equal to rounding (about 1e-15), far closer than kEdge * kBucketWidth =
  // 1e-12, so a match can only be across an edge that near. Most lookups touch one bucket
  // instead of three (they miss: most circuits make a class of their own).
  class Buckets {
   public:
    static constexpr double kEdge = 1e-3;
    template <class F>
    int find(double abs_fp, F&& match) const {
      int64_t b, lo, hi;
      span(abs_fp, b, lo, hi);
      for (int64_t d = lo; d <= hi; d++) {
        const uint64_t* v = map_.find(static_cast<uint64_t>(b + d));
        if (!v) continue;
        for (int id = static_cast<int>(*v >> 32); id >= 0; id = next_[id])
          if (match(id)) return id;
      }
      return -1;
    }
    // find(), and when nothing matches: `id` inserted as find's insert() would, and -1 (the
    // lookups of a new class probe its bucket once).
    template <class F>
    int find_or_insert(double abs_fp, int id, F&& match) {
      int64_t b, lo, hi;
      span(abs_fp, b, lo, hi);
      size_t empty = 0;
      uint64_t* own = nullptr;
      for (int64_t d = lo; d <= hi; d++) {
        uint64_t* v = d == 0 ? (own = map_.find(static_cast<uint64_t>(b), &empty))
                             : map_.find(static_cast<uint64_t>(b + d));
        if (!v) continue;
        for (int c = static_cast<int>(*v >> 32); c >= 0; c = next_[c])
          if (match(c)) return c;
      }
      append(b, own, empty, id);
      return -1;
    }
    void insert(double abs_fp, int id);
    // Starts loading what a lookup of abs_fp reads first (classify() runs ahead of itself).
    void prefetch(double abs_fp) const { map_.prefetch(static_cast<uint64_t>(bucket(abs_fp))); }
    // Room for n more buckets without growing the table.
    void reserve(size_t n) { map_.reserve(map_.size() + n); }

   private:
    static int64_t bucket(double x) {
      return static_cast<int64_t>(std::floor(x / FingerprintBuckets::kBucketWidth));
    }
    // The bucket of abs_fp and the neighbours a lookup scans (b + lo .. b + hi).
    static void span(double abs_fp, int64_t& b, int64_t& lo, int64_t& hi) {
      const double y = abs_fp / FingerprintBuckets::kBucketWidth;
      const double fl = std::floor(y);
      b = static_cast<int64_t>(fl);
      lo = y - fl < kEdge ? -1 : 0;
      hi = y - fl > 1.0 - kEdge ? 1 : 0;
    }
    // Appends id to bucket b's chain: `own` is b's entry, or null with `empty` the free slot
    // map_.find(b, &empty) gave.
    void append(int64_t b, uint64_t* own, size_t empty, int id) {
      if (static_cast<size_t>(id) >= next_.size())
        next_.resize(std::max<size_t>(1024, 2 * (static_cast<size_t>(id) + 1)), -1);
      next_[id] = -1;
      if (own) {
        next_[static_cast<uint32_t>(*own)] = id;
        *own = (*own >> 32) << 32 | static_cast<uint32_t>(id);
      } else {
        map_.put_new(empty, static_cast<uint64_t>(b),
                     static_cast<uint64_t>(id) << 32 | static_cast<uint32_t>(id));
      }
    }
    FlatMap64 map_{1 << 16};  // bucket -> (first id << 32) | last id
    std::vector<int> next_;
  };
  bool canonical_after(const GenCircuit& parent, int choice) const;
  // The class of a state among the classes of earlier rounds (read by the expanding threads).
  int earlier_class_of(const cplx* st, double abs_fp) const;
  void expand_one(const FrontierRep& rep, Batch& out, std::vector<cplx>& scratch) const;
  void classify(Batch& b);
  int add_representative(size_t circuit, uint64_t pmask, const cplx* state, int parent);
  const cplx* store_state(const cplx* st);

  int q_, m_;
  size_t dim_;
  Fingerprinter fp_;
  std::vector<GenParam> params_;
  std::vector<uint64_t> param_masks_;
  std::vector<GateChoice> choices_;

  std::vector<GenCircuit> circuits_;
  std::vector<int> class_of_;
  std::vector<cplx> fps_;
  // Representatives: their circuit index, symbol mask and state; rep_suffix_ is the
  // representative that is the circuit without its first gate (RepGen keeps only circuits
  // whose suffix is a representative). rep_ext_ maps (rep << 16 | choice) to the
  // representative rep + choice for the representatives found this round, rep_ext_prev_ for
  // those of the round before (the only ones a round looks up).
  FlatMap64 rep_ext_{1 << 16}, rep_ext_prev_{16};
  std::vector<int> rep_suffix_;
  std::vector<int> rep_circuit_;
  std::vector<uint64_t> rep_pmask_;
  std::vector<const cplx*> rep_state_;  // dim_ amplitudes each, in state_blocks_
  std::vector<std::unique_ptr<cplx[]>> state_blocks_;
  std::vector<std::vector<cplx>> last_round_states_;  // the last round's batches' states
  size_t state_block_used_ = 0;
  // Classes: representative id (index into rep_*) and its state. buckets_ holds the classes
  // of earlier rounds (frozen while a round runs, read by every thread, with their states in
  // earlier_state_); round_buckets_ this round's, which only classify() touches.
  std::vector<int> class_rep_;
  std::vector<const cplx*> class_state_, earlier_state_;
  Buckets buckets_, round_buckets_;
  std::vector<std::pair<int, double>> round_classes_;  // (class, |fingerprint|) of this round

  std::vector<FrontierRep> frontier_;  // the representatives of size round_-1 being expanded
  std::vector<int> new_reps_;  // representatives found in the current round
  size_t next_frontier_ = 0;
  size_t prev_frontier_ = 0;  // the representatives the last round expanded
  int round_ = 0;
  bool last_round_ = false;
  std::vector<size_t> considered_, kept_;
};

}  // namespace quartz
