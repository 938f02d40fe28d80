#!/usr/bin/env bash
# Checks hand-derived derivatives of common activation functions against autograd at 200 random
# points each, or the "FUNCTION|DERIVATIVE" pairs given as arguments instead. The first wrong
# derivative stops the run with gradcli's worst points on stderr and check's exit code (1).
#
#   examples/shell/check_activations.sh
#   examples/shell/check_activations.sh 'tanh(x)|1 - tanh(x)**2' 'tanh(x)|1 - tanh(x)'  # fails
set -u

pairs=("$@")
[ "$#" -gt 0 ] || pairs=(
    "sigmoid(x)|sigmoid(x) * (1 - sigmoid(x))"
    "tanh(x)|1 - tanh(x)**2"
    "softplus(x)|sigmoid(x)"
    "x * sigmoid(x)|sigmoid(x) * (1 + x * (1 - sigmoid(x)))"
    "x / (1 + abs(x))|1 / (1 + abs(x))**2"
    "log(1 + exp(x))|exp(x) / (1 + exp(x))"
)

for pair in "${pairs[@]}"; do
    function=${pair%%|*}
    derivative=${pair#*|}
    report=$(gradcli check "$function" --expect "x: $derivative" --range x=-4:4 --samples 200)
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL  d/dx $function = $derivative" >&2
        echo "$report" >&2
        exit "$status"
    fi
    echo "ok    d/dx $function = $derivative"
done
