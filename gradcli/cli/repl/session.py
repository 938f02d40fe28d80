"""The REPL loop, after prompt_toolkit's sqlite-cli example: read input, run it in a Session."""

from __future__ import annotations

import gc
import os
import sys
import threading

from gradcli.cli.limits import TimedOut, time_limit, timed_out_message

PROMPT, CONTINUATION = ">>> ", "... "
EXIT_WORDS = ("exit", "quit", "exit()", "quit()")
BANNER = ("gradcli {version}: PyTorch's autograd in the terminal. "
          "%help lists commands; Ctrl-D leaves.")


def statement_units(source: str) -> list[tuple[int, str]]:
    """(first line, text) of each top-level statement, cut at line starts so nothing is lost."""
    from gradcli.language.syntax.parser import parse
    statements = [c for c in parse(source).children if c is not None]
    starts = sorted({0} | {source.rfind("\n", 0, c.meta.start_pos) + 1
                           for c in statements[1:] if not c.meta.empty})
    ends = starts[1:] + [len(source)]
    return [(source.count("\n", 0, start) + 1, source[start:end])
            for start, end in zip(starts, ends)]


class Repl:
    """What one REPL keeps: the language session, the statements that succeeded, the inputs."""

    def __init__(self) -> None:
        self._session = None
        self._making_session = threading.Lock()
        self.script: list[str] = []
        self.inputs: list[str] = []

    @property
    def session(self):
        """The language Session, made on first use so the prompt appears before numpy loads."""
        with self._making_session:
            if self._session is None:
                self.reset()
        return self._session

    def warm_up(self) -> None:
        """Load the language, numpy and the grammar while the person types the first line."""
        from gradcli.cli.repl.lexer import scanner
        try:
            scanner()
            self.variables()
        except Exception:  # the first statement meets the same failure and reports it
            pass
        gc.freeze()  # the loaded tables live on: no collection needs to walk them again

    def reset(self) -> None:
        from gradcli.engine.state import STATE
        from gradcli.language.session import Session
        self._session = Session(write=sys.stdout.write)
        STATE.warning_sink = _write_warning
        self.script.clear()

    def variables(self) -> dict:
        return self.session.globals.vars

    def submit(self, text: str) -> bool:
        """Handle one input; False when it asks to leave."""
        source = text.rstrip()
        if not source.strip():
            return True
        self.inputs.append(source)
        if source.strip() in EXIT_WORDS:
            return False
        if source.lstrip().startswith("%"):
            from gradcli.cli.repl.commands import run_command
            run_command(self, source.strip())
        else:
            self.execute(source, "<stdin>", echo=True)
        return True

    def execute(self, source: str, filename: str, *, echo: bool) -> bool:
        """Run `source` statement by statement, keeping each that succeeds for %save.

        Each statement runs with its line number kept, so an error points into `source`."""
        from gradcli.cli.render import report_error
        from gradcli.language.syntax.parser import GradSyntaxError
        try:
            units = statement_units(source)
        except GradSyntaxError as error:
            report_error(error, source, filename)
            return False
        self.session.runtime.filename = f"<input {len(self.inputs)}>"  # origins' history number
        for line, text in units:
            try:
                outcome = self.session.run("\n" * (line - 1) + text, echo=echo)
            finally:
                sys.stdout.flush()
            if not outcome.ok:
                report_error(outcome.error, source, filename)
                return False
            self.script.append(text.rstrip() + "\n")
        return True


def _write_warning(category: str, message: str) -> None:
    """A warning as the engine writes it, then its notes (the lines it involves)."""
    from gradcli.cli.render import warning_notes
    sys.stderr.write(f"{category}: {message}\n{warning_notes()}")


def _submit(repl: Repl, text: str, timeout: float | None) -> bool:
    """repl.submit, with Ctrl-C, running out of time (the statement is rolled back) and any
    failure of gradcli itself reported and survived."""
    try:
        with time_limit(timeout):
            return repl.submit(text)
    except TimedOut:
        message = timed_out_message(timeout).rstrip("\n")
    except KeyboardInterrupt:
        message = "KeyboardInterrupt"
    except Exception as error:  # a bug in gradcli must not lose the session's variables
        message = f"gradcli: internal error: {type(error).__name__}: {error}"
    sys.stdout.flush()
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    return True


def _prompt_session(repl: Repl):
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.layout.processors import HighlightMatchingBracketProcessor
    from prompt_toolkit.shortcuts import CompleteStyle

    from gradcli.cli.repl.commands import COMMANDS
    from gradcli.cli.repl.completer import GradCompleter
    from gradcli.cli.repl.history import make_history
    from gradcli.cli.repl.keys import key_bindings
    from gradcli.cli.repl.lexer import GrammarLexer
    return PromptSession(
        PROMPT, multiline=True, prompt_continuation=lambda width, line, wrap: CONTINUATION,
        lexer=GrammarLexer(), completer=GradCompleter(repl.variables, lambda: list(COMMANDS)),
        complete_while_typing=False, complete_style=CompleteStyle.COLUMN,
        auto_suggest=AutoSuggestFromHistory(), history=make_history(),
        key_bindings=key_bindings(), search_ignore_case=True,
        input_processors=[HighlightMatchingBracketProcessor(chars="[](){}")])


def run_plain(repl: Repl, timeout: float | None = None) -> int:
    """The loop without a line editor (no terminal, or a dumb one): prompts go to stderr."""
    from gradcli.cli.repl.keys import should_submit
    pending = ""
    while True:
        sys.stderr.write(CONTINUATION if pending else PROMPT)
        sys.stderr.flush()
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            pending = ""
            sys.stderr.write("\nKeyboardInterrupt\n")
            continue
        if not line:
            _submit(repl, pending, timeout)
            return 0
        pending += line
        if should_submit(pending.removesuffix("\n")):
            source, pending = pending, ""
            if not _submit(repl, source, timeout):
                return 0


def start_repl(timeout: float | None = None) -> int:
    """Run the interactive session until Ctrl-D or exit (each statement given at most
    `timeout` seconds); the exit code."""
    repl = Repl()
    if not (sys.stdin.isatty() and sys.stdout.isatty()) or os.environ.get("TERM") == "dumb":
        return run_plain(repl, timeout)
    from gradcli import __version__
    prompt = _prompt_session(repl)
    print(BANNER.format(version=__version__))

    def first_render(_app) -> None:
        prompt.app.after_render -= first_render
        threading.Thread(target=repl.warm_up, name="warm-up").start()
    prompt.app.after_render += first_render
    while True:
        try:
            text = prompt.prompt()
        except KeyboardInterrupt:
            continue
        except EOFError:
            return 0
        if not _submit(repl, text, timeout):
            return 0
