#include "algorithms/run/algorithm_registry.h"

#include "accounting/errors.h"
#include "algorithms/seed000/admm_random_aggregation.h"
#include "algorithms/seed000/dgd_secret_sharing.h"
#include "algorithms/seed000/dsgd_random_aggregation.h"
#include "algorithms/seed000/dsgd_random_aggregation_minmax.h"
#include "algorithms/seed001/wang_nedic.h"

namespace dpl::algorithms {

const std::vector<AlgorithmEntry>& algorithm_entries() {
  static const std::vector<AlgorithmEntry> entries{
      {"dgd-secret-sharing",
       "seed 000 Sec. 2.1: Gaussian DGD whose updates are summed by additive secret sharing (Thm 2.1.1)",
       run_dgd_secret_sharing},
      {"admm-random-aggregation",
       "seed 000 Algorithm 1: private linearised ADMM with random local aggregation (Thms 2.2.1, 2.2.2)",
       run_admm_random_aggregation},
      {"dsgd-random-aggregation",
       "seed 000 Algorithm 2: private decentralised SGD with random groups and random aggregation weights",
       run_dsgd_random_aggregation},
      {"dsgd-random-aggregation-minmax",
       "seed 000 Algorithm 2* (App. E): aggregation uniform between the neighbourhood's min and max",
       run_dsgd_random_aggregation_minmax},
      {"wang-nedic",
       "seed 001 Algorithm 1: Laplace-noise distributed gradient method with decaying coupling (Thm 2)",
       run_wang_nedic},
  };
  return entries;
}

const AlgorithmEntry& find_algorithm(const std::string& name) {
  std::string known;
  for (const auto& e : algorithm_entries()) {
    if (e.name == name) return e;
    known += (known.empty() ? "" : ", ") + e.name;
  }
  throw InputError("ALGORITHM=" + name + " is not a known algorithm: allowed " + known);
}

}  // namespace dpl::algorithms
