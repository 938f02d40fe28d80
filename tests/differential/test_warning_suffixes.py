"""Every place gradcli warns as torch does, its message compared with torch's run live as Python
shows it, unstripped: a warning torch's C++ raises (TORCH_WARN, TORCH_WARN_ONCE) ends with
" (Triggered internally at <file>:<line>.)", one torch's Python raises (or NumPy's, or the
program's own) does not."""

from __future__ import annotations

import pytest

from snippets import run_gradcli, run_torch

X = "x = torch.ones(2, requires_grad=True)\n"
NP = "import numpy as np\n"
NN = "import torch.nn as nn\nimport torch.nn.functional as F\n"
LEAF = "p = nn.Parameter(torch.ones(2))\n"
OPT = NN + LEAF + "opt = torch.optim.SGD([p], lr=0.1)\n"

# (snippet, the category of the warning it must raise), by where gradcli warns
CASES = [
    # raised by torch's C++: the messages end with where
    ("torch.chain_matmul(torch.ones(2, 2), torch.ones(2, 2))", "UserWarning"),
    ("torch.cross(torch.ones(3, 3), torch.ones(3, 3))", "UserWarning"),
    ("torch.var_mean(torch.ones(1))", "UserWarning"),
    ("torch.std(torch.ones(1))", "UserWarning"),
    ("torch.ones(1).var()", "UserWarning"),
    ("torch.ones(3, 1).std(1)", "UserWarning"),
    ("torch.cov(torch.ones(2, 1))", "UserWarning"),
    ("torch.meshgrid(torch.ones(2), torch.ones(2))", "UserWarning"),
    ("torch.zeros(3).scatter(0, torch.tensor([0, 1]), torch.ones(2), reduce='add')",
     "UserWarning"),
    ("LU, p = torch.linalg.lu_factor(torch.eye(2))\ntorch.lu_solve(torch.ones(2, 1), LU, p)",
     "UserWarning"),
    ("torch.lu(torch.eye(2))", "UserWarning"),
    ("torch.cholesky(torch.eye(2))", "UserWarning"),
    ("torch.qr(torch.eye(2))", "UserWarning"),
    ("torch.triangular_solve(torch.ones(2, 1), torch.eye(2))", "UserWarning"),
    ("torch.zeros(3).index_reduce(0, torch.tensor([0]), torch.ones(1), 'prod')", "UserWarning"),
    ("torch.tensor(1.).T", "UserWarning"),
    ("torch.ones(2).T", "UserWarning"),
    ("torch.tensor(1.).H", "UserWarning"),
    (X + "y = x * 2\nprint(y.grad)", "UserWarning"),
    (X + "(x * x).sum().backward(create_graph=True)", "UserWarning"),
    (X + "print(float(x[0]))", "UserWarning"),
    (X + "print(torch.tensor([x[0], x[1]]))", "UserWarning"),
    (NP + "torch.tensor([np.ones(2), np.ones(2)])", "UserWarning"),
    (X + "torch.asarray(x)", "UserWarning"),
    ("torch.ones(2).add(2, torch.ones(2))", "UserWarning"),
    ("t = torch.ones(2)\nt.sub_(2, torch.ones(2))", "UserWarning"),
    ("torch.add(torch.ones(2), 1, out=torch.zeros(3))", "UserWarning"),
    ("torch.ones(2, 2)[[0, slice(None)]]", "UserWarning"),
    ("torch.ones(2, 2)[[None, 1]]", "UserWarning"),
    ("torch.ones(2)[torch.tensor([1, 0], dtype=torch.uint8)]", "UserWarning"),
    ("torch.tensor([1 + 1j]).float()", "UserWarning"),
    ("x = torch.tensor([-1.], requires_grad=True)\nwith torch.autograd.detect_anomaly():\n"
     "    y = x.sqrt()\n    try:\n        y.backward()\n    except RuntimeError as e:\n"
     "        print(e)", "UserWarning"),
    ("x = torch.tensor([-1.], requires_grad=True)\ny = x.sqrt()\n"
     "with torch.autograd.detect_anomaly():\n    try:\n        y.backward()\n"
     "    except RuntimeError as e:\n        print(e)", "UserWarning"),
    ("print(torch.is_autocast_cpu_enabled())", "DeprecationWarning"),
    ("print(torch.get_autocast_cpu_dtype())", "DeprecationWarning"),
    ("torch.set_default_tensor_type(torch.DoubleTensor)", "UserWarning"),
    ("torch.set_float32_matmul_precision('bogus')", "UserWarning"),
    ("import torch.nn as nn\nnn.LSTM(3, 4, proj_size=2)(torch.ones(2, 3))", "UserWarning"),
    ("import torch.nn as nn\nlayer = nn.TransformerEncoderLayer(4, 2, batch_first=True)\n"
     "encoder = nn.TransformerEncoder(layer, 1).eval()\nsrc = torch.ones(2, 3, 4)\n"
     "mask = torch.tensor([[False, False, True], [False, True, True]])\n"
     "with torch.no_grad():\n    print(encoder(src, src_key_padding_mask=mask).shape)",
     "UserWarning"),
    # raised by torch's Python (or NumPy's, or the program's): no such ending
    ("torch.tensor(torch.ones(2))", "UserWarning"),
    ("torch.ones(2).new_tensor(torch.ones(2))", "UserWarning"),
    ("torch.range(0, 2)", "UserWarning"),
    (NN + "F.upsample_nearest(torch.ones(1, 1, 2, 2), scale_factor=2)", "UserWarning"),
    (NN + "F.gumbel_softmax(torch.ones(2), eps=1e-3)", "UserWarning"),
    (NN + "F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2))", "UserWarning"),
    (NN + "F.affine_grid(torch.eye(2, 3).unsqueeze(0), (1, 1, 2, 2))", "UserWarning"),
    (NN + "F.affine_grid(torch.eye(2, 3).unsqueeze(0), (1, 1, 1, 1), align_corners=True)",
     "UserWarning"),
    (NN + "F.softmin(torch.ones(2, 2))", "UserWarning"),
    (NN + "F.softmax(torch.ones(2, 2))", "UserWarning"),
    (NN + "F.dropout2d(torch.ones(2, 2))", "UserWarning"),
    (NN + "F.dropout2d(torch.ones(1, 2, 2))", "UserWarning"),
    (NN + "F.kl_div(torch.ones(2), torch.ones(2))", "UserWarning"),
    (NN + "F.mse_loss(torch.ones(2, 1), torch.ones(2))", "UserWarning"),
    (NN + "nn.MSELoss(size_average=False)", "UserWarning"),
    (NN + "F.embedding_bag(torch.ones(3, 2), torch.tensor([[0, 1]]))", "UserWarning"),
    (NN + "nn.Linear(0, 2)", "UserWarning"),
    (NN + "nn.init.kaiming_normal_(torch.empty(0, 2))", "UserWarning"),
    (NN + "nn.init.trunc_normal_(torch.empty(2), mean=5.)", "UserWarning"),
    (NN + "nn.init.normal(torch.empty(2))", "FutureWarning"),
    (NN + LEAF + "nn.utils.clip_grad_norm([p], 1.0)", "FutureWarning"),
    (NN + "nn.utils.weight_norm(nn.Linear(2, 2))", "FutureWarning"),
    (NN + "nn.InstanceNorm1d(3)(torch.ones(2, 4, 5))", "UserWarning"),
    (NN + "nn.LSTM(2, 3, dropout=0.5)", "UserWarning"),
    ("torch.autograd.Variable(torch.ones(1), volatile=True)", "UserWarning"),
    ("import warnings\nwarnings.warn('careful')", "UserWarning"),
    (NN + LEAF + "torch.optim.SGD([p, p], lr=0.1)", "UserWarning"),
    ("torch.autograd.gradcheck(lambda x: x * 2, (torch.ones(2, requires_grad=True),))",
     "UserWarning"),
    ("class Fn(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
     "        ctx.set_materialize_grads(False)\n        return x * 2\n    @staticmethod\n"
     "    def backward(ctx, g):\n        if g is None:\n            raise RuntimeError('none')\n"
     "        return g * 2\nx = torch.ones(2, dtype=torch.double, requires_grad=True)\ntry:\n"
     "    torch.autograd.gradcheck(Fn.apply, (x,))\nexcept Exception as e:\n"
     "    print(type(e).__name__, e)", "UserWarning"),
    ("from torch.func import rearrange\nprint(rearrange(torch.ones(2, 3), 'a class -> class a'))",
     "RuntimeWarning"),
    ("torch.distributions.Normal(0., 1.).sample_n(2)", "FutureWarning"),
    ("torch.cuda.amp.GradScaler()", "UserWarning"),
    ("torch.cpu.amp.GradScaler()", "FutureWarning"),
    ("with torch.autocast('cuda'):\n    pass", "UserWarning"),
    ("with torch.autocast('cpu', dtype=torch.float64):\n    pass", "UserWarning"),
    ("with torch.cpu.amp.autocast():\n    pass", "FutureWarning"),
    ("with torch.cuda.amp.autocast():\n    pass", "FutureWarning"),
    ("from torch.nn.functional import handle_torch_function\nclass A:\n"
     "    def __torch_function__(self, func, types, args=(), kwargs=None):\n        return 1\n"
     "def f(a):\n    return handle_torch_function(f, (a,), a)\nprint(f(A()))",
     "DeprecationWarning"),
    (NP + "np.array(torch.ones(2), copy=False)", "DeprecationWarning"),
    (NP + "print(np.sin(torch.ones(2)))", "DeprecationWarning"),
    ("import torch.utils.data as data\nprint(data.random_split(range(2), [1.0, 0.0]))",
     "UserWarning"),
    ("class Fn(torch.autograd.Function):\n    def forward(self, x):\n        return x\nFn()",
     "DeprecationWarning"),
    (NN + "import torch.utils.checkpoint as cp\ncp.checkpoint(lambda a: a * 2, torch.ones(2), "
     "use_reentrant=True)", "UserWarning"),
    (NN + "import torch.utils.checkpoint as cp\n" + X + "cp.checkpoint(lambda a: a * 2, x)",
     "UserWarning"),
    ("torch.testing.assert_allclose(torch.ones(1), torch.ones(1))", "FutureWarning"),
    ("torch.testing.make_tensor(2, dtype=torch.float32, device='cpu', low=1, high=1)",
     "FutureWarning"),
    ("import functorch\nfunctorch.grad(torch.sin)(torch.tensor(1.))", "FutureWarning"),
    (NN + "torch.nn.utils.stateless.functional_call(nn.Linear(2, 2), {}, (torch.ones(2),))",
     "FutureWarning"),
    ("with torch.autograd.detect_anomaly():\n    pass", "UserWarning"),
    (OPT + "s = torch.optim.lr_scheduler.StepLR(opt, 1)\ns.step()", "UserWarning"),
    (OPT + "s = torch.optim.lr_scheduler.StepLR(opt, 1)\nopt.step()\ns.step(1)", "UserWarning"),
    (OPT + "s = torch.optim.lr_scheduler.StepLR(opt, 1)\nprint(s.get_lr())", "UserWarning"),
    (OPT + "s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)\nopt.step()\ns.step(1., 1)",
     "UserWarning"),
    (NN + "layer = nn.TransformerEncoderLayer(4, 2, norm_first=True)\n"
     "nn.TransformerEncoder(layer, 1)", "UserWarning"),
    ("torch.ones(2).storage()", "UserWarning"),
    (NN + "m = nn.MultiheadAttention(4, 2, batch_first=True)\nq = torch.ones(1, 2, 4)\n"
     "m(q, q, q, key_padding_mask=torch.tensor([[False, True]]), "
     "attn_mask=torch.zeros(2, 2))", "UserWarning"),
    (NN + "m = nn.Linear(2, 2)\nm.register_full_backward_hook(lambda *a: None)\n"
     "m(torch.ones(2)).sum().backward()", "UserWarning"),
    (NN + "m = nn.Linear(2, 2)\nm.register_backward_hook(lambda *a: None)\n"
     "(m(torch.ones(2, requires_grad=True)) * 2).sum().backward()", "FutureWarning"),
    (NP + "print(np.finfo(None))", "DeprecationWarning"),
    (NP + "print(np.log(np.zeros(1)), np.exp(np.array([1000.0])))", "RuntimeWarning"),
    (NP + "print(np.mean(np.array([])))", "RuntimeWarning"),
    (NP + "print(np.log(torch.zeros(1)))", "RuntimeWarning"),
    (NP + "x = np.float64(1.0)\nprint(x / 0, np.array([1.0]) / np.array([0.0]))", "RuntimeWarning"),
    (NP + "a = np.array([1.0, 2.0])\na /= 0\nprint(a)", "RuntimeWarning"),
    ("import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.legend()", "UserWarning"),
    ("import matplotlib.pyplot as plt\nplt.hist([1.0, 2.0], weights=[0, 0], density=True)",
     "RuntimeWarning"),
    ("torch.cuda.reset_max_memory_allocated()", "FutureWarning"),
    (NN + "nn.init.trunc_normal_(torch.empty(3), a=torch.tensor(-2.), b=2.)", "UserWarning"),
    (NP + "print(np.dot(torch.ones(2), torch.ones(2)))", "DeprecationWarning"),
    ("print(torch.cuda.memory_cached())", "FutureWarning"),
    ("print(torch.cuda.max_memory_cached())", "FutureWarning"),
    (NN + "class M(nn.Module):\n    def forward(self, x):\n        return [x * 2]\nm = M()\n"
     "m.register_full_backward_hook(lambda *a: None)\nprint(m(torch.ones(2, requires_grad=True)))",
     "UserWarning"),
    (NN + "m = nn.Linear(2, 2)\ndef boom(*a):\n    raise ValueError('hook')\n"
     "m.register_forward_hook(boom, always_call=True)\ntry:\n    m(torch.ones(3))\n"
     "except RuntimeError as e:\n    print(type(e).__name__)", "UserWarning"),
]


@pytest.mark.parametrize("source, category", CASES)
def test_warnings_read_as_torchs(source, category):
    for module in ("torch", "matplotlib" if "matplotlib" in source else "torch"):
        pytest.importorskip(module)
    expected = run_torch(source, triggered=True)["warnings"]
    assert category in [warned[0] for warned in expected], "the snippet no longer warns"
    assert run_gradcli(source, triggered=True)["warnings"] == expected, source
