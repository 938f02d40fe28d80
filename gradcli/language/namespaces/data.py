"""torch.utils.data: Dataset and IterableDataset (for subclassing), TensorDataset, Subset,
random_split and a single-process DataLoader whose shuffles draw from torch's generator as
torch's do."""

from __future__ import annotations

import functools
import math
from bisect import bisect_right

import numpy as np

from gradcli.engine import creation, dtypes, errors
from gradcli.engine.declarations import DECLARATIONS
from gradcli.engine.ops import shapes as S
from gradcli.engine.random import Generator
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor, require_tensors
from gradcli.language.namespaces.builtins import class_text
from gradcli.language.runtime import attributes, classes, protocols
from gradcli.language.runtime.calls import get_item
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.objects import TableInstance, TableIterator
from gradcli.language.runtime.pytypes import GENERIC, GenericHost, PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.coercions import index as as_index, tensor_float, truth
from gradcli.language.runtime.coercions import length as len_of
from gradcli.language.runtime.operators import binary, compare
from gradcli.language.runtime.values import (Generator as LazyValues, NamedTuple, Namespace,
                                            Printer, iterate, type_name)

_MODULE = "torch.utils.data"
_INT64_SCALAR = Tensor(np.zeros((), np.int64), dtypes.int64)  # what DataLoader draws its seed into


def checked_generator(generator, variant: str, name: str, *args) -> None:
    """A generator as torch's Python code hands it to a C++ function (`name` with `args`): the
    parser's TypeError for anything but a Generator or None."""
    if generator is not None and not isinstance(generator, Generator):
        DECLARATIONS[variant, name].bind(args, {"generator": generator}, variant)


def _random_int64(generator: Generator) -> int:
    """torch.empty((), dtype=torch.int64).random_(): one 64-bit draw, modulo 2**63."""
    words = generator._words(2)
    return ((int(words[0]) << 32) | int(words[1])) % 2**63


class DatasetHost(GenericHost):
    """What isinstance(x, Dataset) recognises among the builtin datasets."""


class IterableDatasetHost(DatasetHost):
    """The host class of IterableDataset (a Dataset in torch too)."""


class _DataObject(TableInstance):
    """A dataset or loader value: attributes a program sets live in `attrs`."""

    __slots__ = ("attrs",)
    TYPE: PyType = None

    @property
    def language_type(self) -> PyType:
        return self.TYPE

    def repr(self, printer) -> str:
        return f"<{self.TYPE.name} object at 0x{id(self):x}>"


