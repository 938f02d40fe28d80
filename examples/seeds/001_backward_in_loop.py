# Seed 001_020a62d3d9668c4c ("Introduction to PyTorch Backward"), "Backward function in PyTorch":
# squares of single entries, each backpropagated, accumulate into X.grad.
# The page flattened the indentation; the loop bodies are restored with print after both loops.
import torch
X = torch.tensor([[2,4,6],[2,7,9],[2,4,5]], dtype=torch.float, requires_grad=True)
for i in range(2):
    for j in range(3):
        output = X[i,j] * X[i,j]
        output.backward()
print(X.grad)
