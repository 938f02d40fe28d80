"""Which of NumPy's elementwise loops gradcli computes with, fixed as NumPy is imported.

NumPy picks its loops by CPU at import. Its AVX-512 exp, log, expm1 and friends round
differently from its AVX2 and the C library's ones (in a few percent of float64 inputs), and
gradcli's float results are matched to torch's on the latter: keep them on every machine. The
feature names of both NumPy generations are given (NumPy warns of those it does not know, and
ignores them). The setting lasts only for the import, so that child processes do not inherit
it; a NumPy imported before gradcli keeps its own choice.
"""

import os
import warnings

_SETTING = "NPY_DISABLE_CPU_FEATURES"
_AVX512 = ("X86_V4 AVX512_ICL AVX512_SPR AVX512F AVX512CD AVX512_KNL AVX512_KNM AVX512_SKX "
           "AVX512_CLX AVX512_CNL")

_before = os.environ.get(_SETTING)
os.environ[_SETTING] = " ".join(filter(None, (_before, _AVX512)))
try:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ImportWarning)
        import numpy  # noqa: E402,F401
finally:
    if _before is None:
        del os.environ[_SETTING]
    else:
        os.environ[_SETTING] = _before
