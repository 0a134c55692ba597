"""``slotcert verify``: exit 0 unchanged, 1 naming each changed key path, 2 unreadable."""

from __future__ import annotations

import json

import pytest

from certify.cli import main


def _variant(tmp_path, text: str, old: str, new: str):
    assert text.count(old) == 1, old
    path = tmp_path / "model.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('"A", "K", "BN", "Q"]', '"A", "Q", "BN", "Q"]', 'reels.strips[2][9]: "K" -> "Q"'),
        ("pays = 50\n", "pays = 60\n", "pays[1].pays: 50 -> 60"),
        ("[4, 3, 4, 1, 2,", "[4, 3, 4, 1, 3,", "reels.weights[1][4]: 2 -> 3"),
        (
            'contribution = "0.010"',
            'contribution = "0.012"',
            'jackpots[0].contribution: "0.01" -> "0.012"',
        ),
    ],
)
def test_one_change_fails_naming_exactly_that_key(
    capsys, tmp_path, small_text, small_certificate, old, new, expected
):
    model = _variant(tmp_path, small_text, old, new)
    assert main(["verify", str(small_certificate), model]) == 1
    out = capsys.readouterr().out
    assert "CHANGED" in out
    changes = [line.strip() for line in out.splitlines()[1:] if line.startswith("  ")]
    assert changes == [expected]


def test_comments_and_key_order_pass(capsys, tmp_path, small_text, small_certificate):
    text = "# re-saved by an editor\n" + small_text.replace(
        'id = "TEST-3X3-5"\nname = "Test Cherries"\n',
        'name = "Test Cherries"   # marketing name\nid = "TEST-3X3-5"\n',
    )
    text = text.replace("[bonus]\n", "# the pick bonus\n[bonus]\n")
    model = _variant(
        tmp_path,
        text,
        'cap = "5000.00"\noverflow = "reserve"\n',
        'overflow = "reserve"\ncap = "5000.00"\n',
    )
    assert main(["verify", str(small_certificate), model, "--allow-unsigned"]) == 0
    assert "unchanged since certification" in capsys.readouterr().out


def test_certificate_without_canonical_still_detects_a_change(
    capsys, tmp_path, small_text, small_certificate
):
    cert = json.loads(small_certificate.read_text())
    del cert["machine"]["canonical"]
    small_certificate.write_text(json.dumps(cert))
    model = _variant(tmp_path, small_text, "pays = 50\n", "pays = 60\n")
    assert main(["verify", str(small_certificate), model]) == 1
    assert "cannot be named" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("{not json", "not valid JSON"),
        ('{"machine": {"id": "x"}}', "machine.fingerprint must be"),
        ("[1, 2]", "no `machine` table"),
    ],
)
def test_unreadable_certificate_is_exit_2(capsys, tmp_path, content, message):
    cert = tmp_path / "cert.json"
    if content is not None:
        cert.write_text(content)
    assert main(["verify", str(cert), str(tmp_path / "m.toml")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_altered_certificate_is_exit_2(capsys, small_certificate, small_text, tmp_path):
    cert = json.loads(small_certificate.read_text())
    cert["machine"]["canonical"]["pays"][1]["pays"] = 60
    small_certificate.write_text(json.dumps(cert))
    model = _variant(tmp_path, small_text, "pays = 50\n", "pays = 60\n")
    assert main(["verify", str(small_certificate), model]) == 2
    assert "does not hash" in capsys.readouterr().err


def test_unreadable_model_is_exit_2(capsys, tmp_path, small_certificate):
    bad = tmp_path / "bad.toml"
    bad.write_text("schema = \n")
    assert main(["verify", str(small_certificate), str(bad)]) == 2
    assert "not valid TOML" in capsys.readouterr().err
    assert main(["verify", str(small_certificate), str(tmp_path / "missing.toml")]) == 2
    assert "no such file" in capsys.readouterr().err
