// SPDX-License-Identifier: Apache-2.0
// Seed 000 (Xiao 2019): the checks kept outside paper_000_claims.cpp, which holds the registry. Privacy
// (paper_000_privacy.cpp): Lemma 2.2.1 on simulated transcripts, footnote 2's composition formula against the exact
// composition of randomized responses, the 30% reduction by runs of the library's Algorithm 1. Convergence and
// utility (paper_000_convergence.cpp): Theorems 3.1.1-3.1.3 and 3.2.1, (3.9)-(3.10), Appendix J.
#pragma once

#include "proofs-check/claim.h"

namespace dpl::proofs::seed000 {

ClaimResult check_lemma_2_2_1(const CheckContext& ctx);
ClaimResult check_footnote_2(const CheckContext& ctx);
ClaimResult check_30_percent(const CheckContext& ctx);

ClaimResult check_thm_3_1_1(const CheckContext& ctx);
ClaimResult check_thm_3_1_3(const CheckContext& ctx);
ClaimResult check_thm_3_1_2(const CheckContext& ctx);
ClaimResult check_thm_3_1_2_rate(const CheckContext& ctx);
ClaimResult check_thm_3_2_1(const CheckContext& ctx);
ClaimResult check_thm_3_2_1_rates(const CheckContext& ctx);
ClaimResult check_eq_3_9(const CheckContext& ctx);
ClaimResult check_eq_3_10(const CheckContext& ctx);
ClaimResult check_lemma_j01(const CheckContext& ctx);
ClaimResult check_lemma_j02(const CheckContext& ctx);
ClaimResult check_thm_j01(const CheckContext& ctx);
ClaimResult check_eq_j31_j32(const CheckContext& ctx);
ClaimResult check_thm_j01_rates(const CheckContext& ctx);

}  // namespace dpl::proofs::seed000
