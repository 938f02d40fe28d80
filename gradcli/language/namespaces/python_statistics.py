"""Python's `statistics` module as scripts summarize runs with it (mean, stdev, median of losses
and timings): Python's own functions over the data's numbers, a tensor element taken as its
number as float() takes it, and StatisticsError as the module's class."""

from __future__ import annotations

import statistics

from gradcli.language.namespaces.python_io import host_errors
from gradcli.language.namespaces.python_math import real_number
from gradcli.language.runtime.exceptions import module_exception
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate

ERROR = module_exception("statistics.StatisticsError", statistics.StatisticsError)

# name -> signature: functions of one data iterable, then their keyword options
_OF_DATA = {"mean": "data", "fmean": "data, weights=None", "median": "data",
            "median_low": "data", "median_high": "data", "median_grouped": "data, interval=1",
            "mode": "data", "multimode": "data", "stdev": "data, xbar=None",
            "pstdev": "data, mu=None", "variance": "data, xbar=None",
            "pvariance": "data, mu=None", "harmonic_mean": "data, weights=None",
            "geometric_mean": "data", "quantiles": "data, *, n=4, method='exclusive'"}


def _numbers(data) -> list:
    return [real_number(value) for value in iterate(data)]


def _of_data(name: str, signature: str):
    host = vars(statistics)[name]

    def call(data, *args, **kwargs):
        with host_errors(statistics.StatisticsError):
            return host(_numbers(data), *args, **kwargs)
    return entry(name, call, signature, frames=0)


def _of_pairs(name: str):
    """correlation, covariance, linear_regression: two sequences of numbers."""
    host = vars(statistics)[name]

    def call(x, y, /):
        with host_errors(statistics.StatisticsError):
            return host(_numbers(x), _numbers(y))
    return entry(name, call, "x, y, /", frames=0)


STATISTICS = Namespace("statistics", table(
    *(_of_data(name, signature) for name, signature in _OF_DATA.items()),
    *(_of_pairs(name) for name in ("correlation", "covariance")),
) | {"StatisticsError": ERROR})
