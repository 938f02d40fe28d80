"""Snippet cases: read case files, run one snippet through gradcli or real torch, load golden records.

A case file (tests/cases/<group>.cases) holds snippets, each under a `### name` line. A snippet is
Python that also runs in gradcli; `import torch` is prepended for both. A run's record is its
stdout, its error as [kind, message] (or None) and its warnings as [category, message] pairs.
"""

from __future__ import annotations

import contextlib
import io
import json
import linecache
import os
import re
import sys
import warnings
from pathlib import Path

from golden_machine import MACHINE, read_records
from known_divergences import (LIVE_UNSTABLE, MACHINE_DIVERGENCES, MACHINE_RECORDS_DIFFER,
                               MACHINE_UNREPRODUCED, RECORDED_ON)

TESTS_DIR = Path(__file__).resolve().parent
CASES_DIR = TESTS_DIR / "cases"
GOLDEN_DIR = TESTS_DIR / "golden" / "cases"
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\.\)$")
PRELUDE = "import torch\n"


def load_cases(group: str) -> dict[str, str]:
    """name -> snippet source, in file order."""
    cases: dict[str, str] = {}
    name = None
    for line in (CASES_DIR / f"{group}.cases").read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            name = line[4:].strip()
            if name in cases:
                raise ValueError(f"duplicate case {name!r} in {group}.cases")
            cases[name] = ""
        elif name is not None:
            cases[name] += line + "\n"
    return cases


def _record(stdout: str, error, warned: list) -> dict:
    return {"stdout": ADDRESS.sub("0x?", stdout), "error": error, "warnings": warned}


def run_gradcli(source: str, *, triggered: bool = False) -> dict:
    """Run a snippet in a fresh gradcli Session; its warnings end without torch's " (Triggered
    internally at ...)" unless `triggered` keeps it."""
    from gradcli.engine.state import STATE
    from gradcli.language.session import Session
    from gradcli.language.syntax.parser import GradSyntaxError

    out, warned = io.StringIO(), []
    previous = STATE.warning_sink
    STATE.warning_sink = lambda category, message: warned.append(
        [category, message if triggered else TRIGGERED.sub("", message)])
    session = Session(write=out.write)
    session.runtime.filename, session.runtime.lines_known = SNIPPET, True  # as torch's run is
    try:
        outcome = session.run(PRELUDE + source)
    finally:
        STATE.warning_sink = previous
    error = None if outcome.error is None else [outcome.error.kind, outcome.error.message]
    if isinstance(outcome.error, GradSyntaxError):  # as str() of Python's SyntaxError reads
        error[1] += f" (<snippet>, line {outcome.error.line})"
    return _record(out.getvalue(), error, warned)


def run_torch(source: str, *, triggered: bool = False) -> dict:
    """Run a snippet as Python with real torch, in a child forked from a fresh process that has
    imported torch (tests/torch_oracle.py), so that torch's once-per-process warnings, seed and
    default dtype start fresh for every snippet, whatever the test process ran before. Its
    warnings end without the " (Triggered internally at <file>:<line>.)" torch's C++ adds (the
    golden records' form) unless `triggered` keeps it."""
    global _ORACLE
    if _ORACLE is None or _ORACLE.poll() is not None:
        _ORACLE = _start_oracle()
    requests, answers = _ORACLE.channels
    requests.write(json.dumps(source) + "\n")
    requests.flush()
    record = json.loads(answers.readline())
    if not triggered:
        record["warnings"] = [[category, TRIGGERED.sub("", message)]
                              for category, message in record["warnings"]]
    return record


_ORACLE = None


def _start_oracle():
    """The oracle process, with the ends of its request and answer pipes."""
    import subprocess
    request_read, request_write = os.pipe()
    answer_read, answer_write = os.pipe()
    oracle = subprocess.Popen([sys.executable, str(TESTS_DIR / "torch_oracle.py"),
                               str(request_read), str(answer_write)],
                              pass_fds=(request_read, answer_write))
    os.close(request_read)
    os.close(answer_write)
    oracle.channels = (os.fdopen(request_write, "w", encoding="utf-8"),
                       os.fdopen(answer_read, encoding="utf-8"))
    return oracle


def prepare_torch() -> None:
    """What every snippet's child should find done already: torch imported, forward AD's
    decompositions loaded (they warn that torch.jit.script is deprecated), drawing off screen."""
    import torch  # noqa: F401  (imported in the oracle so that each child starts at once)
    import torch.autograd.forward_ad

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.autograd.forward_ad._maybe_load_decompositions()
    os.environ.setdefault("MPLBACKEND", "Agg")  # a snippet's matplotlib draws off screen


