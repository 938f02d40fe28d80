"""Script files decoded as Python decodes them: a byte-order mark, PEP 263 coding lines, and
Python's SyntaxError for bytes that are not source text, through the installed console script."""

import subprocess
import sys

import pytest

from gradcli.cli.source_files import SourceDecodeError, decode

SCRIPTS = [
    b"\xef\xbb\xbfprint('bom')\n",
    b"# -*- coding: latin-1 -*-\nprint('\xe9')\n",
    b"#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\nprint('\x80')\n",
    b"print(1)\n# \xd0\xff\n",
    b"# coding: no-such-codec\nprint(1)\n",
    b"\xef\xbb\xbf# coding: latin-1\nprint(1)\n",
    b"print(1)\n\x00\n# \xd0\n",
    b"print(1)\n# \xd0\n\x00\n",
    b"\x7fELF\x02\x01\x01\x00\x00\xd0\n",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_scripts_run_or_fail_as_python_does(run_gradcli, tmp_path, script):
    path = tmp_path / "script.py"
    path.write_bytes(script)
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            encoding="utf-8", timeout=60)
    gradcli = run_gradcli(["run", str(path)])
    assert gradcli.stdout == python.stdout
    assert gradcli.returncode == (0 if python.returncode == 0 else 2)
    assert gradcli.stderr.splitlines()[-1:] == python.stderr.splitlines()[-1:]


def test_standard_input_is_decoded_as_a_script(run_gradcli):
    result = run_gradcli(["run", "-"], stdin="\ufeffprint('piped')\n")
    assert (result.returncode, result.stdout) == (0, "piped\n")


def test_a_codec_is_never_looked_up_by_a_declared_name():
    with pytest.raises(SourceDecodeError, match="encoding problem: rot13"):
        decode(b"# coding: rot13\nprint(1)\n", "x.py")
