// SPDX-License-Identifier: Apache-2.0
// How long library work reports progress: a plain callback (fraction done in [0, 1], what is being done),
// called from the working thread. The CLI turns it into a bar on stderr (cli/progress.h); libraries never print.
#pragma once

#include <functional>
#include <string>

namespace dpl {

using ProgressCallback = std::function<void(double, const std::string&)>;

}  // namespace dpl
