"""Whole small example programs from course material, official tutorials and notes: the
RiccardoTonioloDev/ML-w-PyTorch mechanics notebook (modules keeping children under private,
mangled names), nagadomi/nunif's Model.__repr__ and victoresque/pytorch-template's
BaseModel.__str__ extending nn.Module's through super(), CS231n's gradient_check.py
(np.nditer, `from builtins import range`), DSSC 2021's MLP lab with an AverageMeter, the PyTorch
NLP tutorials' bag-of-words classifier and LSTM tagger, the double-backward custom Function
tutorial, the Legendre-polynomial Function, DynamicNet, Polynomial3, RMSprop and by-hand
polynomial fits, probabll's continuous-XOR LogitPredictor, engineers-musings' and airoads'
first training loops, and the torch docs' autograd and modules notes."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tutorial_scripts9")
