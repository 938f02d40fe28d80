"""Seeding and generators: torch.Generator, torch.default_generator, torch.seed/initial_seed,
get_rng_state/set_rng_state, torch.random, and the random functions that take `generator=`."""

from __future__ import annotations

import numpy as np

from gradcli.engine import creation, devices, dtypes, errors
from gradcli.engine.random import DEFAULT_SEED, Generator
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.builtins import python_int
from gradcli.language.runtime.frames import BoundMethod, ContextManager
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, type_name

_STATE_SIZE = 5056  # bytes of torch's CPUGeneratorImplState


def _seed_value(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise errors.runtime(f"manual_seed expected a long, but got {type_name(seed)}")
    return seed


def _state_bytes(state) -> np.ndarray:
    """A state tensor's bytes, checked as torch checks a new RNG state."""
    if not isinstance(state, Tensor):
        raise errors.type_error(f"expected a torch.ByteTensor, but got {type_name(state)}")
    if state.dtype is not dtypes.uint8:
        raise errors.type_error("RNG state must be a torch.ByteTensor")
    if state.numel() != _STATE_SIZE:
        raise errors.runtime(f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found "
                             f"the input RNG state size to be {state.numel()}")
    return state.data.ravel()


class TorchGenerator(Generator, TableInstance):
    """A torch.Generator value: the engine generator with torch's methods."""

    TYPE: PyType = None

    def __init__(self, seed: int = DEFAULT_SEED):
        super().__init__(seed)
        self.attrs = {}

    @property
    def language_type(self) -> PyType:
        return TorchGenerator.TYPE

    def repr(self, printer) -> str:
        return f"<torch._C.Generator object at 0x{id(self):x}>"


def _manual_seed(generator: TorchGenerator, seed) -> TorchGenerator:
    generator.manual_seed(_seed_value(seed))
    return generator


def _get_state(generator: Generator) -> Tensor:
    return Tensor(generator.get_state(), dtypes.uint8)


def _set_state(generator: TorchGenerator, state) -> TorchGenerator:
    generator.set_state(_state_bytes(state))
    return generator


TorchGenerator.METHODS = table(
    entry("manual_seed", _manual_seed, "self, seed"),
    entry("seed", lambda g: g.seed(), "self"),
    entry("initial_seed", lambda g: g.initial_seed(), "self"),
    entry("get_state", _get_state, "self"),
    entry("set_state", _set_state, "self, new_state"),
)
TorchGenerator.PROPERTIES = {"device": lambda g: devices.device("cpu")}


_NO_CUDA = (
    "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you are "
    "trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't directly "
    "use any symbols from the CUDA library! One common culprit is a lack of -Wl,--no-as-needed in "
    "your link arguments; many dynamic linkers will delete dynamic library dependencies if you "
    "don't depend on any of their symbols.  You can check if this has occurred by using ldd on "
    "your binary to see if there is a dependency on *_cuda.so library.")


def _new_generator(_, device) -> TorchGenerator:
    """torch.Generator(device='cpu'): a CPU generator; this build has no other device."""
    if isinstance(device, int) and not isinstance(device, bool):
        if not -(2**63) <= device < 2**63:
            raise errors.value_error("Overflow when unpacking long long")
        raise errors.runtime("Cannot access accelerator device when none is available.")
    if devices.device(device).type == "cuda":
        raise errors.runtime(_NO_CUDA)
    devices.place(device)
    return TorchGenerator()


TorchGenerator.TYPE = PyType("torch._C.Generator", (TorchGenerator,), BoundMethod(None, entry(
    "__init__", _new_generator, "self, device='cpu'", qualname="Generator.__init__")))
creation.DEFAULT_GENERATOR.use(TorchGenerator)


def _default() -> TorchGenerator:
    return creation.DEFAULT_GENERATOR.generator


def _set_rng_state(new_state) -> None:
    _set_state(_default(), new_state)


def _torch_manual_seed(seed) -> TorchGenerator:
    """torch.manual_seed: any number int() accepts; returns the default generator."""
    return _manual_seed(_default(), python_int(seed))


def _fork_rng(devices_=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
              device_type="cuda") -> ContextManager:
    """torch.random.fork_rng: the CPU generator's state restored when the block ends."""
    saved = {}

    def enter():
        if enabled:
            saved["state"] = _default().get_state()

    def leave():
        if enabled:
            _default().set_state(saved["state"])

    return ContextManager(enter, leave)


_SEEDING = table(
    entry("manual_seed", _torch_manual_seed, "seed"),
    entry("seed", lambda: _default().seed(), ""),
    entry("initial_seed", lambda: _default().initial_seed(), ""),
    entry("get_rng_state", lambda: _get_state(_default()), ""),
    entry("set_rng_state", _set_rng_state, "new_state"),
)
# a DataLoader thread worker's generator: None here, as in torch's main process (loading is
# single-process)
_THREAD_SAFE = table(entry("thread_safe_generator", lambda: None, ""))
RANDOM = Namespace("torch.random", _SEEDING | _THREAD_SAFE | table(entry(
    "fork_rng", _fork_rng, "devices=None, enabled=True, _caller='fork_rng', "
    "_devices_kw='devices', device_type='cuda'")))

# the generator and seeding names of torch (its functions that draw are declared in the engine)
RANDOM_FUNCTIONS = _SEEDING | _THREAD_SAFE | {"Generator": TorchGenerator.TYPE, "random": RANDOM,
                               "default_generator": _default()}