class TensorDataset(_DataObject, DatasetHost):
    is_sequence = True
    __slots__ = ("tensors",)
    PROPERTIES = {"tensors": lambda d: d.tensors}

    def __init__(self, *tensors):
        for t in tensors:  # torch reads each one's size(0)
            if not isinstance(t, Tensor):  # (a NumPy array's size is its number of elements)
                size = attributes.get(t, "size")
                raise errors.type_error(f"'{type_name(size)}' object is not callable")
            S.size_at(t, 0)
        if any(t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise errors.TorchError("AssertionError", "Size mismatch between tensors")
        self.tensors, self.attrs = tuple(tensors), {}

    def item(self, key):
        return tuple(protocols.get_item(t, key) for t in self.tensors)

    def length(self) -> int:
        return self.tensors[0].shape[0]

    def members(self):
        return (self.item(i) for i in range(self.length()))


class Subset(_DataObject, DatasetHost):
    is_sequence = True
    __slots__ = ("dataset", "indices")
    PROPERTIES = {"dataset": lambda d: d.dataset, "indices": lambda d: d.indices}

    def __init__(self, dataset, indices):
        self.dataset, self.indices, self.attrs = dataset, indices, {}

    def item(self, key):
        if isinstance(key, list):
            return [self.item(k) for k in key]
        return protocols.get_item(self.dataset, protocols.get_item(self.indices, key))

    def length(self) -> int:
        return len_of(self.indices)

    def members(self):
        return (self.item(i) for i in range(self.length()))

    def items(self, indices) -> list:
        """Subset.__getitems__: its dataset's items at the mapped indices."""
        return fetch(self.dataset,
                     [protocols.get_item(self.indices, i) for i in iterate(indices)])


def fetch(dataset, indices: list) -> list:
    """A batch's items as torch's fetcher takes them: by the dataset's __getitems__ if it has
    one (a Subset, a class of the program's), else one at a time."""
    if isinstance(dataset, Subset):
        return dataset.items(indices)
    own = classes.special_method(dataset, "__getitems__")
    if own is not None:
        return classes.call_bound(own, [indices])
    return [protocols.get_item(dataset, i) for i in indices]


Subset.METHODS = {"__getitems__": entry("__getitems__", Subset.items, "self, indices")}


class ConcatDataset(_DataObject, DatasetHost):
    """Datasets one after another: an index finds its dataset by the running sizes."""

    is_sequence = True
    __slots__ = ("datasets", "cumulative_sizes")
    PROPERTIES = {"datasets": lambda d: d.datasets, "cumulative_sizes": lambda d: d.cumulative_sizes}

    def __init__(self, datasets):
        self.datasets, self.attrs = list(iterate(datasets)), {}
        if not self.datasets:
            raise errors.TorchError("AssertionError", "datasets should not be an empty iterable")
        self.cumulative_sizes, total = [], 0
        for dataset in self.datasets:
            total += len_of(dataset)
            self.cumulative_sizes.append(total)

    def item(self, key):
        if key < 0:
            if -key > self.length():
                raise errors.value_error("absolute value of index should not exceed dataset "
                                         "length")
            key += self.length()
        number = bisect_right(self.cumulative_sizes, key)
        start = self.cumulative_sizes[number - 1] if number else 0
        return protocols.get_item(self.datasets[number], key - start)

    def length(self) -> int:
        return self.cumulative_sizes[-1]

    def members(self):
        return (self.item(i) for i in range(self.length()))


class ChainDataset(_DataObject, IterableDatasetHost):
    """IterableDatasets one after another, walked as they are iterated."""

    is_sequence = True
    __slots__ = ("datasets",)
    PROPERTIES = {"datasets": lambda d: d.datasets}

    def __init__(self, datasets):
        self.datasets, self.attrs = datasets, {}

    def _each(self):
        for dataset in iterate(self.datasets):
            if not is_iterable_dataset(dataset):
                raise errors.TorchError("AssertionError",
                                        "ChainDataset only supports IterableDataset")
            yield dataset

    def item(self, key):
        raise errors.type_error("'ChainDataset' object is not subscriptable")

    def length(self) -> int:
        return sum(len_of(dataset) for dataset in self._each())

    def members(self):
        return LazyValues((item for dataset in self._each() for item in iterate(dataset)),
                          "ChainDataset.__iter__")


class StackDataset(_DataObject, DatasetHost):
    """Datasets side by side: an item is the tuple (or dict) of their items."""

    is_sequence = True
    __slots__ = ("datasets", "_length")
    PROPERTIES = {"datasets": lambda d: d.datasets}

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise errors.value_error(
                "Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like "
                "input/output, but both types are given.")
        if not args and not kwargs:
            raise errors.value_error("At least one dataset should be passed")
        parts = args or list(kwargs.values())
        self._length = len_of(parts[0])
        if any(self._length != len_of(dataset) for dataset in parts):
            raise errors.value_error("Size mismatch between datasets")
        self.datasets, self.attrs = args or kwargs, {}

    def item(self, key):
        if isinstance(self.datasets, dict):
            return {name: protocols.get_item(d, key) for name, d in self.datasets.items()}
        return tuple(protocols.get_item(d, key) for d in self.datasets)

    def length(self) -> int:
        return self._length

    def members(self):
        return (self.item(i) for i in range(self.length()))


def collate(batch: list):
    """torch's default_collate for tensors, numbers, strings, sequences, namedtuples and
    dicts."""
    first = batch[0]
    if isinstance(first, Tensor):
        require_tensors(batch)
        return S.stack(batch, 0)
    if isinstance(first, np.ndarray):
        if first.dtype.kind in "SaUO":  # strings and objects
            raise errors.type_error(_COLLATE_TYPES.format(first.dtype))
        return collate([creation.as_tensor(a) for a in batch])
    if isinstance(first, np.generic) and not isinstance(first, (np.str_, np.bytes_)):
        return creation.as_tensor(batch)
    if isinstance(first, int):  # bools too: torch.tensor(batch)
        return creation.tensor(batch)
    if isinstance(first, float):
        return creation.tensor(batch, dtypes.float64)
    if isinstance(first, str):
        return batch  # as given: a list, or a tuple out of a sequence's columns
    if isinstance(first, dict):
        return {key: collate([get_item(d, key) for d in batch]) for key in first}
    if isinstance(first, NamedTuple):  # its own class again, field by field
        return type(first)(collate(list(samples)) for samples in zip(*batch))
    if isinstance(first, (tuple, list)):
        size = len(first)
        if any(len(element) != size for element in batch):
            raise errors.runtime("each element in list of batch should be of equal size")
        return [collate(samples) for samples in zip(*batch)]  # strings stay zip's tuples
    raise errors.type_error(_COLLATE_TYPES.format(class_text(first)))


_COLLATE_TYPES = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
                  "lists; found {}")


