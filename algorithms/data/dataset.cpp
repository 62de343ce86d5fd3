// SPDX-License-Identifier: Apache-2.0
#include "algorithms/data/dataset.h"
#include "algorithms/data/shipped_data_dir.h"

#include "accounting/errors.h"
#include "accounting/input_file.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/run/run_limits.h"
#include "algorithms/data/trim.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

namespace dpl::algorithms {

namespace {

// Whole-cell finite number, or false.
bool parse_number(const std::string& cell, double& out) {
  if (cell.empty()) return false;
  const char* b = cell.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(b, &end);
  if (end != b + cell.size() || !std::isfinite(v) || errno == ERANGE) return false;
  out = v;
  return true;
}

std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(trim(cell));
  if (!line.empty() && line.back() == ',') cells.emplace_back();  // a trailing empty cell
  return cells;
}

// A data file: at most 256 MB (about 2e7 values, the in-memory limit of algorithms/run/run_limits.h), lines of
// at most 1 MB (2,000 features of up to 500 characters), a directory or a device that never ends refused.
constexpr InputFileLimits kDataFileLimits{std::size_t{256} << 20, std::size_t{1} << 20};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Dataset read_csv(const std::string& path, int label_column) {
  InputFile in(path, "CSV file " + path, kDataFileLimits);
  std::vector<std::vector<double>> rows;
  std::size_t width = 0;
  bool first = true;
  std::string line;
  int number = 0;
  while (in.next_line(line)) {
    ++number;
    if (trim(line).empty()) continue;
    const auto cells = split_commas(line);
    const std::string where = "CSV file " + path + " line " + std::to_string(number) + ": ";
    std::vector<double> values(cells.size());
    std::size_t bad = cells.size();
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (!parse_number(cells[c], values[c])) {
        bad = c;
        break;
      }
    }
    if (first) {
      width = cells.size();
      first = false;
      if (bad != cells.size()) continue;  // a header row: any non-numeric cell
    } else if (cells.size() != width) {
      throw InputError(where + "ragged row: " + std::to_string(cells.size()) + " cells, expected " +
                       std::to_string(width));
    }
    if (bad != cells.size())
      throw InputError(where + "cell " + std::to_string(bad + 1) + " '" + cells[bad] + "' is not a finite number");
    rows.push_back(std::move(values));
    // While reading (each row is its own small vector): rows x columns within the in-memory limit.
    if (rows.size() % 4096 == 0) require_data_size(static_cast<double>(rows.size()), static_cast<double>(width), "CSV file " + path);
  }
  if (rows.empty()) throw InputError("CSV file " + path + ": no data rows (empty file or header only)");
  if (width < 2) throw InputError("CSV file " + path + ": needs at least 2 columns (features and a label), has 1");
  const int w = static_cast<int>(width);
  if (label_column < -1 || label_column >= w)
    throw InputError("CSV file " + path + ": label column " + std::to_string(label_column) +
                     " is out of range: allowed integers [0, " + std::to_string(w - 1) + "] or -1 (last)");
  const int lc = label_column == -1 ? w - 1 : label_column;
  Dataset d;
  d.name = path;
  d.features.resize(static_cast<Eigen::Index>(rows.size()), w - 1);
  d.labels.resize(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto ri = static_cast<Eigen::Index>(r);
    int f = 0;
    for (int c = 0; c < w; ++c) {
      if (c == lc) {
        d.labels(ri) = rows[r][static_cast<std::size_t>(c)];
      } else {
        d.features(ri, f++) = rows[r][static_cast<std::size_t>(c)];
      }
    }
  }
  return d;
}

