# From: PyTorch tutorial "Learning PyTorch with Examples" (0.4 edition), PyTorch: Custom nn Modules, two_layer_net_module.py; seeded, 100 steps.
import torch


class TwoLayerNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        """
        In the constructor we instantiate two nn.Linear modules and assign them as
        member variables.
        """
        super(TwoLayerNet, self).__init__()
        self.linear1 = torch.nn.Linear(D_in, H)
        self.linear2 = torch.nn.Linear(H, D_out)

    def forward(self, x):
        h_relu = self.linear1(x).clamp(min=0)
        y_pred = self.linear2(h_relu)
        return y_pred


torch.manual_seed(0)
N, D_in, H, D_out = 64, 1000, 100, 10

x = torch.randn(N, D_in)
y = torch.randn(N, D_out)

model = TwoLayerNet(D_in, H, D_out)
print(model)

criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
for t in range(100):
    y_pred = model(x)

    loss = criterion(y_pred, y)
    if t % 10 == 9:
        print(t, loss.item())

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