def convert(sample):
    """torch's default_convert, what a loader without batches hands out: numpy arrays and
    scalars as tensors and tuples as lists (a namedtuple keeps its class), inside lists and
    dicts too."""
    if isinstance(sample, np.ndarray):
        return creation.from_numpy(sample)
    if isinstance(sample, (np.bool_, np.number)):
        return creation.from_numpy(np.asarray(sample))
    if isinstance(sample, dict):
        return {key: convert(value) for key, value in sample.items()}
    if isinstance(sample, NamedTuple):
        return type(sample)(convert(value) for value in sample)
    if isinstance(sample, (tuple, list)):
        return [convert(value) for value in sample]
    return sample


# torch.utils.data.sampler's classes a DataLoader makes its own samplers of (samplers.py,
# loaded with torch.utils.data, registers them)
SAMPLER_CLASSES: dict = {}


class LoaderIterator(TableIterator):
    """iter(loader): torch's _SingleProcessDataLoaderIter (_MultiProcessingDataLoaderIter with
    workers), the batches one a step, its len() the loader's."""

    __slots__ = ("loader", "batches")
    sized = True

    def __init__(self, loader: "DataLoader", batches):
        self.loader, self.batches = loader, batches

    @property
    def language_type(self) -> PyType:
        return _LOADER_ITERATORS[self.loader.num_workers > 0]

    def step(self):
        return next(self.batches)

    def length(self) -> int:
        return self.loader.length()

    def attribute(self, name: str):
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<{self.language_type.name} object at 0x{id(self):x}>"


_LOADER_ITERATORS = tuple(PyType(f"torch.utils.data.dataloader._{kind}DataLoaderIter",
                                 (LoaderIterator,))
                          for kind in ("SingleProcess", "MultiProcessing"))