Dataset read_libsvm(const std::string& path, int min_dim) {
  InputFile in(path, "LibSVM file " + path, kDataFileLimits);
  struct Row {
    double label;
    std::vector<std::pair<int, double>> entries;
  };
  std::vector<Row> rows;
  int dim = std::max(min_dim, 0);
  double entries = 0;  // stored values, checked against the in-memory limit while reading
  std::string line;
  int number = 0;
  while (in.next_line(line)) {
    ++number;
    const auto hash = line.find('#');
    const std::string body = trim(hash == std::string::npos ? line : line.substr(0, hash));
    if (body.empty()) continue;
    const std::string where = "LibSVM file " + path + " line " + std::to_string(number) + ": ";
    std::istringstream tokens(body);
    std::string tok;
    tokens >> tok;
    Row row{};
    if (!parse_number(tok, row.label)) throw InputError(where + "label '" + tok + "' is not a finite number");
    int last = 0;
    while (tokens >> tok) {
      const auto colon = tok.find(':');
      if (colon == std::string::npos) throw InputError(where + "'" + tok + "' is not of the form index:value");
      const std::string is = tok.substr(0, colon), vs = tok.substr(colon + 1);
      double iv = 0, v = 0;
      if (!parse_number(is, iv) || iv != std::floor(iv) || iv < 1 || iv > 1e8)
        throw InputError(where + "index '" + is + "' is not an integer in [1, 100000000]");
      const int index = static_cast<int>(iv);
      if (index <= last)
        throw InputError(where + "index " + std::to_string(index) + " is not increasing (previous " +
                         std::to_string(last) + ")");
      if (!parse_number(vs, v)) throw InputError(where + "value '" + vs + "' is not a finite number");
      row.entries.emplace_back(index, v);
      last = index;
    }
    dim = std::max(dim, last);
    entries += static_cast<double>(row.entries.size()) + 1;
    rows.push_back(std::move(row));
    if (entries > kMaxDataValues)
      throw InputError("LibSVM file " + path + " line " + std::to_string(number) + ": more than " +
                       std::to_string(static_cast<long long>(kMaxDataValues)) + " stored values: allowed at most that");
  }
  if (rows.empty()) throw InputError("LibSVM file " + path + ": no data rows (empty file)");
  if (dim == 0) throw InputError("LibSVM file " + path + ": no features (every row has only a label)");
  // Before the dense matrix is allocated: an index of 1e8 on one row would ask for rows x 1e8 doubles.
  require_data_size(static_cast<double>(rows.size()), dim, "LibSVM file " + path);
  Dataset d;
  d.name = path;
  d.features = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()), dim);
  d.labels.resize(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto ri = static_cast<Eigen::Index>(r);
    d.labels(ri) = rows[r].label;
    for (const auto& [i, v] : rows[r].entries) d.features(ri, i - 1) = v;
  }
  return d;
}

namespace {

Dataset read_shipped(const std::string& name) {
  if (name == "breast_cancer") {
    Dataset d = read_csv(shipped_data_dir() + "/breast_cancer.csv", -1);
    d.name = name;
    return d;
  }
  if (name == "digits") {
    // The MNIST-like stand-in: 8 x 8 images, the binary task "digit >= 5" (+1 after preprocessing) vs "< 5".
    Dataset d = read_csv(shipped_data_dir() + "/digits.csv", -1);
    for (Eigen::Index r = 0; r < d.labels.size(); ++r) d.labels(r) = d.labels(r) >= 5 ? 1.0 : 0.0;
    d.name = name;
    return d;
  }
  throw InputError("data=" + name + " is not a shipped data set: allowed breast_cancer, digits (or a .csv/.libsvm "
                   "path)");
}

}  // namespace

// The shipped files are part of the installation: each is parsed once per process (an audit's thousand runs each
// load their data set) and copied out.
Dataset load_shipped(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, Dataset> parsed;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = parsed.find(name); it != parsed.end()) return it->second;
  }
  Dataset d = read_shipped(name);
  std::lock_guard<std::mutex> lock(mutex);
  parsed.emplace(name, d);
  return d;
}

Dataset load_dataset(const std::string& path_or_name) {
  const std::string& p = path_or_name;
  if (ends_with(p, ".csv")) return read_csv(p);
  if (ends_with(p, ".svm") || ends_with(p, ".libsvm") || ends_with(p, ".txt")) return read_libsvm(p);
  if (p.find('/') == std::string::npos && p.find('.') == std::string::npos) return load_shipped(p);
  throw InputError("data=" + p +
                   " is not recognised: allowed a shipped name (breast_cancer, digits), synthetic, or a file ending in "
                   ".csv, .svm, .libsvm or .txt");
}

namespace {

// The synthetic generators' first draw: rows, dim >= 1 (InputError otherwise) and a standard Gaussian theta.
Eigen::VectorXd synthetic_theta(int rows, int dim, Rng& rng) {
  if (rows < 1 || dim < 1)
    throw InputError("synthetic data: rows=" + std::to_string(rows) + ", dim=" + std::to_string(dim) +
                     " are out of range: allowed integers >= 1");
  Eigen::VectorXd theta(dim);
  for (int j = 0; j < dim; ++j) theta(j) = rng.gaussian();
  return theta;
}

// A data set called `name` with rows x dim features and rows labels, to be filled in.
Dataset sized_dataset(const std::string& name, int rows, int dim) {
  Dataset d;
  d.name = name;
  d.features.resize(rows, dim);
  d.labels.resize(rows);
  return d;
}

}  // namespace

