// SPDX-License-Identifier: Apache-2.0
#include "algorithms/sweeps/figure_registry.h"

#include "accounting/errors.h"
#include "algorithms/seed003/figure1_sweep.h"
#include "algorithms/sweeps/seed000_figure.h"
#include "algorithms/sweeps/seed001_figure.h"
#include "algorithms/sweeps/seed002_figures.h"
#include "algorithms/sweeps/seed004_figures.h"

namespace dpl::algorithms::sweeps {

namespace {

FigureRunner seed002(int number) {
  return [number](RunParameters& p, int seeds, const ProgressCallback& progress) {
    return seed002_figure(number, p, seeds, progress);
  };
}

FigureRunner seed004(int number) {
  return [number](RunParameters& p, int seeds, const ProgressCallback& progress) {
    return seed004_figure(number, p, seeds, progress);
  };
}

}  // namespace

const std::vector<FigureEntry>& figure_entries() {
  static const std::vector<FigureEntry> entries{
      {"xiao2019-fig2-1", "Xiao 2019", "Xiao 2019 Fig. 2-1: gamma vs omega and beta; Algorithm 1 vs [42], [43], [48] ([45] added): accuracy and privacy loss", 5, seed000_figure2_1},
      {"wang2022-fig1", "Wang and Nedić 2022", "Wang and Nedić 2022 Fig. 1: Algorithm 1 vs DGD (same noise) and PDOP (same privacy budget), optimisation error vs iteration", 20, seed001_figure1},
      {"zhang2018-fig1", "Zhang, Khalili and Liu 2018", "Zhang, Khalili and Liu 2018 Fig. 1: non-private R-ADMM for several gamma vs ADMM, N = 5 and 20", 5, seed002(1)},
      {"zhang2018-fig2", "Zhang, Khalili and Liu 2018", "Zhang, Khalili and Liu 2018 Fig. 2: private R-ADMM vs DVP and PP at equal total bounds, alpha 2 and 4: accuracy and P(t)", 20, seed002(2)},
      {"cyffers2023-fig1", "Cyffers, Bellet and Basu 2023", "Cyffers, Bellet and Basu 2023 Fig. 1: private ADMM vs proximal DP-SGD on the Lasso, federated, test objective vs epsilon", 10, seed003::figure1},
      {"liu2023-fig1", "Liu, Johansson and Shi 2023", "Liu, Johansson and Shi 2023 Fig. 1: standard DDA vs Algorithm 1 (node sampling), hinge + l1, eps 1 and 0.5", 10, seed004(1)},
      {"liu2023-fig2", "Liu, Johansson and Shi 2023", "Liu, Johansson and Shi 2023 Fig. 2: Algorithm 1 with 2 vs 4 sampled nodes, hinge + l1", 10, seed004(2)},
      {"liu2023-fig3", "Liu, Johansson and Shi 2023", "Liu, Johansson and Shi 2023 Fig. 3: privacy leakage vs iteration with and without sampling (paper's (7), certified)", 5, seed004(3)},
      {"liu2023-fig4", "Liu, Johansson and Shi 2023", "Liu, Johansson and Shi 2023 Fig. 4: Fig. 1 on the l2-regularised SVM (a_t = t, gamma_t = 20)", 10, seed004(4)},
      {"liu2023-fig5", "Liu, Johansson and Shi 2023", "Liu, Johansson and Shi 2023 Fig. 5: Fig. 2 on the l2-regularised SVM", 10, seed004(5)},
  };
  return entries;
}

const FigureEntry& find_figure(const std::string& name) {
  // Former names (by the papers' short keys 000 ... 004 of docs/references.md), still read, never listed.
  static const std::vector<std::pair<std::string, std::string>> former_names{
      {"seed000-fig2-1", "xiao2019-fig2-1"}, {"seed001-fig1", "wang2022-fig1"},   {"seed002-fig1", "zhang2018-fig1"},
      {"seed002-fig2", "zhang2018-fig2"},    {"seed003-fig1", "cyffers2023-fig1"}, {"seed003-figure1", "cyffers2023-fig1"},
      {"seed004-fig1", "liu2023-fig1"},      {"seed004-fig2", "liu2023-fig2"},     {"seed004-fig3", "liu2023-fig3"},
      {"seed004-fig4", "liu2023-fig4"},      {"seed004-fig5", "liu2023-fig5"}};
  for (const auto& [former, current] : former_names)
    if (name == former) return find_figure(current);
  std::string known;
  for (const auto& e : figure_entries()) {
    if (e.name == name) return e;
    known += (known.empty() ? "" : ", ") + e.name;
  }
  throw InputError("FIGURE=" + name + " is not a known figure: allowed " + known);
}

}  // namespace dpl::algorithms::sweeps
