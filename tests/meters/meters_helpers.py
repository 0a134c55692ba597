"""Shared helpers of the meter tests: compare findings with the injection list."""

from __future__ import annotations

import pandas as pd

SLACK = pd.Timedelta(seconds=1)


def _times(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    return (
        pd.to_datetime(frame["period_start"], utc=True),
        pd.to_datetime(frame["period_end"], utc=True),
    )


def unmatched(findings: pd.DataFrame, injected: pd.DataFrame) -> tuple[list, list]:
    """Injected faults with no finding, and findings with no injected fault.

    A finding matches an injection with the same machine and code whose period
    overlaps the finding's period (1 s slack: outputs are written to the second).
    """
    fs, fe = _times(findings)
    is_, ie = _times(injected)
    missed = []
    for i in range(len(injected)):
        hit = (
            (findings["machine_id"] == injected["machine_id"].iloc[i])
            & (findings["code"] == injected["code"].iloc[i])
            & (fs <= ie.iloc[i] + SLACK)
            & (fe >= is_.iloc[i] - SLACK)
        )
        if not hit.any():
            missed.append(injected.iloc[i].to_dict())
    extra = []
    for i in range(len(findings)):
        hit = (
            (injected["machine_id"] == findings["machine_id"].iloc[i])
            & (injected["code"] == findings["code"].iloc[i])
            & (is_ <= fe.iloc[i] + SLACK)
            & (ie >= fs.iloc[i] - SLACK)
        )
        if not hit.any():
            extra.append(findings.iloc[i].to_dict())
    return missed, extra
