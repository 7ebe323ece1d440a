// The canonical form of an integer expression (private to arith).
//
//   SumForm = sum over terms of (coeff * atom_1 * ... * atom_k) + constant
//
// An atom is any simplified integer expression that is not itself a sum or a
// product: a variable, or a non-linear node (x // y, x % c, min, max, select,
// cast, call, buffer load) whose operands are already canonical. Atoms of a
// term are sorted by ExprOrder (a power repeats its atom); terms are kept
// sorted by their atom lists, with distinct atom lists and non-zero
// coefficients, so adding two forms is a merge and like terms combine.
//
// Coefficient arithmetic is checked: an overflow throws OverflowError (see
// int_math.h). Rebuild turns a form back into a PrimExpr in a readable,
// deterministic order: terms by decreasing coefficient, then by atoms; the
// constant last; negative coefficients as subtraction:
//   n * 4 + m,  n - m * 2,  i * 16 + j * 4 + k + 1,  1 - n,  n * -1.
#pragma once

#include <array>
#include <initializer_list>
#include <vector>

#include "arith/expr_order.h"
#include "rlx/ir/expr.h"

namespace rlx::arith::detail {

// The atoms of a monomial, sorted. Nearly every monomial has one or two, so
// up to two live inline: copying a term then allocates nothing.
class AtomList {
 public:
  using value_type = ir::PrimExpr;
  static constexpr size_t kInline = 2;

  AtomList() = default;
  AtomList(std::initializer_list<ir::PrimExpr> atoms) {
    for (const ir::PrimExpr& atom : atoms) push_back(atom);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const ir::PrimExpr* begin() const { return size_ <= kInline ? inline_.data() : heap_.data(); }
  const ir::PrimExpr* end() const { return begin() + size_; }
  const ir::PrimExpr& operator[](size_t i) const { return begin()[i]; }

  void push_back(const ir::PrimExpr& atom) {
    if (size_ < kInline) {
      inline_[size_++] = atom;
      return;
    }
    if (size_ == kInline) {
      heap_.assign(inline_.begin(), inline_.end());
      inline_.fill(ir::PrimExpr());
    }
    heap_.push_back(atom);
    ++size_;
  }

 private:
  std::array<ir::PrimExpr, kInline> inline_;
  std::vector<ir::PrimExpr> heap_;  // all atoms once there are more than kInline
  size_t size_ = 0;
};

struct Term {
  AtomList atoms;  // sorted, non-empty
  int64_t coeff = 0;
};

struct SumForm {
  DataType dtype;
  std::vector<Term> terms;
  int64_t constant = 0;

  bool IsConst() const { return terms.empty(); }
  // The atom when the form is exactly `1 * atom` (no constant), else null.
  const ir::PrimExprNode* AsAtom() const {
    if (constant != 0 || terms.size() != 1 || terms[0].coeff != 1 || terms[0].atoms.size() != 1) return nullptr;
    return terms[0].atoms[0].get();
  }
};

// Operations on SumForms; holds the atom order.
class SumAlgebra {
 public:
  // Products with more terms than this are kept as a Mul atom.
  static constexpr size_t kMaxProductTerms = 256;

  explicit SumAlgebra(ExprOrder& order) : order_(order) {}

  SumForm Const(DataType dtype, int64_t value) const;
  SumForm Atom(const ir::PrimExpr& atom) const;
  SumForm Add(const SumForm& a, const SumForm& b) const;
  SumForm Sub(const SumForm& a, const SumForm& b) const;
  SumForm Neg(const SumForm& a) const { return Scale(a, -1); }
  SumForm Scale(const SumForm& a, int64_t k) const;
  SumForm Mul(const SumForm& a, const SumForm& b) const;
  // The form without its constant.
  SumForm WithoutConst(const SumForm& a) const;
  bool Equal(const SumForm& a, const SumForm& b) const;
  // The terms (and the constant, when equal) that a and b have in common.
  SumForm Common(const SumForm& a, const SumForm& b) const;

  ir::PrimExpr Rebuild(const SumForm& form) const;
  // A constant of `dtype`, wrapped into the dtype's range.
  static ir::PrimExpr MakeConst(int64_t value, DataType dtype);

  int CompareAtomLists(const AtomList& a, const AtomList& b) const;
  ExprOrder& order() const { return order_; }

 private:
  // Sorts terms by atom list and merges equal ones (dropping zeros).
  void Normalize(std::vector<Term>* terms) const;
  // The product of the term's atoms times `factor` (omitted when 1).
  ir::PrimExpr RebuildMonomial(const Term& term, int64_t factor) const;

  ExprOrder& order_;
};

}  // namespace rlx::arith::detail
