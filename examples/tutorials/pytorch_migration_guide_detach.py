# From: PyTorch 0.4.0 Migration Guide, "What about .data?" (pytorch.org/blog/pytorch-0_4_0-migration-guide/); ends with torch's in-place error.
import torch

a = torch.tensor([1,2,3.], requires_grad = True)
out = a.sigmoid()
c = out.data
c.zero_()
print(out)  # out was modified by c.zero_()

out.sum().backward()  # Requires the original value of out, but that was overwritten by c.zero_()
print(a.grad)  # The result is very, very wrong because `out` changed!

a = torch.tensor([1,2,3.], requires_grad = True)
out = a.sigmoid()
c = out.detach()
c.zero_()
print(out)  # modified by c.zero_() !!

out.sum().backward()  # Requires the original value of out, but that was overwritten by c.zero_()
