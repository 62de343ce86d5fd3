// SPDX-License-Identifier: Apache-2.0
// The reference algorithms by name, for `dpledger run`: an explicit table (algorithm_registry.cpp) of each
// algorithm's name, one-line summary and run function (static self-registration would be dropped by the linker
// from a static library).
#pragma once

#include "accounting/progress_callback.h"
#include "algorithms/run/run_parameters.h"
#include "algorithms/run/run_result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dpl::algorithms {

// Reads its parameters from `params` (declared reads), calls params.reject_unknown() after its last read and
// before any long work, runs with the seed, returns the result. `progress` (may be empty) is told how far the run
// has got (run_progress.h: non-decreasing fractions ending at 1); the result does not depend on it.
using AlgorithmRunner =
    std::function<RunResult(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress)>;

struct AlgorithmEntry {
  std::string name;
  std::string summary;  // one line for --help / --list
  AlgorithmRunner runner;
  // The runner's result with extra.learning (learning_verdict.h) added.
  RunResult run(RunParameters& params, std::uint64_t seed, const ProgressCallback& progress = {}) const;
};

const std::vector<AlgorithmEntry>& algorithm_entries();
// Throws InputError naming the algorithm and the known names.
const AlgorithmEntry& find_algorithm(const std::string& name);

}  // namespace dpl::algorithms
