"""Real games of slotopol/server reproduced to the server's own brute-force figures.

Each file in ``tests/data/real`` (see its SOURCES.md) is written from the game's
``<game>_rule.go`` and one reel set of its ``<game>_data.yaml``, whose header
prints the server's brute force over every stop combination. This file holds
the games whose mechanic has no test of its own elsewhere: a figure here is
the server's printed one, to the digits it prints (``PRINTED``: total return,
then the line and scatter parts where printed, in percent).

Server quirk (Katana, Flame Dancer, Shining Stars, Ice Ice Ice): their printed
figures are those of the game with its first line selected only (slotopol's scan
ran with ``Sel = 1``). Without expanding wilds every line has the same mean, so the
line count does not change a percentage; with them it does, and so does a scatter
paid x the line bet (Ice Ice Ice). The files are the real games on all their
lines; the test plays them with their first line only (the same rules,
``bet.lines = 1``) against the printed figures.
"""

from __future__ import annotations

import dataclasses
import tomllib

import pytest
from testpaths import DATA

from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine
from certify.model.loader import parse_machine

REAL = DATA / "real"

# file -> (total, lines, scatters) as printed, in percent, with the digits printed
PRINTED = {
    # "symbols: 70.278(lined) + 0(scatter) = 70.278020%; RTP = 70.278(sym) + 25.869(fg) =
    # 96.146762%": a scatter counted only where reels 1-3 each show one (`consecutive`),
    # free spins x2..x5 by the count that started them (`multiplier_by_count`)
    "novomatic_jaguar_moon.toml": ("96.146762", "70.278020", "0"),
    # "symbols: 85.482(lined) + 0(scatter) = 85.482465%; RTP = 85.482(sym) +
    # 0.039512*267(fg) = 96.032104%": 243 ways, scatters on reels 1, 3, 5, FS x3
    "novomatic_african_simba.toml": ("96.032104", "85.482465", "0"),
    # "RTP = 92.079(lined) + 2.4242(scatter) = 94.503243%": centre-out lines (ANY)
    "novomatic_just_jewels.toml": ("94.503243", "92.079", "2.4242"),
    # "symbols: 64.583(lined) + 4.8809(scatter) = 69.463903%; RTP = 69.464(sym) +
    # 0.043962*605.75(fg) = 96.093703%": vikings wild in free spins, group entries
    "novomatic_dragons_deep.toml": ("96.093703", "64.583", "4.8809"),
    # "RTP = 96.606(lined) + 0(scatter) = 96.605812%": lines paid both ways
    "novomatic_fruitilicious.toml": ("96.605812", "96.606", "0"),
    # "symbols: 61.681(lined) + 9.452(scatter) = 71.133344%; RTP = 71.133(sym) +
    # 0.048267*477.28(fg) = 94.170063%": a x5 wild ("max"), free spins x5 where each
    # scatter adds a spin and pays nothing (`retrigger_spins`, `free_spins_pays = 0`)
    "netent_reel_steal.toml": ("94.170063", "61.681", "9.452"),
    # "symbols: 83.616(lined) + 0.10393(scatter) = 83.720063%; RTP = 83.72(sym) +
    # 0.068428*165.59(fg) = 95.051006%": 243 ways, wilds x2 (reel 2) and x5 (reel 4),
    # scatters x the line bet, free spins on their own reels
    "ct_rodeo_power.toml": ("95.051006", "83.616", "0.10393"),
    # "symbols: 37.246(lined) + 6.1644(scatter) = 43.410015%; RTP = 43.41(sym) +
    # 0.043945*1118.9(fg) = 92.578661%": free spins started by 2 wilds, scatters
    # counting wilds (`wilds_count`), wild reels 2 and 4 in free spins
    "playtech_dolphin_reef.toml": ("92.578661", "37.246", "6.1644"),
    # "symbols: 62.463(lined) + 13.391(scatter) = 75.853717%; RTP = 75.854(sym) +
    # 0.076317*246.31(fg) = 94.651169%": a x2 wild ("max"), free spins x3 except the
    # five-wild line (`free_spins_multiplier = false`)
    "ct_beetle_star.toml": ("94.651169", "62.463", "13.391"),
    # "symbols: 60.236(lined) + 0(scatter) = 60.236366%; RTP = 60.236(sym) +
    # 0.098877*251.43(fg) = 85.096797%": the ship scatter wild in free spins, a group of
    # Columbus and ships paying the wild's table there only (`free_spins_pays`)
    "novomatic_columbus.toml": ("85.096797", "60.236366", "0"),
    # "symbols: 85.579(lined) + 2.3605(scatter) = 87.939736%; RTP = ... = 96.005894%": a
    # wild that is the scatter and starts the free spins, wilds alone paying nothing, AGT's
    # 30-line table with its repeated lines
    "agt_aislot.toml": ("96.005894", "85.579", "2.3605"),
    # "symbols: 60.206(lined) + 14.651(scatter) = 74.856628%; RTP = ... = 96.243438%":
    # a x2 wild ("max"), free spins x3 except the five-wild line
    "ct_forest_nymph.toml": ("96.243438", "60.206", "14.651"),
    # "RTP = 90.64(lined) + 5.3501(scatter) = 95.990206%": 5x4, 40 lines, 676,127,088
    # combinations
    "novomatic_mega_joker.toml": ("95.990206", "90.64", "5.3501"),
    # "symbols: 50.111(lined) + 0(scatter) = 50.110982%; RTP = 50.111(sym) +
    # 0.049281*668.08(fg) = 83.034286%": free spins whose reels 2-4 show one 3x3 symbol
    # drawn from a reel of its own (`free_spins.big_symbol`; every line has the same
    # mean, so the scan's Sel = 1 gives the 30 lines' figures)
    "agt_valkyrie.toml": ("83.034286", "50.110982", "0"),
    # "symbols: 60.343(lined) + 3.1748(scatter) = 63.517797%; RTP = 63.518(sym) +
    # 0.032922*676.98(fg) = 85.805248%": a x2 wild ("max"), free spins on their own reels
    # with their own pays, each free spin showing a wild adding one (`retrigger_symbol`)
    "igt_rich_girl.toml": ("85.805248", "60.343", "3.1748"),
    # "symbols: 71.629(lined) + 2.2939(scatter) = 73.922469%; RTP = 73.922(sym) +
    # 0.045757*278.02(fg) = 86.643973%": in free spins two more wilds with their own
    # pays, a leading run of wilds of one kind only (`leading_wilds = "one_kind"`)
    "ct_vikings_fun.toml": ("86.643973", "71.629", "2.2939"),
    # "symbols: 69.184(lined) + 13.729(scatter) = 82.912957%; RTP = 82.913(sym) +
    # 0.052331*262.47(fg) = 96.648500%": two wilds x2 and x4 (reel 3) counted once
    # (`"max"`), a group of both paying the wild table, FS x3 retriggered
    "netent_trolls.toml": ("96.648500", "69.184", "13.729"),
    # "symbols: 80.659(lined) + 2.6841(scatter) = 83.343376%; RTP = 83.343(sym) +
    # 0.071401*179.5(fg) = 96.160157%": 6 to 15 stacked scatters pay and give 10 to
    # 28 free spins x2, retriggered
    "ct_sapphire_lagoon.toml": ("96.160157", "80.659", "2.6841"),
    # "symbols: 73.39(lined) + 1.9682(scatter) = 75.357996%; RTP = 75.358(sym) +
    # 0.059047*208.77(fg) = 87.684964%": 15 free spins on their own reels, 3 scatters
    # in them add 100 once (`retrigger = "once"`, `retrigger_spins = {3 = 100}`)
    "ct_mighty_rex.toml": ("87.684964", "73.39", "1.9682"),
    # "symbols: 65.123(lined) + 3.1612(scatter) = 68.284163%; farm bonuses: ... rtp =
    # 27.804658%; RTP = 68.284(sym) + 27.805(farm) = 96.088821%": a strip cascade whose
    # 3+ tractors start the farm bonus (its exact law worked out off-line, in `awards`)
    "novomatic_cash_farm.toml": ("96.088821", "65.123", "3.1612"),
    # "symbols: 49.522(lined) + 11.288(scatter) = 60.809506%; RTP = 60.81(sym) +
    # 0.057217*618.14(fg) = 96.178109%": a x2 wild counted once (`"max"`), 15 free spins
    # x3 on their own reels, retriggered (their 40% retrigger chance: sq = 1.6691)
    "agt_ice_queen.toml": ("96.178109", "49.522", "11.288"),
    # "symbols: 49.364(lined) + 10.921(scatter) = 60.285580%; RTP = 60.286(sym) +
    # 0.17165*210.46(fg) = 96.411777%": a x2 wild counted once, 45 free spins on their
    # own reels, retriggered
    "novomatic_bananas_go_bahamas.toml": ("96.411777", "49.364", "10.921"),
    # "symbols: 71.331(lined) + 0(scatter) = 71.331040%; RTP = 71.331(sym) +
    # 0.10345*238.68(fg) = 96.022554%": 1, 2 or 3 scatters start 1, 2 or 3 free spins
    # x3, retriggered; a wilds-only line pays the wild table (`"wild_award"`)
    "agt_extra_spin.toml": ("96.022554", "71.331040", "0"),
    # "symbols: 86.964(lined) + 1.2772(scatter) = 88.240814%; RTP = 88.241(sym) +
    # 0.060278*128.22(fg) = 95.969581%": stacked scatters pay 4 and 5+, 4+ start 15
    # free spins on their own reels, retriggered
    "ct_halloween_fruits.toml": ("95.969581", "86.964", "1.2772"),
    # "symbols: 48.783(lined) + 17.529(scatter) = 66.312021%; RTP = 66.312(sym) +
    # 0.10687*276.85(fg) = 95.897919%": a x2 wild counted once, its own run paid as is,
    # 15 free spins x3 on their own reels, retriggered
    "netent_arabian_nights.toml": ("95.897919", "48.783", "17.529"),
    # "symbols: 82.674(lined) + 10.918(scatter) = 93.591670%; RTP = 93.592(sym) +
    # 0.027295*96.218(fg) = 96.217968%": a 4x4 window, exactly 4 scatters pay and give
    # 10 free spins on the same reels, retriggered
    "agt_zeus.toml": ("96.217968", "82.674", "10.918"),
    # "symbols: 55.805(lined) + 16.61(scatter) = 72.414548%; RTP = 72.415(sym) +
    # 0.097888*240.82(fg) = 95.987680%": a x2 wild counted once, 15 free spins x3
    "netent_spellcast.toml": ("95.987680", "55.805", "16.61"),
    # "symbols: 49.522(lined) + 11.288(scatter) = 60.809506%; RTP = 60.81(sym) +
    # 0.057217*618.14(fg) = 96.178109%": Ice Queen's reels and pays on Novomatic's 9 lines
    "novomatic_dolphins_pearl.toml": ("96.178109", "49.522", "11.288"),
    # "symbols: 73.514(lined) + 3.251(scatter) = 76.764854%; RTP = 76.765(sym) +
    # 0.11215*172.92(fg) = 96.157962%": 15 free spins x2, retriggered
    "ct_britania.toml": ("96.157962", "73.514", "3.251"),
    # "symbols: 75.356(lined) + 3.888(scatter) = 79.244000%; RTP = 79.244(sym) +
    # 0.07776*221.82(fg) = 96.492784%": 3x3, the snowman wild in free spins
    "agt_merry_christmas.toml": ("96.492784", "75.356", "3.888"),
    # "symbols: 85.449(lined) + 2.0214(scatter) = 87.470897%; RTP = 87.471(sym) +
    # 0.048514*180.04(fg) = 96.205213%": scatters on reels 1, 3, 5, 12 free spins on
    # their own reels, retriggered
    "ct_nordic_song.toml": ("96.205213", "85.449", "2.0214"),
    # "symbols: 60.159(lined) + 14.71(scatter) = 74.869071%; RTP = 74.869(sym) +
    # 0.082732*244.87(fg) = 95.127304%": Spellcast's engine, other pays, 15 lines
    "netent_thrill_spin.toml": ("95.127304", "60.159", "14.71"),
    # "symbols: 49.522(lined) + 11.288(scatter) = 60.809506%; RTP = 60.81(sym) +
    # 0.057217*618.14(fg) = 96.178109%": Ice Queen's rules and reels on 9 CT lines
    "ct_goddess_of_bells.toml": ("96.178109", "49.522", "11.288"),
    # "symbols: 51.51(lined) + 21.392(scatter) = 72.901590%; RTP = 72.902(sym) +
    # 0.095797*241.88(fg) = 96.072637%": a wild with its own pays, 10/20/30 free spins x3
    "netent_tiki_wonders.toml": ("96.072637", "51.51", "21.392"),
    # "symbols: 80.056(lined) + 0(scatter) = 80.056394%; RTP = 80.056(sym) +
    # 0.16667*96.068(fg) = 96.067673%": 3x3, 27 lines, each scatter a free spin
    "agt_panda.toml": ("96.067673", "80.056394", "0"),
    # "symbols: 80.184(lined) + 2.9294(scatter) = 83.113525%; RTP = 83.114(sym) +
    # 0.073234*179.36(fg) = 96.248956%": 5x4, 40 lines, stacked wilds with own pays
    "netent_groovy_sixties.toml": ("96.248956", "80.184", "2.9294"),
    # "symbols: 49.141(lined) + 13.612(scatter) = 62.752617%; RTP = 62.753(sym) +
    # 0.076317*441.54(fg) = 96.449613%": the Dolphin's Pearl engine, its own reels and pays
    "novomatic_helena.toml": ("96.449613", "49.141", "13.612"),
    # "symbols: 86.995(lined) + 0(scatter) = 86.995356%; RTP = 86.995(sym) +
    # 0.090909*95.695(fg) = 95.694891%": 4x4, the scatter gives 3 free spins, retriggered
    "agt_santa.toml": ("95.694891", "86.995356", "0"),
    # "symbols: 76.516(lined) + 3.2496(scatter) = 79.765204%; RTP = 79.765(sym) +
    # 0.092427*175.78(fg) = 96.011772%": 15 free spins x2, retriggered
    "ct_ocean_legends.toml": ("96.011772", "76.516", "3.2496"),
    # "symbols: 88.201(lined) + 2.7892(scatter) = 90.990596%; RTP = 90.991(sym) +
    # 0.053055*96.089(fg) = 96.088579%": 10 free spins, no multiplier, retriggered
    "ct_tibetan_song.toml": ("96.088579", "88.201", "2.7892"),
    # "symbols: 87.609(lined) + 2.5061(scatter) = 90.115503%; RTP = 90.116(sym) +
    # 0.062652*96.139(fg) = 96.138820%": 5x4, 50 lines, a wild with its own pays
    "ct_alaska_wild.toml": ("96.138820", "87.609", "2.5061"),
    # "symbols: 72.706(lined) + 9.6146(scatter) = 82.320498%; RTP = 82.32(sym) +
    # 0.04045*341.4(fg) = 96.130071%": 10 free spins, retriggered, where no line pays and
    # every symbol pays by its count anywhere (count pays of regular and wild symbols)
    "ct_caribbean_adventure.toml": ("96.130071", "72.706", "9.6146"),
}
# the same, for the game with its first line only (the server's Sel = 1)
PRINTED_ONE_LINE = {
    # "symbols: 76.107(lined) + 3.3279(scatter) = 79.434926%; RTP = 79.435(sym) +
    # 0.094604*175.47(fg) = 96.035117%": a wild on reels 2-4 that fills its reel, 15
    # free spins x2 (all 20 lines: 96.06741082%)
    "ct_misty_forest.toml": ("96.035117", "76.107", "3.3279"),
    # "RTP = 90.66(lined) + 5.3148(scatter) = 95.974622%": 5x4, 100 lines, a wild on
    # reels 2-4 that fills its reel, no free spins (all 100 lines: 95.64792109%)
    "agt_hot_clover.toml": ("95.974622", "90.66", "5.3148"),
    # "symbols: 86.067(lined) + 0(scatter) = 86.066984%; RTP = 86.067(sym) +
    # 0.10417*96.075(fg) = 96.074773%": a wild on reels 2-4 that fills its reel; a
    # wild on both reels 2 and 3 starts 15 free spins (a scatter that never lands,
    # counted on reels [2, 3] with the wilds)
    "ct_jolly_beluga_whales.toml": ("96.074773", "86.067", "0"),
    # "symbols: 65.372(lined) + 1.6389(scatter) = 67.010688%; RTP = 67.011(sym) +
    # 0.055155*477.78(fg) = 93.362435%": a wild that fills its reel in free spins
    "novomatic_katana.toml": ("93.362435", "65.372", "1.6389"),
    # "symbols: 49.444(lined) + 1.5678(scatter) = 51.011497%; RTP = 51.011(sym) +
    # 0.045681*986.81(fg) = 96.090145%": wilds filling reels 2 and 4, four symbols
    # wild in free spins paying nothing (`pure_wild_line = "wild_award"`)
    "novomatic_flame_dancer.toml": ("96.090145", "49.444", "1.5678"),
    # "RTP = 80.374(lined) + 15.088(scatter) = 95.462772%": a wild filling its reel,
    # two scatters of which only the first that pays pays (`exclusive_scatters`)
    "agt_shining_stars.toml": ("95.462772", "80.374", "15.088"),
    # "symbols: 76.814(lined) + 3.0612(scatter); RTP = ... + 0.061224*192.33(fg) =
    # 91.650646%": sevens wild in free spins, 3 stars pay 10 x the line bet (on one
    # line, 10 x the total bet)
    "agt_ice_ice_ice.toml": ("91.650646", "76.814", "3.0612"),
    # a wild on reel 1 turns reels 1-3 wild from its row down (`paints`), scatters kept
    # (the game's _calc.go at the commit adding it sets g.Sel = 1):
    # "RTP = 88.188(lined) + 8.377(scatter) = 96.564910%"
    "ct_cherrycrown.toml": ("96.564910", "88.188", "8.377"),
    # the same block on 4 rows: "RTP = 88.917(lined) + 7.1368(scatter) = 96.053339%"
    "ct_colibriwild.toml": ("96.053339", "88.917", "7.1368"),
    # a chilli on reel 3 turns the 3x3 block around it wild:
    # "RTP = 91.117(lined) + 4.7058(scatter) = 95.822962%"
    "ct_chillibomb.toml": ("95.822962", "91.117", "4.7058"),
    # a wild on reels 2-4 filling its reel in a "bonus mode" drawn for 1 spin in 15
    # (`expands = {chance = [1, 15]}`): "RTP = 78.638(reg)*0.93333 + 210.3(bm)*0.066667 =
    # 87.415640%", the modes' "symbols: 70.676(lined) + 7.9618(scatter)" and "202.34(lined)
    # + 7.9618(scatter)": lines 70.676 x 14/15 + 202.34 / 15 = 79.454
    "ct_groovy_powers.toml": ("87.415640", "79.454", "7.9618"),
}


