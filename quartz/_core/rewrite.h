// Applying a matched transformation: convexity check, splice of the target into the gate
// sequence, exact constant folding of the new angles, and global phase bookkeeping.
#pragma once
#include "circuit.h"
#include "matcher.h"

namespace quartz {

// Reduce a concrete rotation angle of a gate of type t into (-pi, pi]; rotations with period
// 4pi (rx, ry, rz, rxx, ryy, rzz) add pi to `phase` per 2pi removed (rz(2pi) = -I). Returns
// false when the gate becomes the identity (angle 0), so it can be dropped.
bool normalize_rotation(GateType t, Param& angle, Param& phase);

// The circuit with every rotation normalized and identity rotations dropped (phase kept).
Circuit normalize_circuit(const Circuit& c);

// The rewrite's phase bound to the matched angles (U_dst = e^{i phase} U_src); false when a
// bound angle is still symbolic.
bool bound_phase(const Xfer& x, const Match& m, Param& phase);

// Rewrite match m of xfer x in c into `out`. Returns false (out untouched) when the match is
// not convex (the rewrite would create a cycle) or its phase cannot be bound to constants.
// *target_pos receives the index in `out` where the target's gates begin.
bool apply_match(const Circuit& c, const Xfer& x, const Match& m, Circuit& out,
                 int* target_pos = nullptr);

// Convexity only: no path leaves the matched gates and re-enters them.
bool match_is_convex(const Circuit& c, const Match& m);

// Gates [0,begin) + replacement + gates [end, n) of c; global phases add.
Circuit splice(const Circuit& c, int begin, int end, const Circuit& replacement);

// Copy gate i of c onto the end of out.
void copy_gate(Circuit& out, const Circuit& c, int i);

}  // namespace quartz
