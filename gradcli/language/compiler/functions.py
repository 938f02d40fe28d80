"""`def` and `lambda`: parameters with Python's checks, a scope, and the UserFunction maker."""

from __future__ import annotations

from gradcli.engine.records import field, record

from gradcli.language.syntax.lark_standalone import Tree

from gradcli.language.syntax.parser import GradSyntaxError
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.compiler.scopes import function_scope


@record
class Signature:
    """A function's parameters as compiled: positional names, default closures, *args, **kw."""

    names: list = field(default_factory=list)
    params: tuple = ()
    defaults: dict = field(default_factory=dict)
    star: str | None = None
    star_star: str | None = None
    kwonly: list = field(default_factory=list)
    posonly: int = 0  # how many leading parameters come before `/`
    annotations: list = field(default_factory=list)  # (name, closure) in Python's order


def compile_function(compiler, fname: str, params, body, returns=None):
    """A closure making the UserFunction of a def (`body`: statements, `returns`: its `->`
    annotation) or lambda (a tree)."""
    signature = compile_parameters(compiler, params, annotated=isinstance(body, list))
    if returns is not None:
        signature.annotations.append(("return", compiler.expression(returns)))
    outer, loops = compiler.scope, compiler.loops
    qualname = outer.child_qualname(fname)
    statements = body if isinstance(body, list) else [body]
    compiler.scope = function_scope(outer, qualname, signature.names, statements)
    generator = compiler.scope.generator
    compiler.loops = 0
    try:
        if isinstance(body, list):
            block, runtime = compiler.statements(body), compiler.runtime

            def run_body(frame):
                line = runtime.line  # the caller's line is the one running again after the call
                try:
                    signal = block(frame)
                finally:
                    runtime.line = line
                return signal.value if signal is not None else None
        else:
            run_body = _on_line(compiler.expression(body), compiler.runtime, _line(body))
        freevars = compiler.scope.freevars()
    finally:
        compiler.scope, compiler.loops = outer, loops
    defaults, doc = signature.defaults, docstring(body) if isinstance(body, list) else None

    annotations = signature.annotations

    def make(frame):  # defaults, then annotations, evaluated as the def runs (Python 3.11)
        values = {k: d(frame) for k, d in defaults.items()}
        return UserFunction(fname, qualname, signature.params, values, run_body, frame,
                            signature.star, signature.star_star, tuple(signature.kwonly),
                            generator, signature.posonly, doc=doc,
                            annotations={k: a(frame) for k, a in annotations},
                            freevars=freevars)
    return make


def _line(tree) -> int | None:
    """The first line of a lambda's body, a tree or a token."""
    meta = getattr(tree, "meta", None)
    return getattr(meta, "line", None) if meta is not None else getattr(tree, "line", None)


def _on_line(evaluate, runtime, line):
    """A lambda's body run on its own line (where a warning it raises is reported), the
    caller's line restored after."""
    if line is None:
        return evaluate

    def run_body(frame):
        caller = runtime.line
        runtime.line = line
        try:
            return evaluate(frame)
        finally:
            runtime.line = caller
    return run_body


def docstring(body: list):
    """The docstring of a def or class body: its first statement, when a plain string literal."""
    from gradcli.language.syntax.literals import string
    first = next((t for t in body if isinstance(t, Tree)), None)
    while first is not None and first.data in ("simple_stmt", "suite") and first.children:
        first = first.children[0] if isinstance(first.children[0], Tree) else None
    if first is None or first.data != "expr_stmt" or not isinstance(first.children[0], Tree) \
            or first.children[0].data != "string":
        return None
    try:
        pieces = [string(token.value) for token in first.children[0].children]
    except ValueError:
        return None
    return "".join(pieces) if all(isinstance(p, str) for p in pieces) else None


def compile_parameters(compiler, params, annotated: bool = False) -> Signature:
    """The parameters of a def or lambda; defaults (and a def's annotations, `annotated`)
    compiled in the enclosing scope."""
    signature, bare_star = Signature(), None
    for param in params.children if params is not None else []:
        if not isinstance(param, Tree):
            continue
        if param.data == "slash":
            if signature.posonly or signature.star is not None or bare_star is not None \
                    or not signature.names:
                message = ("/ may appear only once" if signature.posonly else
                           "/ must be ahead of *" if signature.names else
                           "at least one argument must precede /")
                raise GradSyntaxError(message, param.meta.line, param.meta.column,
                                      param.meta.column + 1)
            signature.posonly = len(signature.names)
            continue
        if param.data == "bare_star":
            if signature.star is not None or bare_star is not None:
                raise GradSyntaxError("* argument may appear only once", param.meta.line,
                                      param.meta.column, param.meta.column + 1)
            bare_star = param
            continue
        token, stars = param.children[0], {"star_parameter": 1,
                                           "star_star_parameter": 2}.get(param.data, 0)
        name = compiler.check_name(token)
        where = (token.line, token.column - stars,
                 token.column - stars + (stars or len(name)))
        if signature.star_star is not None:
            raise GradSyntaxError("arguments cannot follow var-keyword argument", *where)
        if stars == 1 and (signature.star is not None or bare_star is not None):
            raise GradSyntaxError("* argument may appear only once", where[0], where[1],
                                  where[1] + 1)
        if name in signature.names:
            raise GradSyntaxError(f"duplicate argument '{name}' in function definition",
                                  token.line, token.column, token.column + len(name))
        signature.names.append(name)
        if annotated and param.children[1] is not None:
            signature.annotations.append((name, compiler.expression(param.children[1])))
        default = param.children[-1] if stars == 0 and len(param.children) > 1 else None
        if stars == 1:
            signature.star = name
        elif stars == 2:
            signature.star_star = name
        elif signature.star is not None or bare_star is not None:
            signature.kwonly.append(name)  # keyword-only: a default is optional
            if default is not None:
                signature.defaults[name] = compiler.expression(default)
        elif default is not None:
            signature.defaults[name] = compiler.expression(default)
        elif signature.defaults:
            raise GradSyntaxError("non-default argument follows default argument",
                                  token.line, token.column, token.column + len(name))
    if bare_star is not None and not signature.kwonly:
        raise GradSyntaxError("named arguments must follow bare *", bare_star.meta.line,
                              bare_star.meta.column, bare_star.meta.column + 1)
    signature.params = tuple(n for n in signature.names if n not in (
        signature.star, signature.star_star, *signature.kwonly))
    return signature