def _digits(printed: str) -> float:
    """Half a unit of the last printed digit (a percent figure)."""
    decimals = len(printed.partition(".")[2])
    return 0.5 * 10.0**-decimals


def _check(level, printed: tuple[str, str, str]) -> None:
    total, lines, scatters = printed
    assert level.rtp * 100 == pytest.approx(float(total), abs=_digits(total))
    assert level.line_rtp * 100 == pytest.approx(float(lines), abs=_digits(lines))
    assert level.scatter_rtp * 100 == pytest.approx(float(scatters), abs=_digits(scatters))


@pytest.mark.parametrize("name", sorted(PRINTED))
def test_real_game_reproduced(name):
    """Our exact figures equal the server's printed ones, every bet level."""
    for level in compute_exact(load_machine(REAL / name)).levels:
        _check(level, PRINTED[name])


def _first_line(name: str):
    """The real game ``name`` with its first line only (the server's ``Sel = 1``)."""
    raw = tomllib.loads((REAL / name).read_text())
    assert raw["bet"]["lines"] > 1
    raw["bet"]["lines"] = 1
    raw["reels"]["paylines"] = raw["reels"]["paylines"][:1]
    return parse_machine(raw, name)[0]


@pytest.mark.parametrize("name", sorted(PRINTED_ONE_LINE))
def test_real_game_reproduced_on_its_first_line(name):
    """The game with its first line only equals the server's printed figures (the
    quirk above); the real game's lines give another, exact, return."""
    _check(compute_exact(_first_line(name)).levels[0], PRINTED_ONE_LINE[name])
    full = compute_exact(load_machine(REAL / name)).levels[0]
    assert abs(full.rtp * 100 - float(PRINTED_ONE_LINE[name][0])) > 1e-4


