"""Programs whose nn.Module subclasses override the methods nn.Module's own code calls:
pytorch's test_load_state_dict.py (custom _save_to_state_dict/_load_from_state_dict, unexpected
keys) and test_nn.py (get_extra_state/set_extra_state), torchvision's FrozenBatchNorm2d,
torch.ao's quantized Linear (extra keys, strict=False), a `_version` migration, a wrapper's
state_dict, named_parameters/parameters/named_children/children/named_modules overrides seen by
parameters(), zero_grad, train, apply and modules(), vars(module), and torchmeta's
MetaModule._named_members."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("module_overrides")
