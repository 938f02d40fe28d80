# From: PyTorch docs torch.func.grad, torch.func.vmap, torch.func.jacrev, torch.func.jacfwd, torch.func.hessian, torch.func.jvp examples (pytorch.org/docs/stable/func.api.html); seeded, asserts printed, results that require grad printed detached.
import torch
from torch.func import grad, vmap, jacrev, jacfwd, hessian, jvp, vjp

torch.manual_seed(0)

x = torch.randn([])
cos_x = grad(lambda x: torch.sin(x))(x)
print(torch.allclose(cos_x, x.cos()))

# Second-order gradients
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
print(torch.allclose(neg_sin_x, -x.sin()))

# Batched gradients
batch_size, feature_size = 3, 5


def model(weights, feature_vec):
    # Very simple linear model with activation
    assert feature_vec.dim() == 1
    return feature_vec.dot(weights).relu()


def compute_loss(weights, example, target):
    y = model(weights, example)
    return ((y - target) ** 2).mean()  # MSELoss


weights = torch.randn(feature_size, requires_grad=True)
examples = torch.randn(batch_size, feature_size)
targets = torch.randn(batch_size)
inputs = (weights, examples, targets)
grad_weight_per_example = vmap(grad(compute_loss), in_dims=(None, 0, 0))(*inputs)
print(grad_weight_per_example.detach())

# argnums


def my_loss_func(y, y_pred):
    loss_per_sample = (0.5 * y_pred - y) ** 2
    loss = loss_per_sample.mean()
    return loss, (y_pred, loss_per_sample)


fn = grad(my_loss_func, argnums=(0, 1), has_aux=True)
y_true = torch.rand(4)
y_preds = torch.rand(4, requires_grad=True)
out = fn(y_true, y_preds)
print(out[0])
print(out[1][1])

# vmap: batched dot products
x, y = torch.randn(2, 5), torch.randn(2, 5)
batched_dot = torch.func.vmap(torch.dot)  # [N, D], [N, D] -> [N]
print(batched_dot(x, y))

batch_size, feature_size = 3, 5
weights = torch.randn(feature_size, requires_grad=True)


def model(feature_vec):
    # Very simple linear model with activation
    return feature_vec.dot(weights).relu()


examples = torch.randn(batch_size, feature_size)
result = torch.vmap(model)(examples)
print(result.detach())

x = torch.randn(2, 5)


def f(x):
    return x.sum(0)


batched_sum = torch.vmap(f, in_dims=1)
print(batched_sum(x))

# jacrev
x = torch.randn(5)
jacobian = jacrev(torch.sin)(x)
expected = torch.diag(torch.cos(x))
print(torch.allclose(jacobian, expected))


def f(x):
    return x.sin()


def g(x):
    result = f(x)
    return result, result


jacobian_f, f_x = jacrev(g, has_aux=True)(x)
print(torch.allclose(f_x, f(x)))

x = torch.randn(64, 5)
jacobian = vmap(jacrev(torch.sin))(x)
print(jacobian.shape)

x = torch.randn(5)
hessian_fn = jacrev(jacrev(torch.sin))(x)
print(hessian_fn.shape)


def f(x, y):
    return x + y ** 2


x, y = torch.randn(5), torch.randn(5)
jacobian = jacrev(f, argnums=1)(x, y)
expected = torch.diag(2 * y)
print(torch.allclose(jacobian, expected))

jac_x, jac_y = jacrev(f, argnums=(0, 1))(x, y)
print(torch.allclose(jac_x, torch.eye(5)), torch.allclose(jac_y, expected))

# jacfwd
x = torch.randn(5)
jacobian = jacfwd(torch.sin)(x)
expected = torch.diag(torch.cos(x))
print(torch.allclose(jacobian, expected))

# hessian


def f(x):
    return x.sin().sum()


x = torch.randn(5)
hess = hessian(f)(x)  # equivalent to jacfwd(jacrev(f))(x)
print(torch.allclose(hess, torch.diag(-x.sin())))

# jvp
x = torch.randn([])
f = lambda x: x * torch.tensor([1., 2., 3])
value, grad_ = jvp(f, (x,), (torch.tensor(1.),))
print(torch.allclose(value, f(x)))
print(torch.allclose(grad_, torch.tensor([1., 2, 3])))


def f(x, y):
    return x * y


x, y = torch.randn(5), torch.randn(5)
output, jvp_out = jvp(f, (x, y), (torch.ones(5), torch.ones(5)))
print(torch.allclose(output, f(x, y)))
print(torch.allclose(jvp_out, x + y))

# vjp
x = torch.randn([5])
f = lambda x: (x.sin(), x.cos())
(_, vjpfunc) = vjp(f, x)
vjps = vjpfunc((torch.ones([5]), torch.ones([5])))
print(torch.allclose(vjps[0], x.cos() + -x.sin()))
