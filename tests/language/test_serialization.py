"""torch.save and torch.load within one run (kept in memory), against torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("serialization")


PROGRAM_CLASS = """import io
import torch
class Net(torch.nn.Module):
    class Part:
        pass
for value in (Net(), [Net.Part()]):
    buffer = io.BytesIO()
    torch.save(value, buffer)
    buffer.seek(0)
    try:
        torch.load(buffer)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[3])
"""


def test_load_refuses_the_programs_classes_by_their_main_names(tmp_path):
    """A class of the program pickles as `__main__.Net` (a snippet's classes cannot be pickled
    by torch, so this one runs as a script)."""
    import subprocess
    import sys
    from gradcli.language.session import Session
    script = tmp_path / "program.py"
    script.write_text(PROGRAM_CLASS)
    expected = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                              check=True).stdout
    lines: list = []
    assert Session(write=lines.append).run(PROGRAM_CLASS).error is None
    assert "".join(lines) == expected


PATH_PROGRAM = """import torch
from pathlib import Path
MODEL_SAVE_PATH = Path("model_0.pth")
torch.save(obj={"weights": torch.tensor([0.3367])}, f=MODEL_SAVE_PATH)
print(torch.load(f=MODEL_SAVE_PATH))
print(torch.load(MODEL_SAVE_PATH.with_name("model_0.pth"), weights_only=True))
try:
    torch.load(Path("missing") / "model_1.pth")
except FileNotFoundError as e:
    print(e)
"""


def test_save_and_load_take_a_pathlib_path(tmp_path):
    """A pathlib path names the file its text names (torch takes any os.PathLike); torch's run
    writes in a directory of its own."""
    import subprocess
    import sys
    from gradcli.language.session import Session
    expected = subprocess.run([sys.executable, "-c", PATH_PROGRAM], capture_output=True,
                              text=True, check=True, cwd=tmp_path).stdout
    lines: list = []
    assert Session(write=lines.append).run(PATH_PROGRAM).error is None
    assert "".join(lines) == expected
