// ECC simplification passes (Quartz PLDI'22 section 5) on the generator's own classes, in
// C++: the same passes, in the same order and with the same results as the reference
// implementation in quartz/generator/pruning.py (a test compares them), at a fraction of the
// time, so that pruning does not dominate a parallel generation.
//
// A circuit is a sequence of gates (gate-set rank, qubits, parameter ids); a parameter id
// indexes the generator's parameter table, with constants of equal value sharing one id.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "generator.h"

namespace quartz {

struct PGate {
  uint8_t t = 0;   // rank of the gate type in the gate set
  uint8_t nq = 0;
  uint8_t np = 0;
  int8_t q[3] = {0, 0, 0};
  int16_t p[3] = {0, 0, 0};
};
static_assert(sizeof(PGate) == 12, "PGate must have no padding (compared with memcmp)");

struct PCirc {
  uint8_t n = 0;
  PGate g[kMaxGenGates];
  bool operator==(const PCirc& o) const {
    return n == o.n && std::memcmp(g, o.g, sizeof(PGate) * n) == 0;
  }
};

struct PClass {
  int nq;
  std::vector<PCirc> cs;
  bool operator==(const PClass& o) const { return nq == o.nq && cs == o.cs; }
};

// One pass's counts: the pass's position in kPruningPasses (-1: the start), its cycle (1-based)
// and the classes and circuits after it.
struct PassLog {
  int pass;
  int cycle;
  size_t classes;
  size_t circuits;
};

// The passes, in the order pruning.py's PASSES runs them.
extern const char* const kPruningPasses[7];

struct PruneResult {
  std::vector<PClass> classes;
  std::vector<PassLog> log;
  std::vector<int> param_canonical;  // parameter id -> the id circuits use for it
};

// Run the passes in cycles until a whole cycle changes nothing, on the generator's classes of
// two or more circuits (all on the generator's q qubits). `gates` is the gate set in rank order.
PruneResult prune_generated(const Generator& gen, const std::vector<GateType>& gates,
                            bool split_identity, int max_cycles);

}  // namespace quartz
