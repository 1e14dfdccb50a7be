"""Underface chapter views: every static entry shows what the library computes; the Jupyter
view takes free values and turns bad input into a Korean message; tables come from the data."""
from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest

from widgets import underface as uf
from widgets.views import labels
from widgets.damage import DB_OPTIONS, parse_damage
from widgets.ranges import RangeBands
from widgets.views import format as fmt
from widgets.views import underface as views
from widgets.views import fights, worked
from widget_checks import check_static_table, jupyter_boxes, shows_exact, table_rows

NOTEBOOK = Path(__file__).resolve().parent.parent / "book" / "underface.ipynb"


@pytest.mark.parametrize("make", views.ALL_WIDGETS)
def test_static_table_is_complete_small_and_error_free(make):
    widget = make()
    check_static_table(widget, rule_messages_allowed=False)
    assert len(widget.static_html().encode()) < 700_000, widget.uid


def _key(widget, **values) -> str:
    values = {**widget.defaults(), **values}
    return "|".join(c.key(values[c.name]) for c in widget.controls)


def test_hit_entries_equal_the_library():
    widget = views.hit_widget()
    table = widget.static_table()
    choices = [c for c in widget.controls[2].options if c != f"dodge:{views.CUSTOM}"]
    for attack in range(40, 81, 10):
        for defense in range(40, 81, 10):
            for defence in choices:
                for ah in (False, True):
                    for dh in (False, True):
                        penalty = defence.split(":")[1] if defence.startswith("dodge:") else 0
                        if defence == "none":   # firearms: no defence roll at all
                            odds = uf.opposed_odds(attack, None, attack_hard=ah)
                        else:
                            odds = uf.opposed_odds(attack, defense, attack_hard=ah, defense_hard=dh,
                                                   defense_penalty=penalty)
                        entry = table[_key(widget, attack=attack, defense=defense,
                                           defence=defence, attack_hard=ah, defense_hard=dh)]
                        assert entry["t"] == [fmt.prob(p) for p in odds.values()]
                        for p in odds.values():
                            assert shows_exact(p, entry["h"])
                        if defence != "none":
                            target = uf.effective_target(defense, hard=dh, penalty=penalty)
                            assert f" {target}</p>" in entry["h"]


def test_dodge_choices_cover_every_armor_penalty():
    choices = views.hit_widget().controls[2].options
    penalties = {uf.ARMOR[c.split(":")[1]].penalty for c in choices
                 if c.startswith("dodge:") and c != f"dodge:{views.CUSTOM}"}
    assert penalties == {a.penalty for a in uf.ARMOR.values()}
    assert "parry" in choices


def test_damage_entries_equal_the_library():
    widget = views.damage_widget()
    table = widget.static_table()
    armors = next(c for c in widget.controls if c.name == "armor").options
    for weapon in (w for w in widget.controls[0].options if w != views.CUSTOM):
        for db in DB_OPTIONS:
            for armor in (a for a in armors if a != views.CUSTOM):
                for special in (False, True):
                    dist = uf.damage_distribution(weapon, armor, db, special)
                    entry = table[_key(widget, weapon=weapon, db=db, armor=armor,
                                       special=special)]
                    probs = dist.probabilities()
                    assert entry["x"] == list(probs)
                    assert entry["t"] == [fmt.prob(p) for p in probs.values()]
                    assert shows_exact(dist.probability(0), entry["h"])
                    assert f"평균 {html.escape(fmt.approx(dist.mean()))}," in entry["h"]


def test_grouped_choices_only_merge_equal_data():
    for name, label in views._weapon_choices(shields=False, grouped=True).items():
        members = label.rsplit(" (", 1)[0].split("·")
        assert {uf.WEAPONS[m].damage for m in members} == {uf.WEAPONS[name].damage}
    covered = sum(len(l.rsplit(" (", 1)[0].split("·"))
                  for l in views._weapon_choices(shields=False, grouped=True).values())
    assert covered == len(uf.MELEE_WEAPONS) + len(uf.RANGED_WEAPONS)
    for name, label in views._armor_choices().items():
        members = label.rsplit(" (", 1)[0].split("·")
        assert {uf.ARMOR[m].armor_value for m in members} == {uf.ARMOR[name].armor_value}


