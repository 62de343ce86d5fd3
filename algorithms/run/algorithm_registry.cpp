// SPDX-License-Identifier: Apache-2.0
#include "algorithms/run/algorithm_registry.h"

#include "accounting/errors.h"
#include "algorithms/run/learning_verdict.h"
#include "algorithms/seed000/admm_random_aggregation.h"
#include "algorithms/seed000/dgd_secret_sharing.h"
#include "algorithms/seed000/dsgd_random_aggregation.h"
#include "algorithms/seed000/dsgd_random_aggregation_minmax.h"
#include "algorithms/seed001/wang_nedic.h"
#include "algorithms/seed002/recycled_admm_runs.h"
#include "algorithms/seed004/dual_averaging_runs.h"

#include "algorithms/seed003/dp_gradient_methods.h"
#include "algorithms/seed003/private_admm.h"

namespace dpl::algorithms {

const std::vector<AlgorithmEntry>& algorithm_entries() {
  static const std::vector<AlgorithmEntry> entries{
      {"dgd-secret-sharing",
       "Xiao 2019 Sec. 2.1: Gaussian DGD whose updates are summed by additive secret sharing (Thm 2.1.1)",
       run_dgd_secret_sharing},
      {"admm-random-aggregation",
       "Xiao 2019 Algorithm 1: private linearised ADMM with random local aggregation (Thms 2.2.1, 2.2.2)",
       run_admm_random_aggregation},
      {"dsgd-random-aggregation",
       "Xiao 2019 Algorithm 2: private decentralised SGD with random groups and random aggregation weights",
       run_dsgd_random_aggregation},
      {"dsgd-random-aggregation-minmax",
       "Xiao 2019 Algorithm 2* (App. E): aggregation uniform between the neighbourhood's min and max",
       run_dsgd_random_aggregation_minmax},
      {"wang-nedic",
       "Wang and Nedić 2022 Algorithm 1: Laplace-noise distributed gradient method with decaying coupling (Thm 2)",
       run_wang_nedic},
      {"admm", "Zhang, Khalili and Liu 2018 eqs. (8)-(9): conventional decentralised ADMM, exact primal step (Newton), dual update",
       run_admm},
      {"radmm", "Zhang, Khalili and Liu 2018 Algorithm 1: Recycled ADMM, exact odd steps, recycled linearised even steps (dual frozen)",
       run_radmm},
      {"private-radmm",
       "Zhang, Khalili and Liu 2018 Algorithm 2: R-ADMM with objective perturbation on odd steps (Theorem IV.1)", run_private_radmm},
      {"dvp-admm", "Zhang, Khalili and Liu 2018's baseline: ADMM with dual-variable perturbation (Zhang and Zhu 2017)", run_dvp_admm},
      {"dda", "Liu, Johansson and Shi 2023's baseline: distributed dual averaging (Duchi, Agarwal and Wainwright 2012)", run_dda},
      {"dp-dda-node-sampling",
       "Liu, Johansson and Shi 2023 Algorithm 1: DP dual averaging with node sampling and Gaussian subgradient noise (Theorem 1)",
       run_dp_dda_node_sampling},

      {"dp-sgd", "Cyffers, Bellet and Basu 2023 Prop. 1: DP-SGD as a private fixed-point iteration (Algorithm 1)", seed003::run_dp_sgd},
      {"dp-cd", "Cyffers, Bellet and Basu 2023 Prop. 2: DP coordinate descent as a block fixed-point iteration", seed003::run_dp_cd},
      {"admm-centralized", "Cyffers, Bellet and Basu 2023 Algorithm 2: private ADMM, centralized, record-level (Thm 2)",
       seed003::run_admm_centralized},
      {"admm-federated", "Cyffers, Bellet and Basu 2023 Algorithm 3: private ADMM, m of n users per round (Thm 3)",
       seed003::run_admm_federated},
      {"admm-decentralized", "Cyffers, Bellet and Basu 2023 Algorithm 4: private ADMM, random walk on the complete graph (Thm 4)",
       seed003::run_admm_decentralized},
      {"admm-lasso", "Cyffers, Bellet and Basu 2023 Algorithm 6: private ADMM for the Lasso with clipping (scaling fixed | printed)",
       seed003::run_admm_lasso},
  };
  return entries;
}

RunResult AlgorithmEntry::run(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress) const {
  RunResult r = runner(params, seed, progress);
  r.extra["learning"] = learning_verdict(r);
  return r;
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
