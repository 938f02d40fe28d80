# Linear regression with nn.Linear and SGD, then the usual matplotlib loss curve and fit plot.
# `gradcli run` prints what python prints and notes the figures on stderr;
# `gradcli run --plots plots examples/tutorials/plot_loss_curve.py` writes them as SVG files.
import torch
import matplotlib.pyplot as plt

torch.manual_seed(0)
X = torch.linspace(-1, 1, 50).reshape(-1, 1)
y = 2 * X + 1 + 0.2 * torch.randn(50, 1)

model = torch.nn.Linear(1, 1)
criterion = torch.nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

losses = []
for epoch in range(100):
    optimizer.zero_grad()
    loss = criterion(model(X), y)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if epoch % 20 == 0:
        print(f'epoch {epoch:3d}  loss {loss.item():.4f}')

print(f'weight {model.weight.item():.4f}, bias {model.bias.item():.4f}')

fig, (ax_loss, ax_fit) = plt.subplots(1, 2, figsize=(10, 4))
ax_loss.plot(losses, label='training loss')
ax_loss.set_xlabel('epoch')
ax_loss.set_ylabel('MSE')
ax_loss.set_yscale('log')
ax_loss.set_title('Loss curve')
ax_loss.legend()
ax_loss.grid(True)

with torch.no_grad():
    predicted = model(X)
ax_fit.scatter(X.numpy(), y.numpy(), s=12, alpha=0.6, label='data')
ax_fit.plot(X.numpy(), predicted.numpy(), 'r-', linewidth=2, label='fit')
ax_fit.set_xlabel('x')
ax_fit.set_ylabel('y')
ax_fit.set_title('Fitted line')
ax_fit.legend()
plt.tight_layout()
plt.show()

plt.figure()
counts, edges, _ = plt.hist((predicted - y).squeeze().numpy(), bins=5, color='gray')
plt.title('Residuals')
print('residual counts:', counts)
