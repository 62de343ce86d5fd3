// SPDX-License-Identifier: Apache-2.0
// The only file that sees DPLEDGER_DATA_DIR (the source tree's data/, set by CMakeLists.txt), so that no other object
// depends on the checkout location (ccache hits across clones and worktrees).
#include "algorithms/data/shipped_data_dir.h"

#include <filesystem>
#include <system_error>

namespace dpl::algorithms {

std::string shipped_data_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share" / "dpledger" / "data";
    if (std::filesystem::is_regular_file(installed / "breast_cancer.csv", ec)) return installed.string();
  }
  return DPLEDGER_DATA_DIR;
}

}  // namespace dpl::algorithms
