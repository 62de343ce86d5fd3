// SPDX-License-Identifier: Apache-2.0
// Seed 000 Sec. 2.1: modular arithmetic, fixed point, additive secret sharing (exact reconstruction, uniform
// single shares) and the secret-sharing DGD run (convergence without noise, Thm 2.1.1 claimed vs accounted, its
// end-to-end audit run).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <functional>

#include "accounting/errors.h"
#include "algorithms/run/audit_probe.h"
#include "algorithms/run/end_to_end_audit.h"
#include "algorithms/seed000/dgd_secret_sharing.h"
#include "algorithms/seed000/secret_sharing.h"

using namespace dpl::algorithms;

namespace {
__extension__ typedef unsigned __int128 U128;
constexpr std::uint64_t P = kMersenne61;

// Chi-square statistic of `count` draws of `draw()` in Z_p against the uniform law, `bins` equal bins.
double chi_square_uniform(const std::function<std::uint64_t()>& draw, int count, int bins) {
  std::vector<double> hist(static_cast<std::size_t>(bins), 0.0);
  for (int t = 0; t < count; ++t) {
    const std::uint64_t v = draw();
    hist[static_cast<std::size_t>((static_cast<U128>(v) * static_cast<unsigned>(bins)) / P)] += 1;
  }
  const double expected = static_cast<double>(count) / bins;
  double chi = 0;
  for (double h : hist) chi += (h - expected) * (h - expected) / expected;
  return chi;
}

double chi_square_critical(int bins) { return boost::math::quantile(boost::math::chi_squared(bins - 1), 0.999); }
}  // namespace

TEST(ModularArithmetic, KnownValues) {
  EXPECT_EQ(mulmod(P - 1, P - 1, P), 1u);  // (-1)^2 = 1
  EXPECT_EQ(mulmod(std::uint64_t{1} << 40, std::uint64_t{1} << 40, P),
            std::uint64_t{1} << 19);  // 2^80 = 2^19 mod 2^61-1
  EXPECT_EQ(addmod(P - 1, P - 1, P), P - 2);
  EXPECT_EQ(submod(0, 1, P), P - 1);
  EXPECT_EQ(mulmod(12345, 678910, 1000003), (12345ull * 678910ull) % 1000003ull);
}

RC_GTEST_PROP(ModularArithmetic, DistributiveAndInverse, (std::uint64_t a0, std::uint64_t b0, std::uint64_t c0)) {
  const std::uint64_t a = a0 % P, b = b0 % P, c = c0 % P;
  RC_ASSERT(mulmod(a, addmod(b, c, P), P) == addmod(mulmod(a, b, P), mulmod(a, c, P), P));
  RC_ASSERT(addmod(submod(a, b, P), b, P) == a);
}

TEST(FixedPoint, RoundTripAndOverflow) {
  const FixedPointCodec codec(32);
  for (double x : {0.0, 1.0, -1.0, 0.3, -1234.5678, 1e8, -1e8})
    EXPECT_LE(std::fabs(codec.decode(codec.encode(x)) - x), std::ldexp(1.0, -33));
  EXPECT_EQ(codec.encode(-1.0), P - (std::uint64_t{1} << 32));  // two's-complement style
  EXPECT_THROW(codec.encode(1e9), dpl::InputError);             // 2^32 * 1e9 > (p-1)/2
  EXPECT_THROW(codec.encode(NAN), dpl::InputError);
  EXPECT_THROW(FixedPointCodec(53), dpl::InputError);
}

RC_GTEST_PROP(SecretSharing, ReconstructsExactly, (std::uint64_t secret0, std::uint64_t seed)) {
  const std::uint64_t secret = secret0 % P;
  const int n = *rc::gen::inRange(1, 20);
  Rng rng(seed);
  const auto shares = split_into_shares(secret, n, P, rng);
  RC_ASSERT(static_cast<int>(shares.size()) == n);
  RC_ASSERT(reconstruct(shares, P) == secret);
}

