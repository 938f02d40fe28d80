#!/usr/bin/env bash
# Six steps of Newton's method for the root of f(x) = x**2 - 2, taking f(x) and f'(x) from
# `gradcli grad --json` (float64); python3 reads the JSON. Prints each iterate and exits 1 unless
# the last one is sqrt(2) to double precision.
set -eu

x=1
for step in 1 2 3 4 5 6; do
    answer=$(gradcli grad 'x**2 - 2' x="$x" --dtype float64 --json)
    x=$(python3 -c '
import json, sys
answer = json.load(sys.stdin)
f, slope = answer["value"]["values"], answer["grads"]["x"]["values"]
print(repr(float(sys.argv[1]) - f / slope))' "$x" <<<"$answer")
    echo "step $step: x = $x"
done

python3 -c 'import math, sys; sys.exit(abs(float(sys.argv[1]) - math.sqrt(2)) > 1e-15)' "$x"
