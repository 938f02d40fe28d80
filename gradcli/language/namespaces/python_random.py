"""Python's `random` module: one generator per session, drawing CPython's own sequences.

The draws come from a private `random.Random` (Python's Mersenne Twister), so `random.seed(0)`
then `random.random()` gives exactly what CPython gives. Functions that take or rearrange a
sequence accept the language's lists and tensors' lists (`random.shuffle(indices)` shuffles in
place, as in the data-iterator helpers of from-scratch tutorials).
"""

from __future__ import annotations

import random

from gradcli.engine import errors
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate

GENERATOR = random.Random()


def _shuffle(rng, sequence) -> None:
    if not isinstance(sequence, list):
        raise errors.type_error(f"'{type(sequence).__name__}' object does not support item "
                                "assignment")
    rng.shuffle(sequence)


def _sample(rng, population, k):
    return _call(rng, "sample", list(iterate(population)), k)


def _choice(rng, sequence):
    items = sequence if isinstance(sequence, (list, tuple, str, range)) else list(
        iterate(sequence))
    if not items:
        raise errors.index_error("Cannot choose from an empty sequence")
    return rng.choice(items)


def _call(rng, name: str, *args, **kwargs):
    """A draw of a Python generator, its own errors as the language's."""
    try:
        return next(k.__dict__[name] for k in random.Random.__mro__ if name in k.__dict__)(
            rng, *args, **kwargs)
    except (ValueError, TypeError, IndexError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


def reset() -> None:
    """A new session starts from a fresh seed, as a new Python process does."""
    GENERATOR.seed()


def _draw(name: str, spec: str):
    return name, lambda rng, *args: _call(rng, name, *args), spec


# (name, function of the generator and the arguments, signature): the module's functions and
# the methods of a random.Random instance alike.
_FUNCTIONS = (
    ("seed", lambda rng, a=None: rng.seed(a), "a=None"),
    ("random", lambda rng: rng.random(), ""),
    _draw("uniform", "a, b"), _draw("randint", "a, b"), _draw("randrange", "*args"),
    _draw("gauss", "mu=0.0, sigma=1.0"), _draw("normalvariate", "mu=0.0, sigma=1.0"),
    _draw("lognormvariate", "mu, sigma"), _draw("expovariate", "lambd=1.0"),
    _draw("betavariate", "alpha, beta"), _draw("gammavariate", "alpha, beta"),
    _draw("triangular", "low=0.0, high=1.0, mode=None"), _draw("vonmisesvariate", "mu, kappa"),
    _draw("paretovariate", "alpha"), _draw("weibullvariate", "alpha, beta"),
    _draw("getrandbits", "k, /"),
    ("choice", _choice, "seq"),
    ("choices", lambda rng, population, weights, cum_weights, k: _call(
        rng, "choices", list(iterate(population)), weights, cum_weights=cum_weights, k=k),
     "population, weights=None, *, cum_weights=None, k=1"),
    ("shuffle", _shuffle, "x"),
    ("sample", _sample, "population, k"),
    ("getstate", lambda rng: rng.getstate(), ""),
    ("setstate", lambda rng, state: _call(rng, "setstate", state), "state"),
)


def _bound(function):
    return lambda *args, **kwargs: function(GENERATOR, *args, **kwargs)


RANDOM_METHODS = table(*(entry(name, function, f"self, {spec}", qualname=f"Random.{name}",
                               frames=0) for name, function, spec in _FUNCTIONS))
RANDOM_TYPE = PyType("random.Random", (random.Random,), entry(
    "Random", lambda x=None: random.Random(x), "x=None", style="at_most", frames=0))
RANDOM = Namespace("random", table(*(
    entry(name, _bound(function), spec, style="expected" if name in ("seed", "random")
          else "python", frames=0) for name, function, spec in _FUNCTIONS)) | {
    "Random": RANDOM_TYPE})
