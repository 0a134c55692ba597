"""Ways games: every adjacent run from reel 1 pays, times the ways it is made."""

from certify.features.base import FULL_CYCLE, STATE_DP, WAYS_KERNEL, Feature

FEATURE = Feature(
    name="ways",
    title='"243 ways": pays for symbols on adjacent reels from reel 1, any row',
    keys=("bet.ways", "bet.cost"),
    used=lambda m: m.evaluation == "ways",
    simulation=WAYS_KERNEL,
    exact=(FULL_CYCLE, STATE_DP),
    glass=("rule_ways", "bet_ways"),
    twin_model="tests/data/small_ways.toml",
    examples=("models/machines/ways-243.toml", "tests/data/small_ways.toml"),
    prebuilt="models/machines/ways-243.toml",
)
