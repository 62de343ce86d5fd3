# SPDX-License-Identifier: Apache-2.0
"""Mechanisms as small classes that write the CLI's spec strings (``NAME:key=value,...``, docs/cli.md).

Every class only writes the spec; the C++ spec parser checks it, so ``Gaussian(sigma=1.1, q=0.01, steps=10_000)``
and ``"gaussian:sigma=1.1,q=0.01,steps=10000"`` are the same mechanism with the same errors. Numbers are written
as the shortest decimal that reads back as the same float (``repr``), strings as given (e.g. ``"1.1"``, or
``"?"`` for the value that :func:`dpledger.calibrate` solves for), so a value is read as the decimal typed.
"""

import numbers

__all__ = ["Mechanism", "Gaussian", "Laplace", "RandomizedResponse", "PureDP", "ApproxDP", "NoisyIteration",
           "spec_value", "as_spec"]


def spec_value(key, value):
    """The text of one spec value: ints as integers, floats by repr (shortest round trip), strings as given."""
    if isinstance(value, bool):
        raise ValueError(f"{key}={value!r}: a number or a decimal string is required")
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    raise ValueError(f"{key}={value!r}: a number or a decimal string is required")


class Mechanism:
    """A ledger entry: mechanism ``name`` with its spec keys, e.g. ``Mechanism("gaussian", sigma=1.1, steps=10)``.

    Keys with the value ``None`` are left out (the parser's default applies). Subclasses name the keys of the
    built-in mechanisms; this class writes any other name or key, which the parser accepts or refuses.
    """

    name = None

    def __init__(self, name=None, **params):
        if name is not None:
            self.name = name
        if not isinstance(self.name, str) or not self.name:
            raise ValueError("Mechanism: a mechanism name is required (e.g. 'gaussian')")
        self.params = {k: v for k, v in params.items() if v is not None}

    def spec(self):
        """The ``-m`` spec string of this entry."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={spec_value(k, v)}" for k, v in self.params.items())

    def __str__(self):
        return self.spec()

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        if type(self) is Mechanism:
            return f"Mechanism({self.name!r}{', ' if args else ''}{args})"
        return f"{type(self).__name__}({args})"

    def __eq__(self, other):
        return isinstance(other, Mechanism) and self.spec() == other.spec()

    def __hash__(self):
        return hash(self.spec())


class Gaussian(Mechanism):
    """Gaussian noise of standard deviation ``sigma`` on a query of L2 sensitivity ``sens`` (default 1).

    In Opacus's words: ``noise_multiplier`` (sigma with sensitivity 1), ``sample_rate`` (q) or ``batch_size`` with
    ``dataset_size`` (q = batch_size/dataset_size), and ``epochs`` (steps = ceil(epochs/q)), e.g.
    ``Gaussian(noise_multiplier=1.1, batch_size=256, dataset_size=60000, epochs=30)``, the spec
    ``gaussian:noise_multiplier=1.1,batch_size=256,dataset_size=60000,epochs=30``.
    """

    name = "gaussian"

    def __init__(self, sigma=None, sens=None, *, noise_multiplier=None, q=None, sample_rate=None, batch_size=None,
                 dataset_size=None, steps=None, epochs=None, sampling=None, **more):
        if sigma is None and noise_multiplier is None:
            raise ValueError("Gaussian: sigma (or noise_multiplier) is required")
        super().__init__(sigma=sigma, noise_multiplier=noise_multiplier, sens=sens, q=q, sample_rate=sample_rate,
                         batch_size=batch_size, dataset_size=dataset_size, steps=steps, epochs=epochs,
                         sampling=sampling, **more)


class Laplace(Mechanism):
    """Laplace noise of scale ``b`` on a query of L1 sensitivity ``sens`` (default 1)."""

    name = "laplace"

    def __init__(self, b, sens=None, *, q=None, steps=None, sampling=None, **more):
        super().__init__(b=b, sens=sens, q=q, steps=steps, sampling=sampling, **more)


class RandomizedResponse(Mechanism):
    """Binary randomized response with privacy parameter ``eps``."""

    name = "rr"

    def __init__(self, eps, *, q=None, steps=None, sampling=None, **more):
        super().__init__(eps=eps, q=q, steps=steps, sampling=sampling, **more)


class PureDP(Mechanism):
    """Any ``eps``-DP mechanism."""

    name = "pure"

    def __init__(self, eps, *, q=None, steps=None, sampling=None, **more):
        super().__init__(eps=eps, q=q, steps=steps, sampling=sampling, **more)


class ApproxDP(Mechanism):
    """Any ``(eps, delta)``-DP mechanism."""

    name = "approx"

    def __init__(self, eps, delta, *, q=None, steps=None, sampling=None, **more):
        super().__init__(eps=eps, delta=delta, q=q, steps=steps, sampling=sampling, **more)


class NoisyIteration(Mechanism):
    """A noisy contractive iteration (privacy amplification by iteration): ``steps`` Gaussian steps of
    standard deviation ``sigma`` and sensitivity ``sens``, the record used at step ``index``."""

    name = "iteration"

    def __init__(self, sigma, sens, steps, *, index=None, contraction=None, **more):
        super().__init__(sigma=sigma, sens=sens, steps=steps, index=index, contraction=contraction, **more)


def as_spec(mechanism):
    """The spec string of a spec string or a :class:`Mechanism` (anything with a ``spec()`` method)."""
    if isinstance(mechanism, str):
        return mechanism
    spec = getattr(mechanism, "spec", None)
    if callable(spec):
        return spec()
    raise TypeError(f"a mechanism is a spec string such as 'gaussian:sigma=1.1' or a dpledger.Mechanism, "
                    f"got {type(mechanism).__name__}")
