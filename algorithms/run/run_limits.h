// SPDX-License-Identifier: Apache-2.0
// The limits that keep every `dpledger run` finite, quick and in bounded memory whatever the parameters: each is
// checked from the parameters BEFORE allocating or looping, and throws InputError naming the limit, the
// estimate and the keys that set it (exit 2). The work unit is one multiply-add on the data; a random draw or a
// modular share costs ~20 units (measured; see run_cli_test.cpp's extreme-parameter test).
#pragma once

#include <cstdint>
#include <string>

namespace dpl::algorithms {

inline constexpr std::int64_t kMaxFeatures = 2000;  // the centralised solver forms d x d matrices
inline constexpr double kMaxDataValues = 2e7;       // rows x features in memory (160 MB)
inline constexpr double kMaxRunWork = 4e9;          // estimated work units of the algorithm's iterations (~5 s)
inline constexpr double kMaxTraceValues = 3e7;      // doubles kept in the trace (240 MB)
inline constexpr double kRandomDrawWork = 20;       // work units of one random draw (Laplace, Gaussian, share)
inline constexpr double kLedgerReleaseWork = 16000;  // one released coordinate in a seed-000 ledger (MPFR loss)

// Rows x features of a data set (given before it is generated or after it is read).
void require_data_size(double rows, double features, const std::string& source);
// `estimate` work units for `what` (e.g. "admm-random-aggregation with K=100000, agents=..."): the message tells
// which keys to lower.
void require_run_work(double estimate, const std::string& what);
// `values` doubles kept in the trace for `what`.
void require_trace_size(double values, const std::string& what);

}  // namespace dpl::algorithms