def test_hp_entries_equal_the_library():
    widget = views.hp_widget()
    table = widget.static_table()
    for v in widget.settings():
        entry = table[widget.key(v)]
        weapon = views.weapon_expression(v["weapon"], v["damage"], v["db_mode"])
        armor = views.armor_value(v["armor"], v["armor_points"])
        states = uf.hit_hp_states(weapon, v["hp"], v["max_hp"], armor, v["db"], v["special"])
        for p in states.values():
            assert shows_exact(p, entry["h"]), v
        assert fmt.signed(uf.death_threshold(v["max_hp"])) in entry["h"]


@pytest.mark.parametrize("make", [views.damage_widget, views.hp_widget, views.special_widget])
def test_house_rule_weapon_and_armour_answer_like_the_library(make):
    """「직접 입력」: a weapon's own damage with DB / ½DB / none, an armour's own 방어 점수."""
    widget = make()
    for damage, mode, term in (("2D6+1", "full", "+DB"), ("1d10", "half", "+½DB"),
                               ("３D4", "none", "")):
        raw = {**{c.name: c.key(c.default) for c in widget.controls}, "weapon": views.CUSTOM,
               "damage": damage, "db_mode": mode}
        if "armor" in raw:
            raw.update(armor=views.CUSTOM, armor_points="4")
        got = widget.answer(raw)
        expr = str(parse_damage(damage.replace("３", "3"))) + term
        armor = 4 if "armor" in raw else 0
        db = raw["db"]
        special = raw.get("special") == "1"
        dist = uf.damage_distribution(expr, armor, db, special)
        if "x" in got and make is not views.special_widget:
            assert got["t"] == [fmt.prob(p) for p in dist.probabilities().values()], damage
        elif make is views.hp_widget:
            states = uf.hit_hp_states(expr, int(raw["hp"]), int(raw["max_hp"]), armor, db, special)
            assert all(shows_exact(p, got["h"]) for p in states.values())
        else:
            special_dist = uf.damage_distribution(expr, 0, db, True)
            assert got["t"] == [fmt.prob(p) for p in special_dist.probabilities().values()]
    bad = widget.answer({**{c.name: c.key(c.default) for c in widget.controls},
                         "weapon": views.CUSTOM, "damage": "1D8+DB"})
    assert "DB를 더하는 방식" in bad["error"]
    bad = widget.answer({**{c.name: c.key(c.default) for c in widget.controls},
                         "weapon": views.CUSTOM, "damage": "1D8+x"})
    assert "읽을 수 없습니다" in bad["error"]


def test_turn_order_entries_equal_the_library():
    widget = views.turn_order_widget()
    table = widget.static_table()
    names = [n for n, _ in views.ROSTER]
    for key, entry in table.items():
        values = dict(zip([c.name for c in widget.controls], key.split("|")))
        chars = [uf.Character(n, int(values[f"dex_{s}"]), ranged=values[f"ranged_{s}"] == "1",
                              weapon_skill=skill, pc=values.get(f"pc_{s}", "1") == "1")
                 for s, (n, skill) in zip("abc", views.ROSTER)]
        waiting = [n for s, n in zip("abc", names) if values[f"wait_{s}"] == "1"]
        expected = [c.name for c in uf.turn_order(chars, waiting)]
        shown = re.findall(r"<li>([^<( ]+)", entry["h"])
        assert shown == expected, key


