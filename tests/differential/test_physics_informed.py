"""Physics-informed neural networks and scientific computing scripts from public tutorials and
repositories: harmonic-oscillator, Burgers, heat, wave and Poisson PINNs (input derivatives by
torch.autograd.grad with create_graph and ones-like grad_outputs, second derivatives, Laplacians),
Adam then L-BFGS with closures, inverse problems with learnable coefficients, Hamiltonian and
Lagrangian networks (autograd.functional jacobian and hessian), neural ODEs on hand-written RK4
steps, and torch.func's functional_call, grad, vmap, jacrev and jacfwd as PINN code uses them."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("physics_informed")
