"""Figures a program makes with matplotlib.pyplot: a note on stderr, or SVG files in --plots DIR."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET

from gradcli.cli.figures import file_name

SVG = "{http://www.w3.org/2000/svg}"

TWO_FIGURES = """\
import matplotlib.pyplot as plt
plt.plot([1, 2, 3])
plt.show()
fig, ax = plt.subplots()
ax.scatter([1, 2], [3, 4])
print("done")
"""

# Figure 1 is saved (under a path that points outside), then closed; figure 2 is shown; figure 3
# is left open at the end.
THREE_FIGURES = """\
import matplotlib.pyplot as plt
import numpy as np
losses = [1.0, 0.5, 0.25, 0.125]
plt.plot(losses, label="loss")
plt.title("loss <curve>")
plt.xlabel("epoch")
plt.legend()
plt.grid(True)
plt.savefig("../outside/loss curve.png")
plt.close()
plt.figure()
plt.scatter(np.arange(5), np.arange(5) ** 2, c=np.arange(5))
plt.show()
fig, axes = plt.subplots(1, 2, figsize=(8, 3))
axes[0].hist(torch.randn(100), bins=10)
axes[1].imshow(np.eye(4), cmap="gray")
axes[1].axis("off")
print(len(losses))
"""


def run_in(workdir, gradcli_exe, args, program):
    workdir.mkdir(parents=True, exist_ok=True)
    return subprocess.run([gradcli_exe, *args], input=program, cwd=workdir,
                          capture_output=True, text=True, encoding="utf-8", timeout=60)


def test_figures_not_shown_are_counted_on_stderr(run_gradcli):
    result = run_gradcli(["run", "-"], stdin=TWO_FIGURES)
    assert (result.returncode, result.stdout) == (0, "done\n")
    assert result.stderr == "gradcli: 2 figures not shown (use --plots DIR to save them)\n"


def test_the_note_follows_an_error_report(run_gradcli):
    result = run_gradcli(["eval", "import matplotlib.pyplot as plt; plt.plot([1]); 1 / 0"])
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[-2:] == ["ZeroDivisionError: division by zero",
                          "gradcli: 1 figure not shown (use --plots DIR to save them)"]


def test_programs_without_figures_say_nothing_more(run_gradcli):
    result = run_gradcli(["run", "-"], stdin="import matplotlib.pyplot as plt\nprint(1)\n")
    assert (result.returncode, result.stdout, result.stderr) == (0, "1\n", "")


def test_plots_dir_gets_one_svg_per_figure(gradcli_exe, tmp_path):
    workdir = tmp_path / "work"
    result = run_in(workdir, gradcli_exe, ["run", "--plots", "plots", "-"], THREE_FIGURES)
    assert (result.returncode, result.stdout) == (0, "4\n"), result.stderr
    plots = workdir / "plots"
    assert sorted(p.name for p in plots.iterdir()) == [
        "figure-2.svg", "figure-3.svg", "loss_curve.svg"]
    assert result.stderr == ("gradcli: 3 plots written to plots: loss_curve.svg, figure-2.svg, "
                             "figure-3.svg\n")
    assert not (tmp_path / "outside").exists()
    assert sorted(p.name for p in workdir.iterdir()) == ["plots"]
    drawn = {p.name: ET.parse(p).getroot() for p in plots.iterdir()}
    for root in drawn.values():
        assert root.tag == SVG + "svg"
    loss = drawn["loss_curve.svg"]
    assert loss.get("width") == "640" and loss.get("height") == "480"
    texts = [t.text for t in loss.iter(SVG + "text")]
    assert "loss <curve>" in texts and "epoch" in texts and "loss" in texts
    assert len(list(loss.iter(SVG + "polyline"))) == 1
    assert len(list(drawn["figure-2.svg"].iter(SVG + "circle"))) == 5
    bars_and_cells = list(drawn["figure-3.svg"].iter(SVG + "rect"))
    assert len(bars_and_cells) >= 10 + 16
    assert drawn["figure-3.svg"].get("width") == "800"


def test_eval_takes_plots_too(gradcli_exe, tmp_path):
    result = run_in(tmp_path, gradcli_exe, ["eval", "--plots", "out", "-"],
                    "import matplotlib.pyplot as plt\nplt.plot([3, 1, 2])\nplt.savefig('a')\n")
    assert result.returncode == 0, result.stderr
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["a.svg"]
    assert ET.parse(tmp_path / "out" / "a.svg").getroot().tag == SVG + "svg"


def test_savefig_names_keep_only_a_safe_base_name():
    assert file_name("../../etc/passwd", 1) == "passwd.svg"
    assert file_name("C:\\plots\\loss.png", 1) == "loss.svg"
    assert file_name("..", 2) == "figure-2.svg"
    assert file_name(".hidden.png", 3) == "hidden.svg"
    assert file_name("my plot (1).pdf", 4) == "my_plot__1_.svg"
    assert file_name(None, 5) == "figure-5.svg"
