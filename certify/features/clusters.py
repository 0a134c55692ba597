"""Cluster pays: groups of touching cells of one symbol pay by size."""

from certify.features.base import SCREEN_CYCLE, SCREEN_KERNEL, SCREENS, Feature

FEATURE = Feature(
    name="clusters",
    title="touching cells of one symbol pay by the group's size",
    keys=("cluster_pays",),
    used=lambda m: m.evaluation == "cluster",
    path=SCREENS,
    simulation=SCREEN_KERNEL,
    exact=(SCREEN_CYCLE,),
    glass=("cluster_rule", "cluster_sequence", "bet_cluster"),
    twin="screens",
    examples=("models/machines/cluster-7x7.toml",),
    prebuilt="models/machines/cluster-7x7.toml",
)