def test_money_pipe_reproduced_on_its_first_line():
    """CT Money Pipe, reel set "96.038835" of moneypipe_data.yaml: "RTP =
    89.947(sym) + 0.063433*96.039(fg) = 96.038835%" on its first line (Sel = 1):
    Colibri Wild's block (`paints`), 10 free spins on the same reels, retriggered; a
    free spin returns what a paid spin does, so the feature is q / (1 - q) x 89.947%."""
    level = compute_exact(_first_line("ct_moneypipe.toml")).levels[0]
    assert level.rtp * 100 == pytest.approx(96.038835, abs=5e-7)
    assert (level.line_rtp + level.scatter_rtp) * 100 == pytest.approx(89.947, abs=5e-4)
    assert level.free_spins_rtp * 100 == pytest.approx(0.063433 * 96.039, abs=5e-4)


def test_piggy_riches_reproduced_for_the_option_the_server_printed():
    """NetEnt Piggy Riches, reel set "87.974253": the player picks 22 free spins x2, 15
    x3 or 9 x5 (options without weight, each certified alone); the server printed the
    15 x3 option only (piggyriches_scan.go: ``g.FSR = 15, g.M = 3``): "symbols:
    63.772(lined) + 9.6268(scatter) = 73.399056%; RTP = 73.399(sym) + 0.048975*297.6(fg)
    = 87.974253%". 9 x5 gives the same mean (9 x 5 = 15 x 3, the feature's mean being
    spins x multiplier, retriggers included); 22 x2 (44) less."""
    m = load_machine(REAL / "netent_piggy_riches.toml")
    options = {(v.free_spins.spins[0][1], v.free_spins.multiplier): v for v in m.option_variants()}
    printed = compute_exact(options[(15, 3)]).levels[0]
    _check(printed, ("87.974253", "63.772", "9.6268"))
    same = compute_exact(options[(9, 5)]).levels[0]
    assert same.rtp == pytest.approx(printed.rtp, rel=1e-12)
    assert compute_exact(options[(22, 2)]).levels[0].rtp < printed.rtp