RC_GTEST_PROP(SecretSharing, SumOfShareSumsIsSumOfSecrets, (std::uint64_t seed)) {
  // Sec. 2.1 steps 4-6: agent j broadcasts s_hat_j = sum_i s_ij; sum_j s_hat_j = sum_i x_i, decoded exactly.
  const int n = *rc::gen::inRange(3, 12);
  const FixedPointCodec codec(30);
  Rng rng(seed);
  std::vector<std::uint64_t> held(static_cast<std::size_t>(n), 0);
  long long exact_units = 0;
  for (int i = 0; i < n; ++i) {
    const long long units = *rc::gen::inRange(-1000000000, 1000000000);
    exact_units += units;
    const auto shares = split_into_shares(codec.encode(std::ldexp(static_cast<double>(units), -30)), n, P, rng);
    for (int j = 0; j < n; ++j)
      held[static_cast<std::size_t>(j)] =
          addmod(held[static_cast<std::size_t>(j)], shares[static_cast<std::size_t>(j)], P);
  }
  RC_ASSERT(codec.decode(reconstruct(held, P)) == std::ldexp(static_cast<double>(exact_units), -30));
}

// UniformModP is Rng::uniform_int with its bound precomputed (and the Mersenne modulus reduced by folding): the same
// draws for the same seed, for the Mersenne prime, a small modulus (rejections frequent relative to it) and one just
// above 2^62 (half the draws rejected).
RC_GTEST_PROP(SecretSharing, UniformModPDrawsAsUniformInt, (std::uint64_t seed)) {
  for (const std::uint64_t p : {P, std::uint64_t{3}, std::uint64_t{97}, (std::uint64_t{1} << 62) + 1}) {
    Rng a(seed), b(seed);
    const UniformModP u(p);
    for (int t = 0; t < 200; ++t) RC_ASSERT(u(a) == b.uniform_int(p));
  }
}

TEST(SecretSharing, EachShareIsUniform) {
  // Fixed seed; 64 bins, 64000 draws, level 0.001. Both a drawn share and the computed last share.
  Rng rng(20261123);
  const std::uint64_t secret = FixedPointCodec(32).encode(0.75);
  const double crit = chi_square_critical(64);
  EXPECT_LT(chi_square_uniform([&] { return split_into_shares(secret, 3, P, rng)[0]; }, 64000, 64), crit);
  EXPECT_LT(chi_square_uniform([&] { return split_into_shares(secret, 3, P, rng)[2]; }, 64000, 64), crit);
  EXPECT_LT(chi_square_uniform([&] { return split_into_shares(secret, 2, P, rng)[1]; }, 64000, 64), crit);
}

TEST(SecretSharing, BiasedTwinIsRejected) {
  // Miscalibrated twin: the random share drawn from the lower 90% of Z_p only; the last share secret - s then
  // misses a tenth of Z_p and the same test must reject it.
  Rng rng(20261123);
  const std::uint64_t secret = FixedPointCodec(32).encode(0.75);
  const double crit = chi_square_critical(64);
  const double chi = chi_square_uniform(
      [&] {
        const std::uint64_t s = rng.uniform_int(P / 10 * 9);
        return submod(secret, s, P);
      },
      64000, 64);
  EXPECT_GT(chi, crit);
}

TEST(DgdSecretSharing, ConvergesWithoutNoise) {
  RunParameters p = RunParameters::from_assignments({"noise=off"});
  const RunResult r = run_dgd_secret_sharing(p, 7);
  EXPECT_EQ(r.iterations, 50);
  EXPECT_LT(r.suboptimality, 1e-6);
  EXPECT_GE(r.suboptimality, -1e-9);
  EXPECT_LE(r.extra["max_reconstruction_error"].get<double>(), r.extra["reconstruction_error_bound"].get<double>());
  ASSERT_EQ(r.trace.size(), 51u);
  EXPECT_EQ(r.trace.back().messages.rows(), 10);
  EXPECT_EQ(r.claimed["epsilon"], "inf");
}

