"""What the derivative commands (grad, explain, jacobian, hessian, check) compute, apart from
their option parsing: the typer app calls it with the options given, and the entry's fast path
with none (`gradcli grad EXPR NAME=VALUE...` starts without loading typer)."""

from __future__ import annotations

from gradcli.cli.runner import EXIT_NO, EXIT_OK, EXIT_TROUBLE

STATUS_EXIT = {"ok": EXIT_OK, "mismatch": EXIT_NO, "error": EXIT_TROUBLE}
CHECK_SAMPLES = 1  # random points per --range
CHECK_SEED = 0  # seed of numpy's default_rng for the points


def answer(command: str, expr: str, work, as_json: bool = False, quiet: bool = False) -> int:
    """Run a derivative command's `work(source)`; the exit code of its status."""
    from gradcli.cli.answers import execute
    from gradcli.cli.bindings import read_expression
    source = read_expression(expr)
    status = execute(command, source.text, lambda: work(source), as_json=as_json, quiet=quiet)
    return STATUS_EXIT[status]


def problem(source, bindings, wrt: str | None = None, dtype: str | None = None):
    from gradcli.cli import bindings as binding_args
    return binding_args.build_problem(source, bindings or [], wrt=wrt,
                                      dtype=binding_args.parse_dtype(dtype))


def _backward_from(gradient: str | None):
    from gradcli.cli.bindings import Source
    return None if gradient is None else Source(gradient, "<--gradient>")


def grad_work(bindings, wrt=None, dtype=None, gradient=None):
    from gradcli.cli import derivatives
    return lambda source: derivatives.grad(problem(source, bindings, wrt, dtype),
                                           _backward_from(gradient))


def explain_work(bindings, wrt=None, dtype=None, gradient=None):
    from gradcli.cli import derivatives
    return lambda source: derivatives.explain(problem(source, bindings, wrt, dtype),
                                              _backward_from(gradient))


def jacobian_work(bindings, wrt=None, dtype=None):
    from gradcli.cli import derivatives
    return lambda source: derivatives.jacobian(problem(source, bindings, wrt, dtype))


def hessian_work(bindings, wrt=None, dtype=None):
    from gradcli.cli import derivatives
    return lambda source: derivatives.hessian(problem(source, bindings, wrt, dtype))


def check_work(bindings, wrt=None, expect=None, range_=None, samples=CHECK_SAMPLES,
               seed=CHECK_SEED, eps=None, atol=None, rtol=None, jobs=None):
    """Autograd against finite differences (and --expect formulas) in float64."""
    from gradcli.cli import bindings as binding_args, derivatives, parallel
    from gradcli.engine import dtypes

    def work(source):
        given = {name: binding_args.bounded(f"--{name}", value, zero=name != "eps")
                 for name, value in (("eps", eps), ("atol", atol), ("rtol", rtol))}
        binding_args.bounded("--seed", seed, zero=True)
        ranges = [binding_args.parse_range(text) for text in range_ or []]
        formulas = {}
        for text in expect or []:
            name, formula = binding_args.split_pair(text, ":", "--expect 'NAME: EXPR'")
            formulas[name] = binding_args.Source(formula, f"<--expect {name}>")
        checked = binding_args.build_problem(source, bindings or [], wrt=wrt,
                                             dtype=dtypes.float64, default=dtypes.float64,
                                             extra={name: 0.0 for name, _, _ in ranges})
        if jobs is not None and jobs < 1:
            raise binding_args.UsageError("--jobs: give a positive count of processes")
        return derivatives.check(checked, given, formulas, ranges, samples, seed,
                                 parallel.default_jobs() if jobs is None else jobs)
    return work


# each command's work with no option given, from its NAME=VALUE bindings
PLAIN = {"grad": grad_work, "explain": explain_work, "jacobian": jacobian_work,
         "hessian": hessian_work, "check": check_work}
