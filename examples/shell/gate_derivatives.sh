#!/usr/bin/env bash
# A CI gate over a file of hand-derived derivatives, one per line:
#     EXPR ; NAME: DERIVATIVE ; NAME=LO:HI
# Reads gate_derivatives.txt beside this script unless a file is given. Uses check's exit codes as
# grep's: 0 all derivatives right, 1 some derivative is wrong, 2 some line could not be checked.
set -u

file=${1:-"$(dirname "$0")/gate_derivatives.txt"}
worst=0
while IFS=';' read -r expr expect range; do
    case "$expr" in ''|'#'*) continue ;; esac
    gradcli check "$expr" --expect "$expect" --range "${range// /}" --samples 100 -q
    status=$?
    case $status in
        0) echo "right  $expr  ->$expect" ;;
        1) echo "WRONG  $expr  ->$expect" ;;
        *) echo "BROKEN $expr  ->$expect (exit $status)" ;;
    esac
    [ "$status" -gt "$worst" ] && worst=$status
done < "$file"
exit "$worst"
