// SPDX-License-Identifier: Apache-2.0
#include "accounting/pld/pld_work_budget.h"
#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>

namespace dpl {

namespace {

thread_local PldWorkScope* innermost = nullptr;
// Serialises charges: a scope may be charged by its own thread and by a helper thread at once.
std::mutex charge_mutex;

std::string units_text(double u) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", u);
  return buf;
}

}  // namespace

PldWorkScope::PldWorkScope(double limit, std::string what) : limit_(limit), what_(std::move(what)), outer_(innermost) {
  innermost = this;
}

PldWorkScope::PldWorkScope(double limit, std::string what, Isolated isolated)
    : PldWorkScope(limit, std::move(what)) {
  isolated_ = true;
  stop_ = isolated.stop;
}

PldWorkScope::~PldWorkScope() { innermost = outer_; }

double pld_work_remaining() {
  std::lock_guard<std::mutex> lock(charge_mutex);
  double remaining = std::numeric_limits<double>::infinity();
  for (PldWorkScope* s = innermost; s; s = s->next())
    remaining = std::min(remaining, s->limit_ - s->used_);
  return std::max(0.0, remaining);
}

PldWorkScopesHandle current_pld_work_scopes() { return innermost; }

PldWorkScopesAdopted::PldWorkScopesAdopted(PldWorkScopesHandle scopes) : saved_(innermost) { innermost = scopes; }

PldWorkScopesAdopted::~PldWorkScopesAdopted() { innermost = saved_; }

void charge_pld_work(double units) {
  std::lock_guard<std::mutex> lock(charge_mutex);
  for (PldWorkScope* s = innermost; s; s = s->next()) {
    if (s->stop_ && s->stop_->load()) throw PldWorkLimit("accountant 'pld': " + s->what_ + " was stopped", s->limit_);
    if (!(s->used_ + units <= s->limit_)) {
      s->exhausted_ = true;
      throw PldWorkLimit("accountant 'pld': " + s->what_ + " would exceed its work limit of " +
                             units_text(s->limit_) + " operations (about " + units_text(s->limit_ / 1e9) +
                             " s of CPU; the loss range, grid or number of steps is extreme)",
                         s->limit_);
    }
  }
  for (PldWorkScope* s = innermost; s; s = s->next()) s->used_ += units;
}

// Weights in nanoseconds of CPU on the reference 2-core machine, measured by timing every charged operation of
// DP-SGD (10^2 to 10^4 steps) and of q, steps and sigma calibrations (docs/pld_accountant.md, sec. 7): the scalar
// radix-2 FFT of radix2_fft.h costs about 1.8 ns per n log2 n in double and 6 in long double while the arrays fit in
// cache, 5.5 and 10 beyond 2^18 points (measured 0.4-0.75 ns per unit of the earlier weights 3/9/10/16); the long
// double survival functions (erfc, log1p) about 1,000 ns per grid point with the cell weights (measured 1.7-2 ns per
// unit of the earlier 500).
double pld_discretisation_work(std::size_t n) { return 1000.0 * static_cast<double>(n); }

double pld_direct_convolution_work(std::size_t na, std::size_t nb) {
  return static_cast<double>(na) * static_cast<double>(nb) + static_cast<double>(na + nb);
}

double pld_fft_joint_products_work(std::size_t n, bool extended) {
  const double t = std::max(1.0, portable::log2(static_cast<double>(n)));
  const bool large = n > (std::size_t{1} << 18);
  const double per = extended ? (large ? 10.0 : 6.0) : (large ? 5.5 : 1.8);
  return 2 * per * static_cast<double>(n) * t + 20.0 * static_cast<double>(n);
}

double pld_fft_real_squaring_work(std::size_t n, bool extended) {
  // Two half-length transforms (about one complex transform of length n) and the split, squares and inverse
  // split over n/2 points: about half a complex squaring's 2 transforms.
  const double t = std::max(1.0, portable::log2(static_cast<double>(n)));
  const bool large = n > (std::size_t{1} << 18);
  const double per = extended ? (large ? 10.0 : 6.0) : (large ? 5.5 : 1.8);
  return per * static_cast<double>(n) * t + 10.0 * static_cast<double>(n);
}

double pld_fft_real_product_work(std::size_t n, bool extended) {
  // Three half-length transforms (two forward, one inverse) and the splits, products and inverse split over n/2
  // points: one and a half real-input squarings.
  return 1.5 * pld_fft_real_squaring_work(n, extended);
}

}  // namespace dpl