def test_movement_range_armor_recovery_entries():
    move = views.movement_widget().static_table()
    for key, entry in move.items():
        mov, dist, skill = map(int, key.split("|"))
        kind = uf.movement(dist, mov)
        assert html.escape(labels.UF_MOVES[kind]) in entry["h"]
        if kind != "too_far":
            assert entry["t"] == [fmt.prob(p) for p in
                                  uf.check_odds(skill, hard=kind == "run").values()]
    rng = views.range_widget().static_table()
    ex = views.RANGE_EXAMPLE
    for key, entry in rng.items():
        weapon, dist, response = key.split("|")
        difficulty = uf.range_difficulty(int(dist), weapon)
        band_hard = RangeBands.multiples(uf.RANGED_WEAPONS[weapon].range_m)
        if difficulty == "out_of_range":
            assert "닿지 않음" in entry["h"] and not band_hard.in_range(int(dist))
        else:
            odds = uf.ranged_hit_odds(weapon, int(dist), ex["attack"], ex["defense"], response)
            assert entry["t"] == [fmt.prob(p) for p in odds.values()]
    # a bullet cannot be blocked even with a shield; an arrow can
    assert rng["권총|50|shield"]["t"] == [fmt.prob(p) for p in uf.opposed_odds(60, None).values()]
    assert rng["롱보우|50|large_shield"]["t"] == [fmt.prob(p) for p in uf.opposed_odds(60, 60).values()]
    armor = views.armor_widget().static_table()
    for key, entry in armor.items():
        name, weapon, dodge = key.split("|")   # (the armour widget offers the table's armour)
        loss = uf.hp_loss_per_attack(weapon, views.ARMOR_EXAMPLE["attack"], int(dodge), name)
        assert entry["t"] == [fmt.prob(p) for p in loss.probabilities().values()]
        target = uf.effective_target(int(dodge), penalty=name)
        assert table_rows(entry["h"])[1] == ["회피 목표치", dodge, str(target)]
        assert fmt.approx(loss.mean()) in {c for row in table_rows(entry["h"]) for c in row}
    assert table_rows(armor["방탄조끼|숏소드|60"]["h"])[1][2] == "55"
    weeks = views.weeks_widget().static_table()
    for key, entry in weeks.items():
        dist = uf.weeks_to_recover(int(key))
        assert entry["t"] == [fmt.prob(p) for p in dist.probabilities().values()]
    aid = views.first_aid_widget().static_table()
    for key, entry in aid.items():
        hp, skill, attempts = map(int, key.split("|"))
        dist = uf.first_aid(hp, skill, attempts)
        assert shows_exact(dist.at_least(1), entry["h"])
        assert entry["t"] == [fmt.prob(p) for p in dist.probabilities().values()]
    widget = views.special_widget()
    special = widget.static_table()
    for v in widget.settings():
        entry = special[widget.key(v)]
        weapon, db = views.weapon_expression(v["weapon"], v["damage"], v["db_mode"]), v["db"]
        dist = uf.damage_distribution(weapon, 0, db, True)
        assert entry["t"] == [fmt.prob(p) for p in dist.probabilities().values()]
        assert html.escape(fmt.approx(uf.damage_distribution(weapon, 0, db).mean())) in entry["h"]


# --- Jupyter view: free values and bad input ----------------------------------------------

def _boxes(widget):
    return jupyter_boxes(widget)


def test_jupyter_hit_widget_takes_free_values_and_refuses_bad_ones():
    inputs, out = _boxes(views.hit_widget())
    inputs["attack"].value = 65
    inputs["defense"].value = 35
    odds = uf.opposed_odds(65, 35, defense_penalty="평상복")
    assert all(shows_exact(p, out.value) for p in odds.values())
    inputs["attack"].value = 999
    assert "widget-error" in out.value and "기능 수치" in out.value
    assert "Traceback" not in out.value


def test_jupyter_turn_order_and_hp_bad_input_is_a_korean_message():
    inputs, out = _boxes(views.turn_order_widget())
    inputs["dex_b"].value = 17
    assert re.findall(r"<li>([^<( ]+)", out.value)[0] == "나래"
    inputs["dex_b"].value = -3
    assert "widget-error" in out.value and "DEX" in out.value and re.search("[가-힣]", out.value)
    inputs, out = _boxes(views.hp_widget())
    inputs["hp"].value = 30           # above the maximum HP 12
    assert "widget-error" in out.value and "현재 HP" in out.value
    inputs["hp"].value = 5
    inputs["max_hp"].value = 9
    states = uf.hit_hp_states("브로드 소드", 5, 9, "가죽 갑옷", "+1D4")
    assert all(shows_exact(p, out.value) for p in states.values())


