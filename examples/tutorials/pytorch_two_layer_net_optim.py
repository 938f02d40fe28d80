# From: PyTorch tutorial "Learning PyTorch with Examples" (0.4 edition), PyTorch: optim, two_layer_net_optim.py (Adam); seeded, 100 steps.
import torch

torch.manual_seed(0)

N, D_in, H, D_out = 64, 1000, 100, 10

x = torch.randn(N, D_in)
y = torch.randn(N, D_out)

model = torch.nn.Sequential(
    torch.nn.Linear(D_in, H),
    torch.nn.ReLU(),
    torch.nn.Linear(H, D_out),
)
loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-4
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
for t in range(100):
    y_pred = model(x)

    loss = loss_fn(y_pred, y)
    if t % 10 == 9:
        print(t, loss.item())

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model)
