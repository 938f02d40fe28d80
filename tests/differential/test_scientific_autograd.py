"""Scripts as engineers and scientists write them with autograd, from blog posts, tutorials,
docs and Q&A answers: physics-informed networks (derivatives of outputs by autograd.grad with
create_graph, Laplacians, PDE residual and boundary losses, Adam and LBFGS steps), ODEs solved
by optimisation, Hamiltonian and Lagrangian networks, Newton and Gauss-Newton steps with
autograd.functional, torch.func transforms, forward-mode dual numbers, gradcheck, test-function
optimisation, simulation sensitivities, least squares with torch.linalg, and float32 against
float64 values printed to the last bit."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("scientific_autograd")
