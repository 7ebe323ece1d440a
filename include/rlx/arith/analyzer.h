// The integer analyzer: one object, one API for every symbolic question.
//
//   Analyzer ana;
//   ana.Bind(n, 1, 2048);                 // n in [1, 2048]
//   ana.Simplify(n * 4 - n * 3)           // n
//   ana.CanProveEqual(n * 4, 4 * n)        // true
//   ana.CanProve(lt(n, 4096))             // true under the bound
//   ana.ConstBounds(floordiv(n + 1, 2))   // [1, 1024]
//
// Simplification is canonical for integer expressions: a sum of products of
// variables (and non-linear atoms such as floordiv(x, y) with non-constant y)
// with integer coefficients, with floordiv/floormod by constants folded where
// the divisibility allows, min/max folded when bounds decide them. It is
// sound for all integer values, negative ones included (semantics in
// ir/expr.h). CanProve answers true only when the fact holds for every
// value consistent with the bound facts; false means "could not prove".
//
// Assumptions and limits (implementation notes in src/arith/*.cc):
// - Arithmetic is assumed not to overflow its dtype (int32 `i + 1 > i` is
//   proved). Constants folded in a narrow dtype wrap like the IR does, and a
//   coefficient that would overflow int64 leaves its node unsimplified.
// - Facts only accumulate. Contradictory facts (Bind(n, 5, 1)) make every
//   condition vacuously provable.
// - AddConstraint understands `and` of comparisons that simplify to
//   `c * v (<, <=, ==, >=, >) k` for a variable v, `v % c == r` (floormod)
//   and `truncmod(v, c) == 0`; anything else is ignored (which is sound).
// - Output order is deterministic: terms by decreasing coefficient, then by
//   variable name (`n * 4 + m`, `n - m * 2`); min/max operands are sorted
//   with constants last, so min(a, b) and min(b, a) simplify alike.
// - Not thread-safe; one Analyzer per thread (it is cheap to create).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "rlx/ir/expr.h"

namespace rlx::arith {

using ir::PrimExpr;
using ir::Var;

// Inclusive integer interval; kNegInf/kPosInf mark unbounded ends.
struct ConstIntBound {
  static constexpr int64_t kNegInf = INT64_MIN;
  static constexpr int64_t kPosInf = INT64_MAX;
  int64_t min_value = kNegInf;
  int64_t max_value = kPosInf;
  bool is_const() const { return min_value == max_value; }
};

// The set {coeff * k + base | k integer}; coeff 0 means the constant base.
struct ModularSet {
  int64_t coeff = 1;
  int64_t base = 0;
};

class Analyzer {
 public:
  Analyzer();
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // Facts. Bind(v, lo, hi) records lo <= v <= hi; Bind(v, expr) records that
  // v equals expr (substituted during simplification).
  void Bind(const Var& var, int64_t min_value, int64_t max_value);
  void Bind(const Var& var, const PrimExpr& value);
  // Adds a boolean fact (e.g. n >= 1, n % 4 == 0) usable by CanProve.
  void AddConstraint(const PrimExpr& condition);

  PrimExpr Simplify(const PrimExpr& expr);
  bool CanProve(const PrimExpr& condition);
  bool CanProveEqual(const PrimExpr& a, const PrimExpr& b);
  bool CanProveLess(const PrimExpr& a, const PrimExpr& b);          // a < b
  bool CanProveLessEqual(const PrimExpr& a, const PrimExpr& b);     // a <= b
  bool CanProveGreaterEqual(const PrimExpr& a, int64_t value);      // a >= value
  ConstIntBound ConstBounds(const PrimExpr& expr);
  ModularSet Modular(const PrimExpr& expr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Evaluates an integer/bool expression with the given variable values;
// nullopt if a variable is unbound, a division by zero occurs, or the
// expression is not integer arithmetic. Used by tests and constant folding.
std::optional<int64_t> EvaluateInt(const PrimExpr& expr,
                                   const std::unordered_map<const ir::VarNode*, int64_t>& values);

// Like EvaluateInt, but an arithmetic result that does not fit its dtype is
// nullopt instead of wrapping (casts still wrap). Tests use it to skip points
// where int64 arithmetic would overflow, which the analyzer assumes away.
std::optional<int64_t> EvaluateIntExact(const PrimExpr& expr,
                                        const std::unordered_map<const ir::VarNode*, int64_t>& values);

}  // namespace rlx::arith