TEST(DgdSecretSharing, ClaimedAndAccountedPrivacy) {
  RunParameters all = RunParameters::from_assignments({"K=20", "sigma=0.2", "eta=0.5"});
  const RunResult a = run_dgd_secret_sharing(all, 3);
  RunParameters one = RunParameters::from_assignments({"K=20", "sigma=0.2", "eta=0.5", "honest=1"});
  const RunResult b = run_dgd_secret_sharing(one, 3);
  const double sens = a.extra["sensitivity_l2"].get<double>();
  // Classical calibration: eps = eta Delta2 sqrt(2 ln(1.25/delta))/sigma; Thm 2.1.1 divides by sqrt(N') = sqrt(10).
  const double eps_agent = 0.5 * sens * std::sqrt(2 * std::log(1.25 / 1e-5)) / 0.2;
  EXPECT_NEAR(a.claimed["epsilon_per_round"].get<double>(), eps_agent / std::sqrt(10.0), 1e-12);
  EXPECT_NEAR(a.claimed["epsilon"].get<double>(), 20 * eps_agent / std::sqrt(10.0), 1e-10);
  EXPECT_NEAR(b.claimed["epsilon"].get<double>(), 20 * eps_agent, 1e-10);
  // Exact composition of the honest sum's Gaussian is tighter than K times the classical figure, and more honest
  // agents give less loss.
  const double acc_all = a.accounted["epsilon"].get<double>(), acc_one = b.accounted["epsilon"].get<double>();
  EXPECT_LT(acc_all, a.claimed["epsilon"].get<double>());
  EXPECT_LT(acc_all, acc_one);
  EXPECT_GT(acc_all, 0);
}

// An end-to-end audit run (the canary agent's data on D, the full run with its shares) reports the colluders' view
// once a round, all coordinates, against the claimed std sqrt(N') sigma: its residual energy per draw is about 1 at
// the claimed noise and 1/4 at half of it (600 draws: the ratio's sd is 0.058, so 0.25 either side is over 4 sd).
TEST(DgdSecretSharing, EndToEndAuditRunReportsTheHonestSumEveryRound) {
  for (const char* honest : {"honest=0", "honest=4"})
    for (double factor : {1.0, 0.5}) {
      AuditProbe probe(factor);
      RunParameters a = RunParameters::from_assignments({"K=20", "loss=hinge", honest});
      a.set_audit_probe(&probe);
      EndToEndAudit e2e(true, {});
      EndToEndAuditScope scope(&e2e);
      (void)run_dgd_secret_sharing(a, 11);
      EXPECT_EQ(e2e.releases(), 20u) << honest;
      EXPECT_EQ(e2e.draws(), 20u * 30u) << honest;
      EXPECT_EQ(e2e.family(), NoiseFamily::gaussian);
      EXPECT_NEAR(e2e.noise_energy() / static_cast<double>(e2e.draws()), factor * factor, 0.25 * factor * factor) << honest;
    }
}

TEST(DgdSecretSharing, RejectsBadParameters) {
  RunParameters ring = RunParameters::from_assignments({"graph=ring"});
  EXPECT_THROW(run_dgd_secret_sharing(ring, 1), dpl::NotApplicable);
  RunParameters two = RunParameters::from_assignments({"agents=2"});
  EXPECT_THROW(run_dgd_secret_sharing(two, 1), dpl::InputError);
  RunParameters honest = RunParameters::from_assignments({"honest=11"});
  EXPECT_THROW(run_dgd_secret_sharing(honest, 1), dpl::InputError);
  RunParameters unknown = RunParameters::from_assignments({"bogus=1"});
  EXPECT_THROW(run_dgd_secret_sharing(unknown, 1), dpl::InputError);
}
