// SPDX-License-Identifier: Apache-2.0
// The paper figures `dpledger sweep` regenerates, by name ("liu2023-fig1"): an explicit table of each figure's
// paper, one-line summary, default number of seeds and runner.
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/sweeps/figure.h"

#include <functional>
#include <string>
#include <vector>

namespace dpl::algorithms::sweeps {

// Reads its keys from `params` (declared reads with defaults), calls params.reject_unknown() before any long work,
// runs `seeds` seeds per point and returns the figure. `progress` (may be empty) is told the fraction done.
using FigureRunner = std::function<Figure(RunParameters& params, int seeds, const ProgressCallback& progress)>;

struct FigureEntry {
  std::string name;
  std::string paper;    // "Liu, Johansson and Shi 2023" ... (docs/references.md)
  std::string summary;  // one line for --list and --help
  int default_seeds = 10;
  FigureRunner runner;
};

const std::vector<FigureEntry>& figure_entries();
// Throws InputError naming the figure and the known names.
const FigureEntry& find_figure(const std::string& name);

}  // namespace dpl::algorithms::sweeps
