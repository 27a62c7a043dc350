"""The bench's Python peers, as competent users write them: numpy with preallocated buffers, in-place
ufuncs and chunked rows; torch float64 with one thread and with all threads. A server: it reads the
data and the exact answers once, then each stdin line "<contender> <task>" (task: predict | epoch)
runs that once and prints JSON {wall, cpu, error} (seconds, and the max relative error against the
long-double reference), so the Node side can interleave every contender round by round."""
import json
import os
import sys
import time

import numpy as np

CHUNK = 256  # rows per block: 256 x 4096 doubles = 8 MiB, within the caches' reach


def numpy_predict(q, k, v, w):
    out = np.empty(q.size)
    buf = np.empty((CHUNK, k.size))
    for s in range(0, q.size, CHUNK):
        t = min(s + CHUNK, q.size)
        b = buf[: t - s]
        np.subtract(q[s:t, None], k[None, :], out=b)
        np.multiply(b, w, out=b)
        np.square(b, out=b)
        np.multiply(b, -0.5, out=b)
        np.subtract(b, b.max(axis=1, keepdims=True), out=b)
        np.exp(b, out=b)
        np.divide(b @ v, b.sum(axis=1), out=out[s:t])
    return out


def numpy_epoch(x, y, w):
    n = x.size
    d2buf = np.empty((CHUNK, n))
    ebuf = np.empty((CHUNK, n))
    loss = 0.0
    grad = 0.0
    for s in range(0, n, CHUNK):
        t = min(s + CHUNK, n)
        d2 = d2buf[: t - s]
        e = ebuf[: t - s]
        np.subtract(x[s:t, None], x[None, :], out=d2)
        np.square(d2, out=d2)
        np.multiply(d2, -0.5 * w * w, out=e)
        e[np.arange(t - s), np.arange(s, t)] = -np.inf  # leave one out
        np.subtract(e, e.max(axis=1, keepdims=True), out=e)
        np.exp(e, out=e)
        z = e.sum(axis=1)
        f = (e @ y) / z
        np.multiply(e, d2, out=e)
        dfdw = -w * ((e @ y) / z - f * e.sum(axis=1) / z)
        r = f - y[s:t]
        loss += float(r @ r)
        grad += float(2 * (r @ dfdw))
    return loss, grad


def torch_tasks(torch):
    def predict(q, k, v, w):
        s = (q[:, None] - k[None, :]).mul_(w).square_().mul_(-0.5)
        return torch.softmax(s, dim=1) @ v

    def epoch(x, y, w):
        d2 = (x[:, None] - x[None, :]).square_()
        s = d2 * (-0.5 * w * w)
        s.fill_diagonal_(-float("inf"))
        a = torch.softmax(s, dim=1)
        f = a @ y
        ad2 = a.mul_(d2)
        dfdw = -w * (ad2 @ y - f * ad2.sum(dim=1))
        r = f - y
        return float(r @ r), float(2 * (r @ dfdw))

    return predict, epoch


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    packed = np.fromfile(path, dtype="<f8")
    x_train, y_train, x_test = packed[:n], packed[n : 2 * n], packed[2 * n : 3 * n]
    exact_predictions = packed[3 * n : 4 * n]
    exact_loss, exact_grad, w = packed[4 * n], packed[4 * n + 1], packed[4 * n + 2]

    contenders = {"numpy": (numpy_predict, numpy_epoch, lambda a: a, lambda r: r, None)}
    try:
        import torch

        predict, epoch = torch_tasks(torch)
        as_tensor = lambda a: torch.from_numpy(a)  # noqa: E731 (float64, shared memory)
        for name, threads in (("torch1", 1), ("torchN", os.cpu_count())):
            contenders[name] = (predict, epoch, as_tensor, lambda r: r.numpy() if hasattr(r, "numpy") else r, threads)
    except ImportError:
        pass
    print(json.dumps({"contenders": list(contenders)}), flush=True)

    for line in sys.stdin:
        name, task = line.split()
        predict, epoch, convert, back, threads = contenders[name]
        if threads is not None:
            import torch

            torch.set_num_threads(threads)
        args = [convert(a) for a in ((x_test, x_train, y_train) if task == "predict" else (x_train, y_train))]
        wall0, cpu0 = time.perf_counter(), time.process_time()
        result = predict(*args, w) if task == "predict" else epoch(*args, w)
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        if task == "predict":
            error = float(np.max(np.abs(back(result) - exact_predictions) / np.abs(exact_predictions)))
        else:
            error = max(abs(result[0] - exact_loss) / exact_loss, abs(result[1] - exact_grad) / abs(exact_grad))
        print(json.dumps({"wall": wall, "cpu": cpu, "error": error}), flush=True)


main()
