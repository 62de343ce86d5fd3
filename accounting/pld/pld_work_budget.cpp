#include "accounting/pld/pld_work_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dpl {

namespace {

thread_local PldWorkScope* innermost = nullptr;

std::string units_text(double u) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", u);
  return buf;
}

}  // namespace

PldWorkScope::PldWorkScope(double limit, std::string what) : limit_(limit), what_(std::move(what)), outer_(innermost) {
  innermost = this;
}

PldWorkScope::~PldWorkScope() { innermost = outer_; }

void charge_pld_work(double units) {
  for (PldWorkScope* s = innermost; s; s = s->outer_) {
    if (!(s->used_ + units <= s->limit_)) {
      s->exhausted_ = true;
      throw PldWorkLimit("accountant 'pld': " + s->what_ + " would exceed its work limit of " +
                             units_text(s->limit_) + " operations (about " + units_text(s->limit_ / 1e9) +
                             " s of CPU; the loss range, grid or number of steps is extreme)",
                         s->limit_);
    }
  }
  for (PldWorkScope* s = innermost; s; s = s->outer_) s->used_ += units;
}

// Measured on the reference machine (bench/pld_work_weights, scalar radix-2 FFT of radix2_fft.h): about 2-3 ns
// per n log2 n in double and 9-10 ns in long double while the arrays fit in cache, 5-9 and 15-16 ns beyond 2^18
// points; the long double survival functions (erfc, log1p) about 60 ns per grid point.
double pld_discretisation_work(std::size_t n) { return 500.0 * static_cast<double>(n); }

double pld_direct_convolution_work(std::size_t na, std::size_t nb) {
  return static_cast<double>(na) * static_cast<double>(nb) + static_cast<double>(na + nb);
}

double pld_fft_convolution_work(std::size_t n, bool squaring, bool extended) {
  const double t = std::max(1.0, std::log2(static_cast<double>(n)));
  const bool large = n > (std::size_t{1} << 18);
  const double per = extended ? (large ? 16.0 : 10.0) : (large ? 9.0 : 3.0);
  const double transforms = squaring ? 2 : 3;
  return transforms * per * static_cast<double>(n) * t + 10.0 * static_cast<double>(n);
}

}  // namespace dpl
