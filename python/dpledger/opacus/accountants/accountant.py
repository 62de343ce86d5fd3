# SPDX-License-Identifier: Apache-2.0
"""IAccountant: Opacus's accountant interface. ``history`` is a list of (noise_multiplier, sample_rate,
num_steps) tuples, consecutive equal steps merged (as Opacus keeps it, so a saved state_dict of Opacus loads
here and the other way round)."""

import abc
import copy
from collections import OrderedDict

from ..._events import history_specs

__all__ = ["IAccountant"]


class IAccountant(abc.ABC):
    def __init__(self):
        self.history = []

    def step(self, *, noise_multiplier, sample_rate):
        """Records one optimisation step (Poisson sampling at ``sample_rate``, noise ``noise_multiplier``)."""
        if self.history:
            last_noise_multiplier, last_sample_rate, num_steps = self.history[-1]
            if last_noise_multiplier == noise_multiplier and last_sample_rate == sample_rate:
                self.history[-1] = (last_noise_multiplier, last_sample_rate, num_steps + 1)
                return
        self.history.append((noise_multiplier, sample_rate, 1))

    @abc.abstractmethod
    def get_epsilon(self, delta, *args, **kwargs):
        """The privacy budget (epsilon) spent so far at ``delta``: a certified upper bound."""

    def __len__(self):
        return len(self.history)

    @classmethod
    @abc.abstractmethod
    def mechanism(cls):
        """The accounting mechanism's name (as Opacus names it)."""

    def get_optimizer_hook_fn(self, sample_rate):
        """The callback Opacus attaches to its DPOptimizer: one step per optimizer step."""
        def hook_fn(optim):
            self.step(noise_multiplier=optim.noise_multiplier,
                      sample_rate=sample_rate * optim.accumulated_iterations)
        return hook_fn

    def state_dict(self, destination=None):
        if destination is None:
            destination = OrderedDict()
        destination["history"] = copy.deepcopy(self.history)
        destination["mechanism"] = self.mechanism()
        return destination

    def load_state_dict(self, state_dict):
        if state_dict is None or len(state_dict) == 0:
            raise ValueError("state dict is either None or empty and hence cannot be loaded into Privacy Accountant.")
        if "history" not in state_dict.keys():
            raise ValueError("state_dict does not have the key `history`. Cannot be loaded into Privacy Accountant.")
        if "mechanism" not in state_dict.keys():
            raise ValueError("state_dict does not have the key `mechanism`. Cannot be loaded into Privacy Accountant.")
        if self.mechanism() != state_dict["mechanism"]:
            raise ValueError(f"state_dict of {state_dict['mechanism']} cannot be loaded into  Privacy Accountant "
                             f"with mechanism {self.mechanism()}")
        history = [tuple(item) for item in state_dict["history"]]
        history_specs(history)  # refuses a malformed history now, with the item at fault
        self.history = history

    def _noiseless(self):
        """Whether a recorded step had no noise (noise_multiplier 0, sampled records): Opacus then reports epsilon
        inf, and so do dpledger's accountants."""
        return any(nm == 0 and q > 0 and steps > 0 for nm, q, steps in self.history)

    def ledger_specs(self):
        """The history as dpledger mechanism specs (``gaussian:sigma=...,q=...,steps=...``), as ``dpledger compose
        --ledger`` reads the history written as JSON."""
        return history_specs(self.history)
