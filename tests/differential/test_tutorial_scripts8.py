"""Whole small training scripts from beginner and intermediate PyTorch tutorials and blogs:
machinelearningmastery's logistic regression, developpaper's polynomial regression, James
McCaffrey's sin(x) polynomial run from main(), a discuss.pytorch.org polynomial fit, pkuwwt's
linear model, oneoffcoder's, compilenrun's, cosmiclearn's and iifx's early stopping, d2l's
read-write slides, furquanh's, theneuralbase's, kodekloud's and interviewbite's checkpoints in
io.BytesIO, scheduler notebooks and pages (adi-kgp, Han6edMan, rohit.vision, androidkt,
ReduceLROnPlateau's docs, scalation), weight-initialisation posts (binarystudy, iopenv,
vishnuas22, mathisimple), two-moons and circle classifiers (artintellica, book-ai,
astarryknight, Code-the-Dream-School), MLP scripts with train/evaluate helpers (mpact,
mjandrews, nmadali16), custom Datasets and collate functions (botmartz, techacademy), a frozen
network with one trained bias (prodsens), PeakGe's state_dict tour, hasty's ExponentialLR with
AdamW, iodraw's init functions, and logistic/softmax regressions (deeplearningwizard, avivr,
katrina.dotzlaw)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tutorial_scripts8")