def test_jupyter_first_aid_refuses_a_conscious_character():
    inputs, out = _boxes(views.first_aid_widget())
    inputs["hp"].value = 4
    assert "widget-error" in out.value and "현재 HP" in out.value
    inputs["hp"].value = -20
    inputs["attempts"].value = 10
    dist = uf.first_aid(-20, 60, 10)
    assert shows_exact(dist.at_least(1), out.value)


def test_jupyter_range_and_movement_free_values():
    inputs, out = _boxes(views.range_widget())
    inputs["weapon"].value = "권총"
    inputs["distance"].value = 115
    assert "닿지 않음" in out.value          # pistol: 50 m, twice is 100 m
    inputs["distance"].value = -5
    assert "widget-error" in out.value and "거리" in out.value
    inputs, out = _boxes(views.movement_widget())
    inputs["mov"].value = 7
    inputs["distance"].value = 21
    assert html.escape(labels.UF_MOVES[uf.movement(21, 7)]) in out.value


# --- tables from the library data, settings, worked examples, notebook -----------------------

def test_tables_are_rendered_from_the_library_data():
    melee = views.melee_table()
    assert [r[0] for r in melee.rows] == list(uf.MELEE_WEAPONS)
    assert [r[3] for r in melee.rows] == [w.damage for w in uf.MELEE_WEAPONS.values()]
    ranged = views.ranged_table()
    assert [(r[0], r[5], r[6]) for r in ranged.rows] == [
        (w.name, f"{w.range_m}m", f"{2 * w.range_m}m") for w in uf.RANGED_WEAPONS.values()]
    assert [r[1] for r in views.armor_table().rows] == [str(a.armor_value)
                                                        for a in uf.ARMOR.values()]
    assert [r[:3] for r in views.shield_table().rows] == [
        [s.name, s.shield_class, s.damage] for s in uf.SHIELDS.values()]
    assert re.search(r"<td[^>]*>판금 갑옷</td><td[^>]*>6</td>", views.armor_table()._repr_html_())
    assert "그레이트 소드" in repr(melee)


def test_settings_and_worked_examples():
    table = views.settings_table()
    assert [tuple(r) for r in table.rows] == uf.DEFAULT_SETTINGS.rows()
    assert "(가정)" in table._repr_html_()
    text = repr(views.worked_examples())
    assert "| 8" in text and "| −6" in text and "| 55" in text and "| 4" in text
    rows = views.outcome_legend().rows
    assert [r[0] for r in rows] == [views.HIT_SHORT[k] for k in uf.OUTCOME_LABELS]
    for (short, meaning), (key, label) in zip(rows, uf.OUTCOME_LABELS.items()):
        assert short != meaning                   # the meaning column never just repeats the name
        assert meaning == label or key in views._HIT_MEANING


def test_hp_widget_uses_the_walkthroughs_labels():
    from widgets.views import labels
    widget = views.hp_widget()
    text = widget.shown(**widget.defaults()).html
    assert all(label in text for label in labels.HP_STATES.values())


def test_notebook_shows_every_widget_once():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    uids = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            uids += re.findall(r'data-live="([^"]+)"', out.get("data", {}).get("text/html", ""))
    # the chapter's widgets, its duel (widgets.views.fights) and its worked round at the end
    # (widgets.views.worked)
    assert sorted(uids) == sorted([make().uid for make in views.ALL_WIDGETS]
                                  + [fights.duel_widget().uid, worked.uf_round_widget().uid])
    # every ## section holds at least one live widget
    section, seen = None, {}
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("## "):
                    section = line
                    seen[section] = 0
        elif section:
            seen[section] += sum('data-live="' in o.get("data", {}).get("text/html", "")
                                 for o in cell.get("outputs", []))
    # but the newcomer's sections (issue 29): the turn at a glance, the questions, the summary
    assert seen and all(n for head, n in seen.items()
                        if head not in ("## 한눈에 보기", "## 직접 해 보기", "## 정리")), seen
