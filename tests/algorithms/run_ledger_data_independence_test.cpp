// SPDX-License-Identifier: Apache-2.0
// No run ledger depends on the private data: the same run on two data files whose rows all differ (so the
// target agent's rows are swapped for other in-domain rows) claims and accounts the same epsilon, for every
// algorithm of `dpledger run`. Before the sensitivities came from the declared domain, B_inf was 2 max|z|/b over
// the target's own rows and these differed.
#include "algorithms/run/algorithm_registry.h"
#include "algorithms/rng/portable_rng.h"

#include "accounting/errors.h"
#include "temp_file.h"

#include <gtest/gtest.h>

#include <sstream>

namespace dpl::algorithms {
namespace {

// rows x dim features uniform on [0, scale] (preprocessing maps them into the unit-rows domain), labels +-1
// alternating (both classes present).
std::string random_csv(std::uint64_t seed, int rows, int dim, double scale) {
  Rng rng(seed);
  std::ostringstream s;
  s.precision(17);
  for (int j = 0; j < rows; ++j) {
    for (int c = 0; c < dim; ++c) s << scale * rng.uniform01() * (c == 0 ? 1.0 : rng.uniform01()) << ",";
    s << (j % 2 == 0 ? 1 : -1) << "\n";
  }
  return s.str();
}

struct Ledgers {
  Json claimed, accounted;
};

Ledgers run(const std::string& algorithm, const std::string& data, std::vector<std::string> sets) {
  sets.push_back("data=" + data);
  RunParameters p = RunParameters::from_assignments(sets);
  const RunResult r = find_algorithm(algorithm).run(p, 11);
  return {r.claimed, r.accounted};
}

void expect_same_epsilons(const std::string& algorithm, const std::vector<std::string>& sets) {
  const testing::TempFile a("ledger_a.csv", random_csv(1, 120, 5, 1.0));
  const testing::TempFile b("ledger_b.csv", random_csv(2, 120, 5, 7.0));
  const Ledgers x = run(algorithm, a.path(), sets), y = run(algorithm, b.path(), sets);
  SCOPED_TRACE(algorithm);
  ASSERT_TRUE(x.claimed.contains("epsilon"));
  EXPECT_EQ(x.claimed["epsilon"], y.claimed["epsilon"]);
  EXPECT_EQ(x.accounted["epsilon"], y.accounted["epsilon"]);
  EXPECT_TRUE(x.accounted["epsilon"].is_number()) << x.accounted.dump();
  for (const char* key : {"b_inf", "epsilon_infinite_horizon", "epsilon_per_round"}) {
    if (x.claimed.contains(key)) {
      EXPECT_EQ(x.claimed[key], y.claimed[key]) << key;
    }
    if (x.accounted.contains(key)) {
      EXPECT_EQ(x.accounted[key], y.accounted[key]) << key;
    }
  }
}

TEST(RunLedgerDataIndependence, AdmmRandomAggregation) {
  expect_same_epsilons("admm-random-aggregation", {"K=5", "average_case=off"});
}

TEST(RunLedgerDataIndependence, DsgdRandomAggregation) {
  expect_same_epsilons("dsgd-random-aggregation", {"K=5", "agents=20", "average_case=off"});
}

TEST(RunLedgerDataIndependence, DsgdRandomAggregationMinmax) {
  expect_same_epsilons("dsgd-random-aggregation-minmax", {"K=5", "average_case=off"});
}

TEST(RunLedgerDataIndependence, DgdSecretSharing) { expect_same_epsilons("dgd-secret-sharing", {"K=5"}); }

TEST(RunLedgerDataIndependence, WangNedic) {
  expect_same_epsilons("wang-nedic", {"K=50", "loss=logistic", "audit=off"});
}

TEST(RunLedgerDataIndependence, TheDomainIsTheSensitivitySource) {
  // admm: B_inf = 2 sup|loss'| sup|z_l| / b = 2/12 for 10 agents of 12 rows; s = B_inf / D rounded up.
  const testing::TempFile a("ledger_c.csv", random_csv(3, 120, 5, 1.0));
  const Ledgers x = run("admm-random-aggregation", a.path(), {"K=2", "average_case=off"});
  EXPECT_GE(x.accounted["b_inf"].get<double>(), 2.0 / 12);
  EXPECT_LE(x.accounted["b_inf"].get<double>(), std::nextafter(2.0 / 12, 1.0));
  EXPECT_NE(x.accounted["domain"].get<std::string>().find("unit-rows"), std::string::npos);
  // A declared b_inf below the domain's bound is refused; above it is used.
  EXPECT_THROW(run("admm-random-aggregation", a.path(), {"K=2", "b_inf=0.1"}), InputError);
  const Ledgers y = run("admm-random-aggregation", a.path(), {"K=2", "b_inf=0.5", "average_case=off"});
  EXPECT_EQ(y.accounted["b_inf"].get<double>(), 0.5);
}

}  // namespace
}  // namespace dpl::algorithms
