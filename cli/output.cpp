// SPDX-License-Identifier: Apache-2.0
#include "cli/output.h"

namespace dpl::cli {

GlobalOptions& global_options() {
  static GlobalOptions g;
  return g;
}

}  // namespace dpl::cli
