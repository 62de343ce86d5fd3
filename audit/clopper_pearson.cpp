// SPDX-License-Identifier: Apache-2.0
#include "audit/clopper_pearson.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_distributions.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

namespace dpl::audit {

namespace {

// The beta quantiles (portable_distributions.h: the same bits on every CPU) are within 1e-15 relative of the exact
// ones; moving every bound outward by a relative 1e-12 (far above that error, far below any statistical width)
// keeps them on the conservative side.
constexpr double kOutward = 1e-12;

void check(std::uint64_t k, std::uint64_t n, double alpha) {
  if (n == 0) throw InputError("Clopper-Pearson: n=0 is out of range: allowed n >= 1");
  if (k > n) throw InputError("Clopper-Pearson: k=" + std::to_string(k) + " exceeds n=" + std::to_string(n));
  if (!(alpha > 0 && alpha < 1))
    throw InputError("Clopper-Pearson: alpha=" + std::to_string(alpha) + " is out of range: allowed (0, 1)");
}

// The bounds already computed on this thread, by (k, n, alpha, end): an audit's event search asks for the same counts
// again and again (thousands of thresholds over a few hundred runs, once per delta of the curve), and a quantile
// costs 5-15 microseconds. A memo returns the value computed before, so the results are those without it.
struct BoundKey {
  std::uint64_t k, n, alpha_bits;
  bool upper;
  bool operator==(const BoundKey& o) const {
    return k == o.k && n == o.n && alpha_bits == o.alpha_bits && upper == o.upper;
  }
};

struct BoundKeyHash {
  std::size_t operator()(const BoundKey& key) const {
    std::uint64_t h = key.k * 0x9e3779b97f4a7c15ULL ^ (key.n + 0x632be59bd9b4e019ULL);
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL ^ key.alpha_bits;
    h = (h ^ (h >> 32)) * 0x94d049bb133111ebULL ^ static_cast<std::uint64_t>(key.upper);
    return static_cast<std::size_t>(h ^ (h >> 31));
  }
};

constexpr std::size_t kMemoEntries = 1 << 18;  // about 10 MB per thread at most; cleared when full

thread_local std::unordered_map<BoundKey, double, BoundKeyHash> memo;

template <class Compute>
double memoised(std::uint64_t k, std::uint64_t n, double alpha, bool upper, Compute compute) {
  BoundKey key{k, n, 0, upper};
  std::memcpy(&key.alpha_bits, &alpha, sizeof alpha);
  if (const auto it = memo.find(key); it != memo.end()) return it->second;
  const double value = compute();
  if (memo.size() >= kMemoEntries) memo.clear();
  memo.emplace(key, value);
  return value;
}

}  // namespace

// Clopper and Pearson (1934): lower = Beta(k, n-k+1) quantile at alpha (lower direction).
double clopper_pearson_lower(std::uint64_t k, std::uint64_t n, double alpha) {
  check(k, n, alpha);
  if (k == 0) return 0.0;
  return memoised(k, n, alpha, false, [&] {
    const double b = static_cast<double>(
        portable::beta_quantile(static_cast<long double>(k), static_cast<long double>(n - k + 1), alpha).x);
    return std::max(0.0, b * (1 - kOutward));
  });
}

// Clopper and Pearson (1934): upper = Beta(k+1, n-k) quantile at 1 - alpha (upper direction), i.e. 1 minus the
// alpha quantile of Beta(n-k, k+1), read from that quantile's complement y to keep its digits.
double clopper_pearson_upper(std::uint64_t k, std::uint64_t n, double alpha) {
  check(k, n, alpha);
  if (k == n) return 1.0;
  return memoised(k, n, alpha, true, [&] {
    const double b = static_cast<double>(
        portable::beta_quantile(static_cast<long double>(n - k), static_cast<long double>(k + 1), alpha).y);
    return std::min(1.0, b * (1 + kOutward) + 1e-300);
  });
}

}  // namespace dpl::audit
