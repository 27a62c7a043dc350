"""The float64 PyTorch transcription of the module's scoring functions and training (issue 30).

Reads scoring_inputs.json (written by scoring_inputs.mjs) and writes scoring_torch.json: for each run,
the loss and the gradient before each epoch's step and the parameters after it, by autograd and
torch.optim (SGD, Adam with its defaults). Run by scripts/torch_reference.sh where python3-torch is
installed; the module's tests compare against the numbers it wrote.
"""
import json
import pathlib

import torch

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)
HERE = pathlib.Path(__file__).parent
FIELDS = {'gaussian': ['w'], 'dotProduct': ['s'], 'additive': ['wq', 'wk', 'b', 'v']}


def scores(scoring, p, q, k):
    """a(q, k) for every query (rows) and key (columns), as the book writes each scoring function."""
    if scoring == 'gaussian':
        return -((q - k) * p['w']) ** 2 / 2
    if scoring == 'dotProduct':
        return p['s'] * q * k
    # additive: v . tanh(W_q q + W_k k + b), one hidden layer of h units
    features = torch.tanh(q.unsqueeze(-1) * p['wq'] + k.unsqueeze(-1) * p['wk'] + p['b'])
    return features @ p['v']


def loo_loss(run, p, x, y):
    n = x.shape[0]
    a = scores(run['scoring'], p, x.reshape(n, 1), x.reshape(1, n))
    if run['leaveOneOut']:
        a = a.masked_fill(torch.eye(n, dtype=torch.bool), float('-inf'))
    f = (torch.softmax(a, dim=1) * y.reshape(1, n)).sum(dim=1)
    loss = ((f - y) ** 2).sum()
    return loss / 2 if run['loss'] == 'halfSquared' else loss


def train(run):
    x = torch.tensor(run['xTrain'])
    y = torch.tensor(run['yTrain'])
    p = {name: torch.tensor(run['parameters'][name], dtype=torch.float64, requires_grad=True) for name in FIELDS[run['scoring']]}
    optimizer = (torch.optim.Adam if run['optimizer'] == 'adam' else torch.optim.SGD)(p.values(), lr=run['lr'])
    epochs = []
    for _ in range(run['epochs']):
        optimizer.zero_grad()
        loss = loo_loss(run, p, x, y)
        loss.backward()
        grad = {name: value.grad.tolist() for name, value in p.items()}
        optimizer.step()
        epochs.append({'loss': loss.item(), 'grad': grad, 'parameters': {name: value.tolist() for name, value in p.items()}})
    return {key: run[key] for key in ('seed', 'scoring', 'optimizer', 'lr', 'loss', 'leaveOneOut')} | {'torch': torch.__version__, 'epochs': epochs}


runs = json.loads((HERE / 'scoring_inputs.json').read_text())
(HERE / 'scoring_torch.json').write_text(json.dumps([train(run) for run in runs]) + '\n')
