# hessian needs a function returning a single element.
import torch
from torch.autograd.functional import hessian

print(hessian(lambda t: (t ** 2).sum(), torch.tensor([1.0, 2.0])))
print(hessian(lambda t: t ** 2, torch.tensor([1.0, 2.0])))