def test_valkyrie_free_spins_reproduced():
    """AGT Valkyrie, reel set "83.034286": "*bonus reels calculations* RTP =
    668.075372%" is one free spin's return (reels 1 and 5 spun, reels 2-4 one big
    symbol from the big reel), and "free spins 1409400, q = 0.049281" of 28,599,360
    combinations the free spins per paid spin (15 per 3+ SC): the feature returns
    1409400 / 28599360 x 668.075372% (no retrigger: SC shows on reels 1 and 5 only)."""
    level = compute_exact(load_machine(REAL / "agt_valkyrie.toml")).levels[0]
    assert level.free_spins_rtp * 100 == pytest.approx(1409400 / 28599360 * 668.075372, abs=5e-7)


def test_vikings_fun_free_spins_reproduced():
    """CT Viking's Fun, reel set "86.643973": "*bonus reels calculations* RTP =
    sq*rtp(sym) = 1.048*265.3 = 278.023974%" is one free spin's return with its
    retriggers (the red and blonde vikings wild, a leading run of one wild only), and
    "free spins 6726645" of 147,008,443 combinations the spins per paid spin (15 per 3+
    SC): the feature returns 6726645 / 147008443 x 278.023974%. Without the leading-wilds
    rule the free spins pay W W RED ... as a symbol run, over 2 points more than printed."""
    machine = load_machine(REAL / "ct_vikings_fun.toml")
    level = compute_exact(machine).levels[0]
    assert level.free_spins_rtp * 100 == pytest.approx(6726645 / 147008443 * 278.023974, abs=5e-7)
    mixed = dataclasses.replace(
        machine, rules=dataclasses.replace(machine.rules, leading_wilds="mixed")
    )
    assert compute_exact(mixed).levels[0].rtp * 100 > 86.643973 + 2


