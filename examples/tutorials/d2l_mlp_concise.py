# From: d2l.ai "Dive into Deep Learning" (1st edition), section 4.3 Concise Implementation of Multilayer Perceptrons and 3.7 softmax regression (d2l.ai); a small synthetic 3-class data set instead of Fashion-MNIST, 5 epochs, seeded.
import torch
from torch import nn
from torch.utils import data

torch.manual_seed(0)
centers = torch.tensor([[2.0, 0.0, 0.0, 1.0], [0.0, 2.0, 1.0, 0.0], [-1.0, -1.0, 2.0, 2.0]])
labels_all = torch.randint(0, 3, (300,))
features_all = centers[labels_all] + torch.randn(300, 4)
batch_size = 16
train_iter = data.DataLoader(data.TensorDataset(features_all[:200], labels_all[:200]), batch_size, shuffle=True)
test_iter = data.DataLoader(data.TensorDataset(features_all[200:], labels_all[200:]), batch_size, shuffle=False)

net = nn.Sequential(nn.Flatten(),
                    nn.Linear(4, 8),
                    nn.ReLU(),
                    nn.Linear(8, 3))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)

lr, num_epochs = 0.1, 5
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=lr)


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def evaluate_accuracy(net, data_iter):
    net.eval()
    correct, total = 0.0, 0
    with torch.no_grad():
        for X, y in data_iter:
            correct += accuracy(net(X), y)
            total += y.numel()
    return correct / total


for epoch in range(num_epochs):
    net.train()
    total_loss, total_correct, n = 0.0, 0.0, 0
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        trainer.zero_grad()
        l.mean().backward()
        trainer.step()
        total_loss += float(l.sum())
        total_correct += accuracy(y_hat, y)
        n += y.numel()
    print(f'epoch {epoch + 1}: loss {total_loss / n:.4f}, train acc {total_correct / n:.3f}, '
          f'test acc {evaluate_accuracy(net, test_iter):.3f}')
print(net)
