"""Whole tutorial scripts teaching autograd and training from scratch, from less-famous blogs
and course repositories: nlp-origin's and the MIT 6.S191 sandbox's hand-written gradient descent,
HypatiaAcademy's training_step, codingbyhand's and mrmaier's XOR nets, Glenn Lockwood's OR-gate
MLP, IntroHLT's logistic regression, jscommands, androidkt, devuly, Jovian's crop yields,
qudata's linear layer three ways, UROP-CNN's train.py, CBL-ML's classifier (with its nn.Relu
typo), dogdog's same-value initialisation, the Udemy bootcamp's and Jiezju's initialisers,
airoads' optimizer lab, softmax regression by hand (lexiconium, deep_notes, King-kin5,
d2l implementations), codegenes' freezing posts, technotez/mseok/mag2023 Datasets, leyaa's
gradient clipping, PostNetwork's IrisNet, apxml's DataLoader loop, dl-mcs and dl-course
logistic regression, and train/eval loops with accuracy."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tutorial_scripts7")