class DataLoader(_DataObject):
    is_sequence = True
    __slots__ = ("dataset", "batch_size", "shuffle", "drop_last", "collate_fn", "generator",
                 "sampler", "batch_sampler", "iterable", "num_workers", "pin_memory",
                 "pin_memory_device", "samplers")
    PROPERTIES = {"dataset": lambda d: d.dataset, "batch_size": lambda d: d.batch_size,
                  "drop_last": lambda d: d.drop_last, "generator": lambda d: d.generator,
                  "num_workers": lambda d: d.num_workers, "pin_memory": lambda d: d.pin_memory,
                  "pin_memory_device": lambda d: d.pin_memory_device,
                  "sampler": lambda d: d.default_samplers()[0],
                  "batch_sampler": lambda d: d.default_samplers()[1]}

    def __init__(self, ctx, dataset, batch_size, shuffle, collate_fn, drop_last, generator,
                 sampler=None, batch_sampler=None, workers=(0, False, "")):
        self.num_workers, self.pin_memory, self.pin_memory_device = workers
        self.samplers = None
        self.iterable = is_iterable_dataset(dataset)
        if self.iterable:
            _check_iterable_options(shuffle, sampler, batch_sampler)
        if sampler is not None and shuffle:
            raise errors.value_error("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise errors.value_error("batch_sampler option is mutually exclusive with "
                                         "batch_size, shuffle, sampler, and drop_last")
            batch_size = None
        elif batch_size is None and drop_last:
            raise errors.value_error("batch_size=None option disables auto-batching and is "
                                     "mutually exclusive with drop_last")
        self.sampler, self.batch_sampler = sampler, batch_sampler
        self.dataset, self.batch_size, self.shuffle = dataset, batch_size, bool(shuffle)
        self.drop_last, self.attrs, self.generator = bool(drop_last), {}, generator
        self.collate_fn = None if collate_fn is None else (
            lambda batch: ctx.call(collate_fn, [batch], {}))
        if batch_size is not None and (isinstance(batch_size, bool) or not isinstance(
                batch_size, int) or batch_size <= 0):
            raise errors.value_error("batch_size should be a positive integer value, but got "
                                     f"batch_size={batch_size}")

    def default_samplers(self) -> tuple:
        """(sampler, batch_sampler) as torch's DataLoader holds them: those given, else a
        Sequential or Random sampler over the dataset and a BatchSampler over it (made once,
        on first reading: the batches come from the same order either way)."""
        if self.samplers is None:
            kinds = SAMPLER_CLASSES
            sampler, batch_sampler = self.sampler, self.batch_sampler
            if sampler is None and not self.iterable:
                sampler = kinds["random"](self.dataset, False, None, self.generator) \
                    if self.shuffle else kinds["sequential"](self.dataset)
            if self.batch_size is not None and batch_sampler is None and sampler is not None:
                batch_sampler = kinds["batch"](sampler, self.batch_size, self.drop_last)
            self.samplers = (sampler, batch_sampler)
        return self.samplers

    def length(self) -> int:
        if self.batch_sampler is not None and not self.iterable:
            return len_of(self.batch_sampler)
        size = len_of(self.dataset if self.sampler is None or self.iterable else self.sampler)
        if self.batch_size is None:
            return size
        return size // self.batch_size if self.drop_last else math.ceil(size / self.batch_size)

    def item(self, key):
        raise errors.type_error("'DataLoader' object is not subscriptable")

    def _order(self):
        if self.sampler is not None:
            yield from iterate(self.sampler)
            return
        size = len_of(self.dataset)
        if not self.shuffle:
            yield from range(size)
            return
        generator = self.generator
        if generator is None:
            generator = Generator(_random_int64(creation.DEFAULT_GENERATOR.generator))
        yield from generator.randperm(size).tolist()
        # torch's RandomSampler then draws the permutation it takes its last `num_samples % n`
        # (none here) from: the loader's generator moves on once more each epoch
        generator.randperm(size)

    def members(self):
        if self.pin_memory and self.pin_memory_device:  # as each iterator starts, in torch
            STATE.warn("UserWarning", "pin_memory_device is deprecated, the current accelerator "
                       "will be used as the device,ignore "
                       f"pin_memory_device='{self.pin_memory_device}'.")
        if self.pin_memory:  # no accelerator here
            STATE.warn("UserWarning", "'pin_memory' argument is set as true but no accelerator "
                       "is found, then device pinned memory won't be used.")
        checked_generator(self.generator, "method", "random_", _INT64_SCALAR)
        source = self.generator or creation.DEFAULT_GENERATOR.generator
        _random_int64(source)  # the iterator's base seed, drawn as torch draws it
        return LoaderIterator(self, self._batches())

    def _batches(self):
        collate_fn = self.collate_fn or collate
        if self.iterable:
            yield from self._streamed(collate_fn)
            return
        if self.batch_sampler is not None:
            for batch in iterate(self.batch_sampler):
                yield collate_fn(fetch(self.dataset, batch))
            return
        order = self._order()
        if self.batch_size is None:
            for index in order:
                yield (self.collate_fn or convert)(protocols.get_item(self.dataset, index))
            return
        batch = []
        for index in order:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield collate_fn(fetch(self.dataset, batch))
                batch = []
        if batch and not self.drop_last:
            yield collate_fn(fetch(self.dataset, batch))


    def _streamed(self, collate_fn):
        """An IterableDataset's items in the order it yields them, batched as they come."""
        items = iterate(self.dataset)
        if self.batch_size is None:
            for item in items:
                yield (self.collate_fn or convert)(item)
            return
        batch = []
        for item in items:
            batch.append(item)
            if len(batch) == self.batch_size:
                yield collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield collate_fn(batch)


