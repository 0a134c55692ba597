"""Reels of drawn heights (Megaways-like): each reel shows a drawn number of rows."""

from certify.features.base import FULL_CYCLE, Feature

FEATURE = Feature(
    name="heights",
    title="each reel draws how many rows it shows; ways multiply",
    keys=("reels.heights",),
    used=lambda m: m.heights is not None,
    exact=(FULL_CYCLE,),
    glass=("heights",),
    twin="features",
    twin_model="models/machines/heights-4r.toml",
    examples=("models/machines/heights-4r.toml",),
    prebuilt="models/machines/heights-4r.toml",
)
