"""torch.utils.data samplers: Sequential, Random, SubsetRandom, WeightedRandom and Batch, each
drawing from torch's generator as torch's do, and their base Sampler, for subclassing."""

from __future__ import annotations

from gradcli.engine import creation, distributions, dtypes, errors
from gradcli.engine.random import Generator
from gradcli.language.namespaces.data import (SAMPLER_CLASSES, _DataObject, _random_int64, _type,
                                              checked_generator)
from gradcli.language.runtime import classes
from gradcli.language.runtime.coercions import length as len_of
from gradcli.language.runtime.pytypes import GenericHost, PyType
from gradcli.language.runtime.values import Generator as LazyValues, iterate


def _positive(name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise errors.value_error(f"{name} should be a positive integer value, but got "
                                 f"{name}={value}")


def _boolean(name: str, value, kind=errors.value_error) -> None:
    if not isinstance(value, bool):
        raise kind(f"{name} should be a boolean value, but got {name}={value}")


class SamplerHost(GenericHost):
    """What isinstance(x, Sampler) recognises among the builtin samplers."""


class _Sampler(_DataObject, SamplerHost):
    is_sequence = True

    def item(self, key):
        raise errors.type_error(f"'{self.TYPE.name.rsplit('.', 1)[-1]}' object is not "
                                "subscriptable")

    def members(self):
        return LazyValues(self.indices(), f"{self.TYPE.name.rsplit('.', 1)[-1]}.__iter__")


class SequentialSampler(_Sampler):
    __slots__ = ("data_source",)
    PROPERTIES = {"data_source": lambda s: s.data_source}

    def __init__(self, data_source):
        self.data_source, self.attrs = data_source, {}

    def indices(self):
        yield from range(len_of(self.data_source))

    def length(self) -> int:
        return len_of(self.data_source)


class RandomSampler(_Sampler):
    __slots__ = ("data_source", "replacement", "_num_samples", "generator")
    PROPERTIES = {"data_source": lambda s: s.data_source, "replacement": lambda s: s.replacement,
                  "num_samples": lambda s: s.length(), "generator": lambda s: s.generator}

    def __init__(self, data_source, replacement, num_samples, generator):
        self.data_source, self.replacement, self.attrs = data_source, replacement, {}
        self._num_samples, self.generator = num_samples, generator
        _boolean("replacement", replacement, errors.type_error)
        _positive("num_samples", self.length())

    def length(self) -> int:
        return len_of(self.data_source) if self._num_samples is None else self._num_samples

    def indices(self):
        n, count = len_of(self.data_source), self.length()
        generator = self.generator
        if self.replacement:
            checked_generator(generator, "torch", "randint", n, (32,))
        else:
            checked_generator(generator, "torch", "randperm", n)
        if generator is None:
            generator = Generator(_random_int64(creation.DEFAULT_GENERATOR.generator))
        if self.replacement:  # 32 draws at a time, as torch's: num_samples may be 1e10
            for _ in range(count // 32):
                yield from generator.randint(0, n, (32,)).tolist()
            if count % 32:
                yield from generator.randint(0, n, (count % 32,)).tolist()
            return
        for _ in range(count // n):
            yield from generator.randperm(n).tolist()
        yield from generator.randperm(n).tolist()[:count % n]


class SubsetRandomSampler(_Sampler):
    __slots__ = ("indices_", "generator")
    PROPERTIES = {"indices": lambda s: s.indices_, "generator": lambda s: s.generator}

    def __init__(self, indices, generator):
        self.indices_, self.generator, self.attrs = indices, generator, {}

    def length(self) -> int:
        return len_of(self.indices_)

    def indices(self):
        order = creation.draw_source(self.generator).randperm(self.length()).tolist()
        values = list(iterate(self.indices_))
        for i in order:
            yield values[i]


class WeightedRandomSampler(_Sampler):
    __slots__ = ("weights", "num_samples", "replacement", "generator")
    PROPERTIES = {"weights": lambda s: s.weights, "num_samples": lambda s: s.num_samples,
                  "replacement": lambda s: s.replacement, "generator": lambda s: s.generator}

    def __init__(self, weights, num_samples, replacement, generator):
        _positive("num_samples", num_samples)
        _boolean("replacement", replacement)
        self.weights = creation.as_tensor(weights, dtypes.float64)
        if self.weights.ndim != 1:
            raise errors.value_error("weights should be a 1d sequence but given weights have "
                                     f"shape {tuple(self.weights.shape)}")
        self.num_samples, self.replacement = num_samples, replacement
        self.generator, self.attrs = generator, {}

    def length(self) -> int:
        return self.num_samples

    def indices(self):
        drawn = distributions.multinomial(self.weights, self.num_samples, self.replacement,
                                          self.generator)
        yield from drawn.data.tolist()


class BatchSampler(_Sampler):
    __slots__ = ("sampler", "batch_size", "drop_last")
    PROPERTIES = {"sampler": lambda s: s.sampler, "batch_size": lambda s: s.batch_size,
                  "drop_last": lambda s: s.drop_last}

    def __init__(self, sampler, batch_size, drop_last):
        _positive("batch_size", batch_size)
        _boolean("drop_last", drop_last)
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last
        self.attrs = {}

    def length(self) -> int:
        size = len_of(self.sampler)
        return size // self.batch_size if self.drop_last else -(-size // self.batch_size)

    def indices(self):
        batch = []
        for index in iterate(self.sampler):
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch


SAMPLER_CLASSES.update(sequential=SequentialSampler, random=RandomSampler, batch=BatchSampler)
_SAMPLER = "sampler"
# Sampler, a base class only: no __init__ of its own, so a subclass takes what object takes
SAMPLER = PyType("torch.utils.data.sampler.Sampler", (SamplerHost,))
classes.BASE_CLASS_ATTRIBUTES[SAMPLER] = lambda cls, name: classes.MISSING
classes.BUILTIN_ANCESTORS[SamplerHost] = SAMPLER
classes.GENERIC_BASES.add(SAMPLER)
SAMPLERS = {"Sampler": SAMPLER} | {kind.__name__: _type(kind.__name__, _SAMPLER, kind, init, signature) for kind, init,
            signature in (
    (SequentialSampler, lambda _, data_source: SequentialSampler(data_source),
     "self, data_source"),
    (RandomSampler, lambda _, *args: RandomSampler(*args),
     "self, data_source, replacement=False, num_samples=None, generator=None"),
    (SubsetRandomSampler, lambda _, *args: SubsetRandomSampler(*args),
     "self, indices, generator=None"),
    (WeightedRandomSampler, lambda _, *args: WeightedRandomSampler(*args),
     "self, weights, num_samples, replacement=True, generator=None"),
    (BatchSampler, lambda _, *args: BatchSampler(*args), "self, sampler, batch_size, drop_last"),
)}