def test_rich_girl_free_spins_reproduced():
    """IGT Rich Girl, reel set "85.805248": the bonus reels' "symbols: 256.43(lined);
    free spins 882033, q = 0.62121, sq = 1/(1-q) = 2.640003; RTP = sq*rtp(sym) =
    676.981317%" is one free spin's return with the wild retriggers after it (each free
    spin showing a W adds one: q of 1,419,857 windows), and "free spins 405000" of
    12,301,875 combinations the spins 3 diamonds start per paid spin: the feature
    returns 405000 / 12301875 x 676.981317% (the 100-spin cap changes it below 1e-15)."""
    level = compute_exact(load_machine(REAL / "igt_rich_girl.toml")).levels[0]
    assert level.free_spins_rtp * 100 == pytest.approx(405000 / 12301875 * 676.981317, abs=5e-7)


def test_caribbean_adventure_free_spins_reproduced():
    """CT Caribbean Adventure, reel set "96.130071": "bonus scatters: 317.98(lined) +
    9.6146(scatter) = 327.589895%" is one free spin's return (every symbol paid by its
    count anywhere, the scatter as in the base game), and "free spins 3647160" of
    90,164,880 combinations the spins per paid spin (10 per 3+ SCATTER, retriggered on
    the same reels, q = 3647160 / 90164880): the feature returns q / (1 - q) x
    327.589895% of the paid spins' bet."""
    level = compute_exact(load_machine(REAL / "ct_caribbean_adventure.toml")).levels[0]
    q = 3647160 / 90164880
    assert level.free_spins_rtp * 100 == pytest.approx(q / (1 - q) * 327.589895, abs=5e-7)


