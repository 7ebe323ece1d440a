// SumForm algebra and rebuilding (see sum_form.h).
#include "arith/sum_form.h"

#include <algorithm>
#include <numeric>

#include "arith/int_math.h"

namespace rlx::arith::detail {

using ir::PrimExpr;

SumForm SumAlgebra::Const(DataType dtype, int64_t value) const {
  SumForm form;
  form.dtype = dtype;
  form.constant = value;
  return form;
}

SumForm SumAlgebra::Atom(const PrimExpr& atom) const {
  SumForm form;
  form.dtype = atom->dtype;
  form.terms.push_back(Term{{atom}, 1});
  return form;
}

int SumAlgebra::CompareAtomLists(const AtomList& a, const AtomList& b) const {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (int c = order_.Compare(a[i], b[i])) return c;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

SumForm SumAlgebra::Add(const SumForm& a, const SumForm& b) const {
  SumForm out;
  out.dtype = a.dtype;
  out.constant = CheckedAdd(a.constant, b.constant);
  out.terms.reserve(a.terms.size() + b.terms.size());
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    int c = i == a.terms.size() ? 1 : j == b.terms.size() ? -1 : CompareAtomLists(a.terms[i].atoms, b.terms[j].atoms);
    if (c < 0) {
      out.terms.push_back(a.terms[i++]);
    } else if (c > 0) {
      out.terms.push_back(b.terms[j++]);
    } else {
      int64_t coeff = CheckedAdd(a.terms[i].coeff, b.terms[j].coeff);
      if (coeff != 0) out.terms.push_back(Term{a.terms[i].atoms, coeff});
      ++i;
      ++j;
    }
  }
  return out;
}

SumForm SumAlgebra::Sub(const SumForm& a, const SumForm& b) const { return Add(a, Neg(b)); }

SumForm SumAlgebra::Scale(const SumForm& a, int64_t k) const {
  if (k == 0) return Const(a.dtype, 0);
  SumForm out = a;
  out.constant = CheckedMul(a.constant, k);
  for (Term& term : out.terms) term.coeff = CheckedMul(term.coeff, k);
  return out;
}

SumForm SumAlgebra::WithoutConst(const SumForm& a) const {
  SumForm out = a;
  out.constant = 0;
  return out;
}

SumForm SumAlgebra::Mul(const SumForm& a, const SumForm& b) const {
  if (a.IsConst()) return Scale(b, a.constant);
  if (b.IsConst()) return Scale(a, b.constant);
  if ((a.terms.size() + 1) * (b.terms.size() + 1) > kMaxProductTerms) {
    PrimExpr x = Rebuild(a), y = Rebuild(b);
    if (order_.Less(y, x)) std::swap(x, y);
    return Atom(ir::mul(x, y));
  }
  // Each side's constant acts as a term with no atoms.
  auto with_const = [](const SumForm& f) {
    std::vector<Term> terms = f.terms;
    if (f.constant != 0) terms.push_back(Term{{}, f.constant});
    return terms;
  };
  std::vector<Term> left = with_const(a), right = with_const(b), product;
  product.reserve(left.size() * right.size());
  auto less = [this](const PrimExpr& x, const PrimExpr& y) { return order_.Less(x, y); };
  for (const Term& x : left) {
    for (const Term& y : right) {
      Term t;
      t.coeff = CheckedMul(x.coeff, y.coeff);
      std::merge(x.atoms.begin(), x.atoms.end(), y.atoms.begin(), y.atoms.end(), std::back_inserter(t.atoms), less);
      product.push_back(std::move(t));
    }
  }
  SumForm out;
  out.dtype = a.dtype;
  for (Term& t : product) {
    if (t.atoms.empty()) out.constant = CheckedAdd(out.constant, t.coeff);
  }
  std::erase_if(product, [](const Term& t) { return t.atoms.empty(); });
  Normalize(&product);
  out.terms = std::move(product);
  return out;
}

void SumAlgebra::Normalize(std::vector<Term>* terms) const {
  std::sort(terms->begin(), terms->end(),
            [this](const Term& x, const Term& y) { return CompareAtomLists(x.atoms, y.atoms) < 0; });
  std::vector<Term> merged;
  merged.reserve(terms->size());
  for (Term& t : *terms) {
    if (!merged.empty() && CompareAtomLists(merged.back().atoms, t.atoms) == 0) {
      merged.back().coeff = CheckedAdd(merged.back().coeff, t.coeff);
    } else {
      merged.push_back(std::move(t));
    }
  }
  std::erase_if(merged, [](const Term& t) { return t.coeff == 0; });
  *terms = std::move(merged);
}

bool SumAlgebra::Equal(const SumForm& a, const SumForm& b) const {
  if (a.constant != b.constant || a.terms.size() != b.terms.size()) return false;
  for (size_t i = 0; i < a.terms.size(); ++i) {
    if (a.terms[i].coeff != b.terms[i].coeff) return false;
    if (CompareAtomLists(a.terms[i].atoms, b.terms[i].atoms) != 0) return false;
  }
  return true;
}

SumForm SumAlgebra::Common(const SumForm& a, const SumForm& b) const {
  SumForm out = Const(a.dtype, a.constant == b.constant ? a.constant : 0);
  size_t i = 0, j = 0;
  while (i < a.terms.size() && j < b.terms.size()) {
    int c = CompareAtomLists(a.terms[i].atoms, b.terms[j].atoms);
    if (c < 0) {
      ++i;
    } else if (c > 0) {
      ++j;
    } else {
      if (a.terms[i].coeff == b.terms[j].coeff) out.terms.push_back(a.terms[i]);
      ++i;
      ++j;
    }
  }
  return out;
}

// ---------------------------------------------------------------- rebuild

PrimExpr SumAlgebra::MakeConst(int64_t value, DataType dtype) {
  return ir::MakeInt(WrapToDtype(value, dtype), dtype);
}

PrimExpr SumAlgebra::RebuildMonomial(const Term& term, int64_t factor) const {
  PrimExpr out = term.atoms[0];
  for (size_t i = 1; i < term.atoms.size(); ++i) out = ir::mul(out, term.atoms[i]);
  if (factor != 1) out = ir::mul(out, MakeConst(factor, out->dtype));
  return out;
}

PrimExpr SumAlgebra::Rebuild(const SumForm& form) const {
  DataType dtype = form.dtype;
  if (form.terms.empty()) return MakeConst(form.constant, dtype);
  std::vector<const Term*> order;
  for (const Term& t : form.terms) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const Term* x, const Term* y) { return x->coeff > y->coeff; });

  // The leading piece: the first term when positive, else a positive
  // constant (`1 - n`), else the negative term itself (`n * -1`).
  PrimExpr acc;
  bool constant_used = false;
  size_t next = 1;
  const Term& first = *order[0];
  if (first.coeff < 0 && form.constant > 0) {
    acc = MakeConst(form.constant, dtype);
    constant_used = true;
    next = 0;
  } else {
    acc = RebuildMonomial(first, first.coeff);
  }
  for (size_t i = next; i < order.size(); ++i) {
    const Term& t = *order[i];
    if (t.coeff > 0) {
      acc = ir::add(acc, RebuildMonomial(t, t.coeff));
    } else if (t.coeff == INT64_MIN) {
      acc = ir::add(acc, RebuildMonomial(t, t.coeff));
    } else {
      acc = ir::sub(acc, RebuildMonomial(t, -t.coeff));
    }
  }
  if (!constant_used && form.constant != 0) {
    if (form.constant > 0 || form.constant == INT64_MIN) {
      acc = ir::add(acc, MakeConst(form.constant, dtype));
    } else {
      acc = ir::sub(acc, MakeConst(-form.constant, dtype));
    }
  }
  return acc;
}

}  // namespace rlx::arith::detail