def run_in_child(source: str) -> dict:
    """The record of `source` run in a forked child of this process."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, report, and leave without running the parent's cleanup
        os.close(read_end)
        if "compile" in source:
            _warm_compiler()
        with os.fdopen(write_end, "w", encoding="utf-8") as pipe:
            json.dump(_run_torch_here(source), pipe)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, encoding="utf-8") as pipe:
        text = pipe.read()
    os.waitpid(pid, 0)
    return json.loads(text)


def _warm_compiler() -> None:
    """torch.compile's first run imports its compiler, which warns that torch.jit.script_method
    is deprecated: run first, so that snippets see only their own warnings (in the child: it also
    patches torch for good, turning off the distributions' argument checks among others)."""
    import torch
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.compile(lambda x: x * 2)(torch.ones(2, requires_grad=True))


def close_figures() -> None:
    """Close the figures an earlier program left open in this process (figure numbers restart
    at 1, as in a new python)."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")


def _run_torch_here(source: str) -> dict:
    close_figures()
    out, error = io.StringIO(), None
    text = PRELUDE + source
    # the snippet's lines, for what reads a function's source (torch.jit.script)
    linecache.cache[SNIPPET] = (len(text), None, text.splitlines(True), SNIPPET)
    with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(compile(text, SNIPPET, "exec", dont_inherit=True), {"__name__": "__main__"})
        except Exception as exc:  # the snippet's own error is the value under comparison
            error = [type(exc).__name__, str(exc)]
    warned = [[w.category.__name__, _program_frames(str(w.message))]
              for w in caught if _shown_by_default(w)]
    return _record(out.getvalue(), error, warned)


SNIPPET = "<snippet>"
FRAME = re.compile(r'  File "(?P<file>[^"]*)", line \d+, in .*\n(?:    .*\n)?')


def _program_frames(message: str) -> str:
    """A warning's forward traceback (anomaly mode's) with the program's frames only: the
    harness's and torch's own files are this machine's paths, not the program's."""
    return FRAME.sub(lambda frame: frame[0] if frame["file"] == SNIPPET else "", message)


def _shown_by_default(caught: warnings.WarningMessage) -> bool:
    """Python's default filters show a (pending) DeprecationWarning only where __main__
    triggers it: one that torch's own Python attributes to itself is not printed."""
    return not issubclass(caught.category, (DeprecationWarning, PendingDeprecationWarning)) \
        or caught.filename == SNIPPET


def golden_path(group: str) -> Path:
    return GOLDEN_DIR / f"{group}.json"


def load_golden(group: str) -> dict:
    """name -> record, as written by tests/golden/record_cases.py (this machine kind's own
    records over the base ones, see golden_machine.py)."""
    return read_records(golden_path(group))


def case_tests(group: str, needs: tuple[str, ...] = ()) -> tuple:
    """Two parametrised tests over a group's cases: against its golden records, and (when torch
    and the modules in `needs` are importable) against torch run live. A test module binds them
    to test_* names."""
    import pytest

    cases = load_cases(group)
    diverging = MACHINE_DIVERGENCES.get(MACHINE, {})
    unreproduced = MACHINE_UNREPRODUCED.get(MACHINE, {})
    records_differ = MACHINE_RECORDS_DIFFER.get(MACHINE, frozenset())
    elsewhere = {case: kind for kind, cases_there in RECORDED_ON.items() if kind != MACHINE
                 for case in cases_there}

    def marks(name: str, live: bool) -> list:
        case = f"{group}/{name}"
        if case in diverging:  # (torch itself prints what the golden records: live diverges too)
            return [pytest.mark.xfail(reason=diverging[case], strict=True)]
        if live and case in LIVE_UNSTABLE:
            return [pytest.mark.skip(reason=LIVE_UNSTABLE[case])]
        if not live and case in elsewhere:
            return [pytest.mark.skip(reason=f"recorded on {elsewhere[case]}, whose torch prints "
                                     "other last digits; the live run checks it here")]
        if case in unreproduced:
            return [pytest.mark.xfail(reason=unreproduced[case], strict=False)]
        if not live and case in records_differ:
            return [pytest.mark.xfail(reason="recorded where torch prints other last digits than "
                                      "on this kind of machine; the live run checks it here",
                                      strict=False)]
        return []

    records: dict[str, dict] = {}  # gradcli's record of a case, kept for its other test

    def gradcli_record(name: str) -> dict:
        """The case's gradcli record: computed by the first of its two tests to run, handed to
        the second (a run is a pure function of the source; the two need not pay for it twice)."""
        if name in records:
            return records.pop(name)
        records[name] = run_gradcli(cases[name])
        return records[name]

    names = [pytest.param(name, marks=marks(name, False)) for name in cases]
    live_names = [pytest.param(name, marks=marks(name, True)) for name in cases]

    @pytest.mark.parametrize("name", names)
    def matches_golden(name):
        expected = load_golden(group).get(name)
        assert expected is not None, f"no golden record; run tests/golden/record_cases.py {group}"
        assert gradcli_record(name) == expected, cases[name]

    @pytest.mark.parametrize("name", live_names)
    def matches_live_torch(name):
        for module in ("torch", *needs):
            pytest.importorskip(module)
        assert gradcli_record(name) == run_torch(cases[name]), cases[name]

    return matches_golden, matches_live_torch


_NOTE = re.compile(r"^\S.*:\d+:\d+: note: ")
_CARET = re.compile(r"^\s*\d* \| ")


def without_notes(stderr: str) -> str:
    """An error report without the notes gradcli adds after torch's message (each a
    `FILE:LINE:COL: note:` line and its source and caret lines)."""
    kept, in_note = [], False
    for line in stderr.splitlines(keepends=True):
        if _NOTE.match(line):
            in_note = True
        elif not (in_note and _CARET.match(line)):
            in_note = False
            kept.append(line)
    return "".join(kept)
