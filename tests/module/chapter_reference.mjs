// The chapter's PyTorch training loop re-implemented in float64 JavaScript, with the gradient taken by
// forward-mode dual numbers (value + derivative along w), so it shares no derivation with the C++ core:
//   keys/values = every training point but the query's own (the masked tiles of X and Y)
//   weights = softmax(-((queries - keys) * w)^2 / 2, dim=1); y_hat = bmm(weights, values)
//   l = MSELoss(reduction='none'); l.sum().backward(); SGD(lr).step(); loss printed = l.sum() before the step
// With { halved: true } it is the chapter's MXNet listing (l = gluon.loss.L2Loss()(...), that is
// (y_hat - y)^2 / 2; l.backward(); trainer.step(1)) and its PyTorch listing of mid-2021
// (l = loss(...) / 2; l.sum().backward()): every squared error is halved before the sum.

const dual = (v, d = 0) => ({ v, d });
const add = (a, b) => dual(a.v + b.v, a.d + b.d);
const sub = (a, b) => dual(a.v - b.v, a.d - b.d);
const mul = (a, b) => dual(a.v * b.v, a.d * b.v + a.v * b.d);
const div = (a, b) => dual(a.v / b.v, (a.d * b.v - a.v * b.d) / (b.v * b.v));
const exp = (a) => dual(Math.exp(a.v), Math.exp(a.v) * a.d);

// torch.softmax subtracts the row maximum (a constant for autograd) before exponentiating.
function softmax(row) {
  const max = Math.max(...row.map((s) => s.v));
  const e = row.map((s) => exp(sub(s, dual(max))));
  const total = e.reduce(add, dual(0));
  return e.map((x) => div(x, total));
}

function lossAndGradient(xTrain, yTrain, wValue, halved) {
  const w = dual(wValue, 1);
  let total = dual(0);
  for (let j = 0; j < xTrain.length; j++) {
    const scores = [];
    const values = [];
    for (let i = 0; i < xTrain.length; i++) {
      if (i === j) continue;
      const t = mul(dual(xTrain[j] - xTrain[i]), w);
      scores.push(div(mul(dual(-1), mul(t, t)), dual(2)));
      values.push(dual(yTrain[i]));
    }
    const weights = softmax(scores);
    const yHat = weights.reduce((acc, a, i) => add(acc, mul(a, values[i])), dual(0));
    const r = sub(yHat, dual(yTrain[j]));
    const squared = mul(r, r);
    total = add(total, halved ? div(squared, dual(2)) : squared);
  }
  return { loss: total.v, grad: total.d };
}

// Returns the per-epoch losses (before each step) and the final w.
export function chapterTraining(xTrain, yTrain, w0, lr, epochs, { halved = false } = {}) {
  let w = w0;
  const losses = [];
  for (let epoch = 0; epoch < epochs; epoch++) {
    const { loss, grad } = lossAndGradient(xTrain, yTrain, w, halved);
    losses.push(loss);
    w -= lr * grad;
  }
  return { losses, w };
}
