"""The report plots' axis labels: plain text at the decades of log axes."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator

from reports.plots import _decade_label, _plain_log_ticks


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (0.001, "10⁻³"),
        (0.01, "0.01"),
        (0.1, "0.1"),
        (1.0, "1"),
        (10_000.0, "10000"),
        (1e5, "10⁵"),
        (1e12, "10¹²"),
        (3e6, "3e+06"),
        (0.0, ""),
    ],
)
def test_decade_labels_are_written_out_or_as_powers_of_ten(value, label):
    """Hand-written: decades from 0.01 to 10000 in full, others as 10 to a superscript power."""
    assert _decade_label(value) == label


def test_log_axis_gets_plain_labels_and_no_minor_ticks():
    """The labels carry no mathtext ("$") and the axis draws no minor ticks."""
    fig = Figure()
    ax = fig.add_subplot()
    ax.plot([0.1, 1000.0], [1.0, 1e7])
    ax.set_xscale("log")
    ax.set_yscale("log")
    _plain_log_ticks(ax.yaxis)
    assert isinstance(ax.yaxis.get_minor_locator(), NullLocator)
    labels = [ax.yaxis.get_major_formatter()(v, 0) for v in (1.0, 100.0, 1e6)]
    assert labels == ["1", "100", "10⁶"]
    assert not any("$" in text for text in labels)
