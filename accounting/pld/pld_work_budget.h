// SPDX-License-Identifier: Apache-2.0
// Deterministic work limits for the PLD accountant. Its cost grows with the loss range, the grid and the number
// of composed steps, and extreme inputs (a tiny sigma, a huge eps, targets near 0 or 1) can need minutes. Every
// discretisation and convolution is charged, before it runs, in counted operations (one unit is about one
// nanosecond of CPU on the reference 2-core machine; the weights are in docs/pld_accountant.md sec. 7). A run whose next charge would exceed an open limit throws PldWorkLimit (a NotApplicable: exit 2 for
// `--accountant pld`, skipped by `auto`), so the same input stops at the same point on every machine.
#pragma once

#include "accounting/errors.h"

#include <atomic>
#include <cstddef>
#include <string>

namespace dpl {

// One PLD run (compose_pld, its lower-bound pass included): about 5 s of CPU on the
// reference machine (one unit is about one nanosecond there).
inline constexpr double kPldWorkPerRun = 5e9;
// One calibration's work, its search and the final certification together (about 8.5 s): the search stops
// kPldCertificationReserve short of it, and the certification gets what is left (at most kPldWorkPerRun). The CPU
// time the calibration spent before its PLD search (rdp's search, in nanoseconds) counts against it too.
inline constexpr double kPldWorkPerCalibration = 8.5e9;
inline constexpr double kPldCertificationReserve = 1.5e9;
// The feasibility check of a calibration (a lower bound on the epsilon of the other entries), inside its search.
inline constexpr double kPldWorkPerFeasibilityCheck = 1e9;

class PldWorkLimit : public NotApplicable {
 public:
  PldWorkLimit(const std::string& what, double limit_units) : NotApplicable(what), limit(limit_units) {}
  double limit;  // the limit that was reached, in work units
};

// The work that still fits in every open scope of this thread (+inf when none is open).
double pld_work_remaining();

// A limit on the PLD work done on this thread while the scope is alive. Scopes nest: a charge counts against
// every open scope and must fit in each (e.g. one run's limit inside a calibration's).
class PldWorkScope {
 public:
  // An isolated scope counts its charges apart: they do not reach the enclosing scopes (its owner charges the total
  // to them later, e.g. work done at the same time as other work whose charges must not depend on it). While
  // `*stop` is true (if given), every charge in it throws PldWorkLimit.
  struct Isolated {
    const std::atomic<bool>* stop = nullptr;
  };
  PldWorkScope(double limit, std::string what);
  PldWorkScope(double limit, std::string what, Isolated isolated);
  ~PldWorkScope();
  PldWorkScope(const PldWorkScope&) = delete;
  PldWorkScope& operator=(const PldWorkScope&) = delete;
  double used() const { return used_; }
  double limit() const { return limit_; }
  // Lowers (or raises) the limit of this scope; work already charged stays charged.
  void set_limit(double limit) { limit_ = limit; }
  bool exhausted() const { return exhausted_; }

 private:
  friend void charge_pld_work(double units);
  friend double pld_work_remaining();
  double limit_, used_ = 0;
  bool exhausted_ = false;
  std::string what_;
  PldWorkScope* outer_;
  bool isolated_ = false;
  const std::atomic<bool>* stop_ = nullptr;
  // The next scope a charge reaches: the enclosing one, none past an isolated scope.
  PldWorkScope* next() const { return isolated_ ? nullptr : outer_; }
};


// Charges `units` to every open scope, or throws PldWorkLimit (charging nothing) when one would go over. Charges
// from several threads (run_pair) are serialised.
void charge_pld_work(double units);

// This thread's open scopes, handed to a helper thread that works on its behalf (pld_parallel.h): while a
// PldWorkScopesAdopted is alive there, the helper's charges count against them. The scopes must outlive it.
using PldWorkScopesHandle = PldWorkScope*;
PldWorkScopesHandle current_pld_work_scopes();
class PldWorkScopesAdopted {
 public:
  explicit PldWorkScopesAdopted(PldWorkScopesHandle scopes);
  ~PldWorkScopesAdopted();
  PldWorkScopesAdopted(const PldWorkScopesAdopted&) = delete;
  PldWorkScopesAdopted& operator=(const PldWorkScopesAdopted&) = delete;

 private:
  PldWorkScope* saved_;
};

// The charge of one discretisation of n grid points (two survival functions per point in long double).
double pld_discretisation_work(std::size_t n);
// The charge of one direct convolution (na nb products).
double pld_direct_convolution_work(std::size_t na, std::size_t nb);
// The charge of one joint product r * b and b * b on the padded length n: 2 transforms, plus the separation, the
// two pointwise products and copies.
double pld_fft_joint_products_work(std::size_t n, bool extended);
// A real-input squaring a * a on the padded length n (a power of two; docs/pld_accountant.md, 3, "Real-input
// products"): two transforms of length n/2 and the split passes, in double or double words (extended).
double pld_fft_real_squaring_work(std::size_t n, bool extended);
// A real-input product a * b on the padded length n: three transforms of length n/2 and the split passes.
double pld_fft_real_product_work(std::size_t n, bool extended);

}  // namespace dpl
