#!/usr/bin/env bash
# Rewrites the PyTorch reference of the scoring functions (tests/reference/scoring_torch.json) where
# Debian's python3-torch is installed: the module writes the inputs (data and seeded starts), PyTorch
# (float64, autograd, torch.optim) the losses, gradients and parameters of 20 epochs. Review the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
test -f dist/nw.js || { echo "torch_reference: build first (npm run build)" >&2; exit 1; }
/usr/bin/python3 -c 'import torch' 2>/dev/null || { echo "torch_reference: needs python3-torch (apt-get install python3-torch)" >&2; exit 1; }
node tests/reference/scoring_inputs.mjs
/usr/bin/python3 tests/reference/scoring_torch.py
echo "torch_reference: wrote tests/reference/scoring_inputs.json and scoring_torch.json"