def is_iterable_dataset(dataset) -> bool:
    if isinstance(dataset, IterableDatasetHost):
        return True
    owner = classes.class_of(dataset)
    return owner is not None and owner.is_subclass_of(ITERABLE_DATASET)


def _check_iterable_options(shuffle, sampler, batch_sampler) -> None:
    """torch's refusals of what only indexed datasets can use."""
    if shuffle not in (False, None):
        raise errors.value_error("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
    for name, value in (("sampler", sampler), ("batch_sampler", batch_sampler)):
        if value is not None:
            raise errors.value_error(f"DataLoader with IterableDataset: expected unspecified "
                                     f"{name} option, but got {name}={Printer().repr(value)}")


def random_split(dataset, lengths, generator=None):
    """torch's random_split, with Python's arithmetic on the lengths (0-d tensors among them)."""
    lengths = list(iterate(lengths))
    size = len_of(dataset)
    if math.isclose(_as_float(_total(lengths)), 1) and truth(compare("<=", _total(lengths), 1)):
        counts = []
        for number, fraction in enumerate(lengths):
            if truth(compare("<", fraction, 0)) or truth(compare(">", fraction, 1)):
                raise errors.value_error(f"Fraction at index {number} is not between 0 and 1")
            counts.append(math.floor(_as_float(binary("*", size, fraction))))
        for number in range(size - sum(counts)):
            counts[number % len(counts)] += 1
        lengths = counts
        for number, length in enumerate(lengths):
            if length == 0:
                STATE.warn("UserWarning", f"Length of split at index {number} is 0. This might "
                           "result in an empty dataset.")
    total = _total(lengths)
    if truth(compare("!=", total, size)):
        raise errors.value_error(
            "Sum of input lengths does not equal the length of the input dataset!")
    lengths = [as_index(length) if isinstance(length, Tensor) else length for length in lengths]
    total = sum(lengths)
    source = generator or creation.DEFAULT_GENERATOR.generator
    if not isinstance(total, int):  # torch.randperm's parser refuses it
        DECLARATIONS["torch", "randperm"].bind((total,), {"generator": source}, "torch")
    checked_generator(generator, "torch", "randperm", total)
    indices = source.randperm(total).tolist()
    subsets, offset = [], 0
    for length in lengths:
        subsets.append(Subset(dataset, indices[offset:offset + length]))
        offset += length
    return subsets


def _total(lengths: list):
    """sum(lengths) as Python adds them up from 0."""
    return functools.reduce(lambda a, b: binary("+", a, b), lengths, 0)


def _as_float(value) -> float:
    """float(value) (math.isclose and math.floor read a tensor through its __float__)."""
    return tensor_float(value) if isinstance(value, Tensor) else float(value)


DATASET = PyType(f"{_MODULE}.dataset.Dataset", (DatasetHost,))
ITERABLE_DATASET = PyType(f"{_MODULE}.dataset.IterableDataset", (IterableDatasetHost,))
for _base in (DATASET, ITERABLE_DATASET):
    classes.BASE_INSTANCES[_base] = lambda cls, args: classes.Instance(cls)
    classes.BASE_INITS[_base] = entry("__init__", lambda self: None, "self",
                                      qualname="Dataset.__init__")
classes.BUILTIN_ANCESTORS.update({DatasetHost: DATASET, IterableDatasetHost: ITERABLE_DATASET,
                                  GenericHost: GENERIC})


def _abstract_getitem(self, index):
    raise errors.TorchError("NotImplementedError", "Subclasses of Dataset should implement "
                            "__getitem__.")


for _base in (DATASET, ITERABLE_DATASET):  # an IterableDataset is a Dataset in torch
    classes.BASE_SPECIALS[_base] = {"__getitem__": entry(
        "__getitem__", _abstract_getitem, "self, index", qualname="Dataset.__getitem__")}
classes.GENERIC_BASES.update((DATASET, ITERABLE_DATASET))


def _type(name: str, module: str, host, init, signature: str, context=False) -> PyType:
    kind = PyType(f"{_MODULE}.{module}.{name}", (host,), BoundMethod(None, entry(
        "__init__", init, signature, qualname=f"{name}.__init__", context=context)))
    host.TYPE = kind
    return kind


TENSOR_DATASET = _type("TensorDataset", "dataset", TensorDataset,
                       lambda _, *tensors: TensorDataset(*tensors), "self, *tensors")
SUBSET = _type("Subset", "dataset", Subset, lambda _, dataset, indices: Subset(dataset, indices),
               "self, dataset, indices")
CONCAT_DATASET = _type("ConcatDataset", "dataset", ConcatDataset,
                       lambda _, datasets: ConcatDataset(datasets), "self, datasets")
CHAIN_DATASET = _type("ChainDataset", "dataset", ChainDataset,
                      lambda _, datasets: ChainDataset(datasets), "self, datasets")
STACK_DATASET = _type("StackDataset", "dataset", StackDataset,
                      lambda _, *args, **kwargs: StackDataset(*args, **kwargs),
                      "self, *args, **kwargs")
# their __mro__ and their subclasses' (through Dataset to typing.Generic)
classes.BUILTIN_ANCESTORS.update({kind.hosts[0]: kind for kind in (
    TENSOR_DATASET, SUBSET, CONCAT_DATASET, STACK_DATASET)})
def _dataloader(ctx, _, dataset, batch_size, shuffle, sampler, batch_sampler, num_workers,
                collate_fn, pin_memory, drop_last, timeout, worker_init_fn,
                multiprocessing_context, generator, *, prefetch_factor,
                persistent_workers, pin_memory_device, **__) -> DataLoader:
    """DataLoader.__init__: its worker options are checked first (the batches are made here,
    in this process, whatever their number)."""
    if num_workers < 0:
        raise errors.value_error("num_workers option should be non-negative; use num_workers=0 "
                                 "to disable multiprocessing.")
    if timeout < 0:
        raise errors.value_error("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise errors.value_error(
            "prefetch_factor option could only be specified in multiprocessing.let num_workers "
            "> 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
    if prefetch_factor is not None and prefetch_factor < 0:
        raise errors.value_error("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise errors.value_error("persistent_workers option needs num_workers > 0")
    return DataLoader(ctx, dataset, batch_size, shuffle, collate_fn, drop_last, generator,
                      sampler, batch_sampler, (num_workers, pin_memory, pin_memory_device))


DATALOADER = _type(
    "DataLoader", "dataloader", DataLoader, _dataloader,
    "self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, "
    "num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0, "
    "worker_init_fn=None, multiprocessing_context=None, generator=None, *, prefetch_factor=None, "
    "persistent_workers=False, pin_memory_device='', in_order=True", context=True)

DATA = Namespace(_MODULE, {
    "Dataset": DATASET, "IterableDataset": ITERABLE_DATASET, "TensorDataset": TENSOR_DATASET, "Subset": SUBSET,
    "ConcatDataset": CONCAT_DATASET, "ChainDataset": CHAIN_DATASET, "StackDataset": STACK_DATASET,
    "DataLoader": DATALOADER,
    "random_split": entry("random_split", lambda dataset, lengths, generator: random_split(
        dataset, lengths, generator), "dataset, lengths, generator=None"),
    "default_collate": entry("default_collate", collate, "batch"),
    "default_convert": entry("default_convert", convert, "data"),
    "get_worker_info": entry("get_worker_info", lambda: None, ""),  # loading is single-process
})
