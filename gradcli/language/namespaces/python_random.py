"""Python's `random` module: one generator per session, drawing CPython's own sequences.

The draws come from a private `random.Random` (Python's Mersenne Twister), so `random.seed(0)`
then `random.random()` gives exactly what CPython gives. Functions that take or rearrange a
sequence accept the language's lists and tensors' lists (`random.shuffle(indices)` shuffles in
place, as in the data-iterator helpers of from-scratch tutorials).
"""

from __future__ import annotations

import random

from gradcli.engine import errors
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate

GENERATOR = random.Random()


def _shuffle(sequence) -> None:
    if not isinstance(sequence, list):
        raise errors.type_error(f"'{type(sequence).__name__}' object does not support item "
                                "assignment")
    GENERATOR.shuffle(sequence)


def _sample(population, k):
    return GENERATOR.sample(list(iterate(population)), k)


def _choice(sequence):
    items = sequence if isinstance(sequence, (list, tuple, str, range)) else list(
        iterate(sequence))
    if not items:
        raise errors.index_error("Cannot choose from an empty sequence")
    return GENERATOR.choice(items)


def _call(name: str, *args):
    """A draw of Python's generator, its own errors as the language's."""
    try:
        return vars(random.Random)[name](GENERATOR, *args)
    except (ValueError, TypeError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


def reset() -> None:
    """A new session starts from a fresh seed, as a new Python process does."""
    GENERATOR.seed()


RANDOM = Namespace("random", table(
    entry("seed", lambda a=None: GENERATOR.seed(a), "a=None", style="expected", frames=0),
    entry("random", lambda: GENERATOR.random(), "", style="expected", frames=0),
    entry("uniform", lambda a, b: _call("uniform", a, b), "a, b", frames=0),
    entry("randint", lambda a, b: _call("randint", a, b), "a, b", frames=0),
    entry("randrange", lambda *args: _call("randrange", *args), "*args", frames=0),
    entry("gauss", lambda mu, sigma: _call("gauss", mu, sigma), "mu=0.0, sigma=1.0", frames=0),
    entry("normalvariate", lambda mu, sigma: _call("normalvariate", mu, sigma),
          "mu=0.0, sigma=1.0", frames=0),
    entry("choice", _choice, "seq", frames=0),
    entry("choices", lambda population, weights, k: GENERATOR.choices(
        list(iterate(population)), weights, k=k), "population, weights=None, *, k=1", frames=0),
    entry("shuffle", _shuffle, "x", frames=0),
    entry("sample", _sample, "population, k", frames=0),
))
