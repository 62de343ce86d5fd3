// SPDX-License-Identifier: Apache-2.0
// Where the data sets shipped with dpledger are read from.
#pragma once

#include <string>

namespace dpl::algorithms {

// The folder of the shipped data: the installed copy beside the executable (PREFIX/bin/dpledger ->
// PREFIX/share/dpledger/data, wherever the prefix is), else (a build-tree binary, or a program linking the library)
// the source tree's data/ the build was configured from.
std::string shipped_data_dir();

}  // namespace dpl::algorithms
