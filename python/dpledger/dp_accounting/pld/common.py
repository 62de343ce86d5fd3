# SPDX-License-Identifier: Apache-2.0
"""dp_accounting.pld.common's parameter classes, as the PLD helpers of this package take them."""

import dataclasses

__all__ = ["DifferentialPrivacyParameters"]


@dataclasses.dataclass
class DifferentialPrivacyParameters:
    """(epsilon, delta)-differential privacy parameters (epsilon >= 0, delta in [0, 1])."""
    epsilon: float
    delta: float = 0

    def __post_init__(self):
        if not self.epsilon >= 0:
            raise ValueError(f"epsilon should be positive: {self.epsilon}")
        if not 0 <= self.delta <= 1:
            raise ValueError(f"delta should be between 0 and 1: {self.delta}")
