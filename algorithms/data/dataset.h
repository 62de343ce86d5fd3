// SPDX-License-Identifier: Apache-2.0
// Data sets for the reference algorithms: CSV and LibSVM readers for the user's files, the shipped real data
// sets (data/breast_cancer.csv, UCI Breast Cancer Wisconsin; data/digits.csv, UCI optical digits, the MNIST-like
// stand-in; both from Debian's python3-sklearn, see data/README.md), a synthetic
// generator, preprocessing to the papers' conventions, and the split across N agents.
#pragma once

#include "algorithms/rng/portable_rng.h"

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace dpl::algorithms {

// Rows are samples. Labels are +1/-1 for classification (after preprocessing) or real for regression.
struct Dataset {
  Eigen::MatrixXd features;  // n x d
  Eigen::VectorXd labels;    // n
  std::string name;
  int rows() const { return static_cast<int>(features.rows()); }
  int dim() const { return static_cast<int>(features.cols()); }
};

// CSV: numeric cells separated by ','; an optional first header row (detected: any non-numeric cell);
// label_column (0-based; -1 = last). Throws InputError naming the file, the line and the problem for a missing
// file, a non-numeric cell, a ragged row, an empty file or a label column out of range.
Dataset read_csv(const std::string& path, int label_column = -1);
// LibSVM: "label index:value ..." with 1-based increasing indices; dim = the largest index seen (or
// min_dim if larger). Throws InputError (file, line, problem) on malformed lines.
Dataset read_libsvm(const std::string& path, int min_dim = 0);
// The shipped data set by name, from DPLEDGER_DATA_DIR: "breast_cancer" (569 x 30, benign/malignant) or "digits"
// (1797 x 64 pixel counts 0..16; label 1 for the digits 5-9, 0 for 0-4). Throws InputError if unknown.
Dataset load_shipped(const std::string& name);
// Reads by extension: .csv -> read_csv, .svm/.libsvm/.txt -> read_libsvm; or a shipped name.
Dataset load_dataset(const std::string& path_or_name);

// Synthetic logistic data of seed 000 sec. 3.6: features uniform on [0,1], rows scaled to unit
// l2 norm, labels +-1 drawn from a logistic model with a Gaussian true parameter.
Dataset synthetic_logistic(int rows, int dim, Rng& rng);
// Synthetic linear regression z = M theta + noise (seed 001 sec. V): rows x dim Gaussian M, unit noise.
Dataset synthetic_regression(int rows, int dim, Rng& rng);

// Preprocessing of seed 000's experiments: features min-max scaled to [0,1] per column (constant columns to
// 0), then each row scaled to unit l2 norm (so per-sample logistic gradients have |coordinate| <= 1 and
// l2 norm <= 1); binary labels mapped to +-1 (the larger value -> +1). Throws InputError if labels are not binary
// when binary_labels is true.
Dataset preprocess(const Dataset& raw, bool binary_labels = true);

// Split the rows across `agents` agents: evenly (sizes differ by at most one) after a seeded shuffle, or
// `per_agent` rows each (the first agents * per_agent rows of the shuffle; throws InputError if too few rows).
std::vector<Dataset> split_across_agents(const Dataset& data, int agents, Rng& rng, int per_agent = 0);

}  // namespace dpl::algorithms
