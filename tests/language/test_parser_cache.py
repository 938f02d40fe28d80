"""The built parser kept across processes (gradcli/language/syntax/parser_cache.py): a process
with an empty cache writes it, the next loads it and parses exactly as a freshly built parser
does, and a damaged or foreign cache file is rebuilt, never run."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

from gradcli.language.syntax import lark_standalone, parser_cache
from gradcli.language.syntax.parser import GradIndenter

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {("gradcli.language.syntax.parser", "GradIndenter"): GradIndenter}
PROGRAMS = sorted((ROOT / "examples").rglob("*.py"))


def _fresh():
    return lark_standalone.Lark_StandAlone(postlex=GradIndenter())


def _parse(lark, path: Path):
    text = path.read_text(encoding="utf-8")
    return lark.parse(text if text.endswith("\n") else text + "\n", start="start")


def test_a_saved_parser_loads_and_parses_as_a_fresh_one(tmp_path):
    path = str(tmp_path / "parser.pickle")
    parser_cache.save(_fresh(), path)
    loaded = parser_cache.load(path, ALLOWED)
    assert loaded is not None
    fresh = _fresh()
    assert len(PROGRAMS) >= 10
    for program in PROGRAMS:
        assert _parse(loaded, program) == _parse(fresh, program), program


def test_the_per_state_lexers_are_read_when_their_state_is_first_met(tmp_path):
    path = str(tmp_path / "parser.pickle")
    parser_cache.save(_fresh(), path)
    loaded = parser_cache.load(path, ALLOWED)
    lexers = loaded.parser.lexer.lexer.lexers
    assert isinstance(lexers, parser_cache.StateLexers) and len(lexers) == 0
    _parse(loaded, PROGRAMS[0])
    assert 0 < len(lexers.loaded) < len(lexers.blobs)


def test_the_parse_table_rows_are_read_when_their_state_is_first_met(tmp_path):
    path = str(tmp_path / "parser.pickle")
    fresh = _fresh()
    parser_cache.save(fresh, path)
    loaded = parser_cache.load(path, ALLOWED)
    rows = loaded.parser.parser.parser.parse_table.states
    assert isinstance(rows, parser_cache.StateRows) and len(rows) == 0
    _parse(loaded, PROGRAMS[0])
    assert 0 < len(rows) < len(rows.blobs)
    original = fresh.parser.parser.parser.parse_table.states
    assert all(rows[state] == original[state] for state in original)


def test_the_rules_and_their_tree_callbacks_are_read_when_first_reduced_by(tmp_path):
    path = str(tmp_path / "parser.pickle")
    fresh = _fresh()
    parser_cache.save(fresh, path)
    loaded = parser_cache.load(path, ALLOWED)
    callbacks = loaded.parser.parser.parser.callbacks
    rules = callbacks.shared
    assert isinstance(callbacks, parser_cache.RuleCallbacks) and len(callbacks) == len(rules) == 0
    assert loaded.parser.parser.parser.parse_table.states.shared is rules  # one copy of each rule
    _parse(loaded, PROGRAMS[0])
    assert 0 < len(callbacks) < len(callbacks.blobs) and 0 < len(rules) < len(rules.blobs)
    assert fresh.rules and fresh.parser.parser_conf.rules  # (saving left the built parser whole)
    assert all(rule in callbacks for rule in fresh.parser.parser.parser.callbacks)
    assert "NAME" not in callbacks and loaded.rules == []


def test_a_damaged_file_is_ignored(tmp_path):
    path = tmp_path / "parser.pickle"
    parser_cache.save(_fresh(), str(path))
    path.write_bytes(path.read_bytes()[:1000])
    assert parser_cache.load(str(path), ALLOWED) is None


class _Payload:
    def __reduce__(self):
        return (os.system, ("echo ran",))


def test_a_file_naming_anything_but_the_parser_classes_is_never_run(tmp_path):
    path = tmp_path / "parser.pickle"
    path.write_bytes(pickle.dumps(_Payload()))
    assert parser_cache.load(str(path), ALLOWED) is None


def test_the_first_process_writes_the_cache_and_the_next_reads_it(tmp_path):
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "gradcli", "eval", "x = torch.tensor(2.); x * 3"]
    first = subprocess.run(command, capture_output=True, text=True, env=environment)
    assert first.stdout == "tensor(6.)\n", first.stderr
    stored = list((tmp_path / "gradcli").glob("parser*.pickle"))
    assert len(stored) == 1
    written = stored[0].stat().st_mtime_ns
    second = subprocess.run(command, capture_output=True, text=True, env=environment)
    assert second.stdout == first.stdout
    assert stored[0].stat().st_mtime_ns == written  # read, not rebuilt


def test_an_unwritable_cache_folder_still_parses(tmp_path):
    parser_cache.save(_fresh(), str(tmp_path / "missing" / "parser.pickle"))
    assert not (tmp_path / "missing").exists()
