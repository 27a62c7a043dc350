"""The bench's PyTorch peer for an additive-attention epoch (bench/scoring.mjs): float64, one thread,
written as a competent PyTorch user writes it (one (n, n, h) tensor of features, autograd, torch.optim
.Adam). Reads the data and the start from the JSON file given; then each stdin line "epoch" runs one
epoch from that start (forward, backward, step) and prints JSON {wall, loss} (seconds, the loss before
the step)."""
import json
import sys
import time

import torch

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)
given = json.load(open(sys.argv[1]))
x = torch.tensor(given['xTrain'])
y = torch.tensor(given['yTrain'])
n = x.shape[0]
mask = torch.eye(n, dtype=torch.bool)


def epoch():
    p = {name: torch.tensor(values, requires_grad=True) for name, values in given['parameters'].items()}
    optimizer = torch.optim.Adam(p.values(), lr=given['lr'])
    started = time.perf_counter()
    optimizer.zero_grad()
    features = torch.tanh(x.reshape(n, 1, 1) * p['wq'] + x.reshape(1, n, 1) * p['wk'] + p['b'])
    scores = (features @ p['v']).masked_fill(mask, float('-inf'))
    f = (torch.softmax(scores, dim=1) * y.reshape(1, n)).sum(dim=1)
    loss = ((f - y) ** 2).sum()
    loss.backward()
    optimizer.step()
    return {'wall': time.perf_counter() - started, 'loss': loss.item()}


print(json.dumps({'torch': torch.__version__}), flush=True)
for line in sys.stdin:
    if line.strip() == 'epoch':
        print(json.dumps(epoch()), flush=True)
