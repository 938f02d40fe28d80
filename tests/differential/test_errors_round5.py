"""Round five of users' mistakes, each close to a Stack Overflow question, forum thread or
GitHub issue: inputs of the wrong rank or size for conv, recurrent and normalisation layers
(a packed LSTM's unchecked states among them), collating ragged samples, views of permuted
tensors, .numpy() of tensors that require grad, mixed dtypes in linear layers, losses' target
shapes and dtypes, optimizers', state_dict's and modules' misuse."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("errors_round5")