// Seed 000 sec. 3.6 (synthetic re-enactment): z uniform on [0,1]^d, normalised to unit l2 norm,
// y = +1 with probability 1/(1 + exp(-<z, theta>)) for a standard Gaussian theta (exact sampling).
Dataset synthetic_logistic(int rows, int dim, Rng& rng) {
  const Eigen::VectorXd theta = synthetic_theta(rows, dim, rng);
  Dataset d = sized_dataset("synthetic-logistic", rows, dim);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < dim; ++j) d.features(i, j) = rng.uniform01();
    d.features.row(i) /= d.features.row(i).norm();
    const double margin = d.features.row(i).dot(theta);
    const double p_plus = 1.0 / (1.0 + portable::binary64::exp(-margin));
    d.labels(i) = rng.uniform01() < p_plus ? 1.0 : -1.0;
  }
  return d;
}

// Seed 001, simulation section (sec. 5 of the paper): z = M theta + w with Gaussian M and unit-variance
// Gaussian noise w (exact sampling); M and theta standard Gaussian (the paper does not give their
// distributions).
Dataset synthetic_regression(int rows, int dim, Rng& rng) {
  const Eigen::VectorXd theta = synthetic_theta(rows, dim, rng);
  Dataset d = sized_dataset("synthetic-regression", rows, dim);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < dim; ++j) d.features(i, j) = rng.gaussian();
    d.labels(i) = d.features.row(i).dot(theta) + rng.gaussian();
  }
  return d;
}

Dataset preprocess(const Dataset& raw, bool binary_labels) {
  Dataset d = raw;
  const auto n = d.features.rows();
  for (Eigen::Index c = 0; c < d.features.cols(); ++c) {
    const double lo = d.features.col(c).minCoeff(), hi = d.features.col(c).maxCoeff();
    if (hi > lo) {
      d.features.col(c) = (d.features.col(c).array() - lo) / (hi - lo);
      // Guard the last ulp so that every coordinate is in [0, 1].
      d.features.col(c) = d.features.col(c).cwiseMax(0.0).cwiseMin(1.0);
    } else {
      d.features.col(c).setZero();
    }
  }
  for (Eigen::Index r = 0; r < n; ++r) {
    const double norm = d.features.row(r).norm();
    if (norm > 0) d.features.row(r) /= norm;
  }
  if (binary_labels) {
    std::set<double> values(d.labels.data(), d.labels.data() + d.labels.size());
    if (values.size() != 2) {
      std::string shown;
      int k = 0;
      for (double v : values) {
        if (k++ == 5) {
          shown += ", ...";
          break;
        }
        std::ostringstream o;
        o << v;
        shown += (k > 1 ? ", " : "") + o.str();
      }
      throw InputError("data " + raw.name + ": labels take " + std::to_string(values.size()) + " distinct values (" +
                       shown + "); a classification loss needs exactly 2");
    }
    const double high = *values.rbegin();
    for (Eigen::Index r = 0; r < n; ++r) d.labels(r) = d.labels(r) == high ? 1.0 : -1.0;
  }
  return d;
}

std::vector<Dataset> split_across_agents(const Dataset& data, int agents, Rng& rng, int per_agent) {
  const int n = data.rows();
  if (agents < 1 || agents > n)
    throw InputError("agents=" + std::to_string(agents) + " is out of range for " + std::to_string(n) +
                     " rows: allowed integers [1, " + std::to_string(n) + "]");
  if (per_agent < 0 || static_cast<long long>(per_agent) * agents > n)
    throw InputError("per_agent=" + std::to_string(per_agent) + " is out of range with agents=" +
                     std::to_string(agents) + " and " + std::to_string(n) + " rows: allowed integers [0, " +
                     std::to_string(n / agents) + "] (0 = split all rows evenly)");
  const std::vector<int> order = rng.permutation(n);
  std::vector<Dataset> parts;
  std::size_t next = 0;
  for (int a = 0; a < agents; ++a) {
    const int size = per_agent > 0 ? per_agent : n / agents + (a < n % agents ? 1 : 0);
    Dataset part;
    part.name = data.name + "[agent " + std::to_string(a) + "]";
    part.features.resize(size, data.dim());
    part.labels.resize(size);
    for (int r = 0; r < size; ++r, ++next) {
      part.features.row(r) = data.features.row(order[next]);
      part.labels(r) = data.labels(order[next]);
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace dpl::algorithms