def test_fairy_queen_reproduced():
    """Novomatic Fairy Queen, reel set "96.566458": "symbols: 42.378(lined) +
    12.661(scatter) = 55.039574%; free spins 3647430 (of 90,224,199), RTP = 55.04(sym)
    + 0.040426*1027.2(fg) = 96.566458%". Each free spin draws a symbol from the 28-entry
    "es" list, filling reels 1-2 or 1-3 (`big_symbol` with `covers`), the light on the
    middle row only (`columns`); the server prints one free spin's return per symbol
    (ids 2, 3: 540.461608%; 4: 2975.801653%; 5, 6: 2363.404959%; 7, 8: 1631.173554%;
    9-11: 950.181818%; 12: 337.276033%; 13: 317.623441%) and the free spins each
    symbol gives over the 55^3 = 166,375 stops of reels 3-5 (270 for 2, 3 and 12;
    257,670 for the light; none where 3 reels are covered). The feature per paid spin
    is q x E[RTP] / (1 - E[q]), the means over the list; a light covering every row
    (no `columns`) would count 3 per reel and is refused."""
    level = compute_exact(load_machine(REAL / "novomatic_fairy_queen.toml")).levels[0]
    assert level.rtp * 100 == pytest.approx(96.566458, abs=5e-7)
    assert (level.line_rtp + level.scatter_rtp) * 100 == pytest.approx(55.039574, abs=5e-7)
    rtp = {2: 540.461608, 3: 540.461608, 4: 2975.801653, 5: 2363.404959, 6: 2363.404959}
    rtp |= {7: 1631.173554, 8: 1631.173554, 9: 950.181818, 10: 950.181818, 11: 950.181818}
    rtp |= {12: 337.276033, 13: 317.623441}
    spins = {2: 270, 3: 270, 12: 270, 13: 257670}
    drawn = [2, 2, 2, 2, 3, 3, 3, 3, 4, 5, 6, 7, 8, 9, 9, 10, 10, 11, 11, 12, 12, 12, 12]
    drawn += [12, 12, 13, 13, 13]  # the "es" list of fairyqueen_data.yaml
    mean_rtp = sum(rtp[s] for s in drawn) / len(drawn)
    mean_q = sum(spins.get(s, 0) / 166375 for s in drawn) / len(drawn)
    feature = 3647430 / 90224199 * mean_rtp / (1 - mean_q)
    assert level.free_spins_rtp * 100 == pytest.approx(feature, abs=5e-6)
    raw = tomllib.loads((REAL / "novomatic_fairy_queen.toml").read_text())
    del raw["free_spins"]["big_symbol"]["columns"]
    with pytest.raises(ModelError) as err:
        parse_machine(raw, "no columns")
    assert "free_spins.big_symbol.strip[25]" in {p.path for p in err.value.problems}
