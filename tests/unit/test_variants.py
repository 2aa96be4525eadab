"""Published variants (`variant:` on a reading): chosen with --reading like a reading,
never adopted, and told apart from readings of the text."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulings.spec import load
from rulings.specfile import Loader, SpecErrors

ROOT = Path(__file__).resolve().parents[2]


def test_a_variant_is_marked_and_chosen_like_a_reading():
    spec = load("garbage")
    wild = spec.clauses["wild"]
    assert wild.readings["kings"].variant and not wild.readings["jacks"].variant
    kings = load("garbage", {"wild": "kings"})
    assert kings.chosen["wild"] == "kings" and kings.formal("wild")["moves"]["place_card"]["wild"] == ["K"]
    assert kings.says("wild").startswith("Under the variant 'kings'")


def test_adopting_a_variant_is_an_error(tmp_path):
    data = yaml.load((ROOT / "spec" / "garbage.yaml").read_text(encoding="utf-8"), Loader=Loader)
    data["clauses"]["wild"]["adopted"] = "kings"
    path = tmp_path / "garbage.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(SpecErrors) as e:
        load(str(path))
    assert "adopts 'kings', a published variant" in str(e.value)


def test_a_variant_needs_a_place_it_is_published(tmp_path):
    data = yaml.load((ROOT / "spec" / "garbage.yaml").read_text(encoding="utf-8"), Loader=Loader)
    data["clauses"]["wild"]["readings"]["kings"]["variant"] = 3
    path = tmp_path / "garbage.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(SpecErrors) as e:
        load(str(path))
    assert "variant" in str(e.value)
