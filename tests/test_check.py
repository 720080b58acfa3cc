"""``luckylab.check``: self-checking exercises from package data (issue 11).

Every kind of answer, the tolerance, the placeholder ``None``, wrong types, unknown ids with a
helpful message, and malformed answer files (read from a temporary folder standing in for the
package's ``data/answers``).
"""

from __future__ import annotations

import importlib
import types

import pytest

import luckylab
from luckylab.errors import LuckyLabError
from luckylab.lessons.exercises import (
    DEFAULT_TOLERANCE,
    Feedback,
    UnknownExercise,
    answer_key,
    check,
)

# luckylab.check is the function; its module is luckylab.lessons.exercises
check_module = importlib.import_module("luckylab.lessons.exercises")

ANSWERS = """
[answers."01.1"]
kind = "integer"
value = 21
hint = "count the spaces you can reach."

[answers."01.2"]
kind = "number"
value = 0.5
tolerance = 0.01
hint = "half of them."

[answers."01.3"]
kind = "number"
value = 0.25
hint = "a quarter."

[answers."01.4"]
kind = "text"
value = ["Frog Pond", "the frog pond"]
hint = "a wet place."

[answers."01.5"]
kind = "set"
value = ["Sunset Beach", "Sugar Farm", 3]
hint = "its neighbours."

[answers."01.6"]
kind = "sequence"
value = [1, 2, "Three"]
hint = "in path order."

[answers."03b.1"]
kind = "text"
value = "Player 1"
hint = "who went first?"
"""


@pytest.fixture
def answers_folder(tmp_path, monkeypatch):
    """A stand-in for luckylab/data/answers: write files into the returned folder."""
    folder = tmp_path / "data" / "answers"
    folder.mkdir(parents=True)
    monkeypatch.setattr(check_module, "resources",
                        types.SimpleNamespace(files=lambda package: tmp_path))
    answer_key.cache_clear()
    yield folder
    answer_key.cache_clear()


@pytest.fixture
def key(answers_folder):
    (answers_folder / "01.toml").write_text(ANSWERS, "utf-8")
    return answer_key()


def test_check_is_part_of_the_face_of_the_package():
    assert luckylab.check is check


def test_demo_answers_from_the_package():
    assert check("demo.1", 6).ok and str(check("demo.1", 6)) == "correct"
    assert not check("demo.1", 5)
    assert repr(check("demo.1", 5)) == "not yet: count the faces of one die."


@pytest.mark.parametrize("exercise, answer", [
    ("01.1", 21), ("01.1", 21.0), ("01.2", 0.5), ("01.2", 0.509), ("01.2", 0.491),
    ("01.2", 1 / 2), ("01.3", 0.25 + DEFAULT_TOLERANCE * 0.99), ("01.4", "Frog Pond"),
    ("01.4", "  frog   POND "), ("01.4", "The Frog Pond"), ("01.5", {"sugar farm", 3,
                                                                      "Sunset Beach"}),
    ("01.5", ["Sugar Farm", "Sunset Beach", 3, 3]), ("01.6", [1, 2, "three"]),
    ("01.6", (1, 2, "Three")), ("03b.1", "player 1"),
])
def test_correct_answers(key, exercise, answer):
    feedback = check(exercise, answer)
    assert feedback.ok and bool(feedback) and str(feedback) == "correct"
    assert feedback.exercise == exercise


@pytest.mark.parametrize("exercise, answer", [
    ("01.1", 20), ("01.1", 22), ("01.2", 0.52), ("01.2", 0.48),
    ("01.3", 0.25 + DEFAULT_TOLERANCE * 1.01), ("01.4", "Sunset Beach"),
    ("01.5", ["Sugar Farm", "Sunset Beach"]), ("01.6", [2, 1, "three"]), ("03b.1", "player 2"),
])
def test_wrong_answers_get_the_hint_and_never_the_answer(key, exercise, answer):
    feedback = check(exercise, answer)
    assert not feedback.ok
    assert str(feedback).startswith("not yet: ")
    assert key[exercise].hint.rstrip(".") in str(feedback)
    assert str(key[exercise].value) not in str(feedback)


def test_a_number_hint_states_the_tolerance(key):
    assert str(check("01.2", 0.7)) == "not yet: half of them (within 0.01)."
    assert str(check("01.3", 0.7)).endswith(f"(within {DEFAULT_TOLERANCE:g}).")


@pytest.mark.parametrize("placeholder", [None, ...])
def test_the_placeholder_is_not_answered_yet(key, placeholder):
    feedback = check("01.1", placeholder)
    assert not feedback.ok
    assert str(feedback) == "not answered yet: replace None with your answer."


@pytest.mark.parametrize("exercise, answer, says", [
    ("01.1", "21", "whole number"), ("01.1", 21.5, "whole number"), ("01.1", True, "whole"),
    ("01.1", False, "whole"), ("01.1", 21 + 0j, "whole"),
    ("01.2", "0.5", "is a number"), ("01.2", True, "is a number"),
    ("01.2", float("nan"), "finite"), ("01.2", float("inf"), "finite"),
    ("01.4", 3, "in quotes"), ("01.5", "Sugar Farm", "collection"), ("01.5", 3, "collection"),
    ("01.5", [["a"]], "plain names"), ("01.6", b"123", "collection"),
])
def test_wrong_types_say_what_kind_of_answer_is_wanted(key, exercise, answer, says):
    feedback = check(exercise, answer)
    assert not feedback.ok and says in str(feedback)


def test_an_unknown_id_lists_the_lessons_checks(key):
    with pytest.raises(UnknownExercise, match=r"no exercise '01\.9' has a check; exercises with "
                                              r"checks: 01\.1, 01\.2, 01\.3, 01\.4"):
        check("01.9", 3)
    with pytest.raises(UnknownExercise, match="01.1"):  # another lesson: some known ids
        check("77.1", 3)
    with pytest.raises(LuckyLabError, match="a string such as '04.1'"):
        check(4.1, 3)
    error = UnknownExercise("x")
    assert isinstance(error, KeyError) and str(error) == "x"


def test_feedback_is_a_value():
    feedback = Feedback("01.1", True, "correct")
    assert feedback == Feedback("01.1", True, "correct")
    with pytest.raises(AttributeError):
        feedback.ok = False


MALFORMED = {
    "not toml": ("[answers.", "not valid TOML"),
    "unknown top level": ('[other]\nx = 1', "unknown top-level keys"),
    "bad id": ('[answers."lesson4"]\nkind = "integer"\nvalue = 1\nhint = "h"', "looks like"),
    "not a table": ('answers = {"04.1" = 3}', "must be a table"),
    "unknown key": ('[answers."04.1"]\nkind = "integer"\nvalue = 1\nhint = "h"\nanswer = 2',
                    "unknown keys"),
    "bad kind": ('[answers."04.1"]\nkind = "float"\nvalue = 1\nhint = "h"', "kind must be"),
    "no hint": ('[answers."04.1"]\nkind = "integer"\nvalue = 1', "hint must be"),
    "empty hint": ('[answers."04.1"]\nkind = "integer"\nvalue = 1\nhint = " "', "hint must be"),
    "integer not int": ('[answers."04.1"]\nkind = "integer"\nvalue = 1.5\nhint = "h"',
                        "must be an integer"),
    "integer bool": ('[answers."04.1"]\nkind = "integer"\nvalue = true\nhint = "h"',
                     "must be an integer"),
    "number text": ('[answers."04.1"]\nkind = "number"\nvalue = "1"\nhint = "h"',
                    "must be a number"),
    "negative tolerance": ('[answers."04.1"]\nkind = "number"\nvalue = 1\nhint = "h"\n'
                           'tolerance = -1', "tolerance must be"),
    "infinite tolerance": ('[answers."04.1"]\nkind = "number"\nvalue = 1\nhint = "h"\n'
                           'tolerance = inf', "tolerance must be"),
    "tolerance on integer": ('[answers."04.1"]\nkind = "integer"\nvalue = 1\nhint = "h"\n'
                             'tolerance = 1', "only for kind = 'number'"),
    "text list of numbers": ('[answers."04.1"]\nkind = "text"\nvalue = [1]\nhint = "h"',
                             "string or a list of strings"),
    "empty text list": ('[answers."04.1"]\nkind = "text"\nvalue = []\nhint = "h"',
                        "string or a list of strings"),
    "set not list": ('[answers."04.1"]\nkind = "set"\nvalue = "ab"\nhint = "h"',
                     "must be a list"),
    "mistakes not a list": ('[answers."04.1"]\nkind = "integer"\nvalue = 1\nhint = "h"\n'
                            'mistakes = 2', "mistakes must be a list"),
    "mistake without message": ('[answers."04.1"]\nkind = "integer"\nvalue = 1\nhint = "h"\n'
                                '[[answers."04.1".mistakes]]\nvalue = 2',
                                "exactly 'value' and 'message'"),
    "mistake empty message": ('[answers."04.1"]\nkind = "integer"\nvalue = 1\nhint = "h"\n'
                              '[[answers."04.1".mistakes]]\nvalue = 2\nmessage = " "',
                              "message must be"),
    "mistake of another kind": ('[answers."04.1"]\nkind = "integer"\nvalue = 1\nhint = "h"\n'
                                '[[answers."04.1".mistakes]]\nvalue = "2"\nmessage = "m"',
                                "answer's kind"),
    "mistake the check accepts": ('[answers."04.1"]\nkind = "number"\nvalue = 0.5\nhint = "h"\n'
                                  '[[answers."04.1".mistakes]]\nvalue = 0.503\nmessage = "m"',
                                  "accepts this value"),
    "mistake gives the answer": ('[answers."04.1"]\nkind = "integer"\nvalue = 17\n'
                                 'hint = "h"\n[[answers."04.1".mistakes]]\nvalue = 2\n'
                                 'message = "it is 17"', "give the answer away"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_answer_files_are_clear_errors(answers_folder, name):
    text, says = MALFORMED[name]
    (answers_folder / "04.toml").write_text(text, "utf-8")
    with pytest.raises(LuckyLabError, match=says) as info:
        answer_key()
    assert "answers/04.toml" in str(info.value)


def test_an_exercise_defined_twice_is_an_error(answers_folder):
    entry = '[answers."04.1"]\nkind = "integer"\nvalue = 1\nhint = "h"\n'
    (answers_folder / "04.toml").write_text(entry, "utf-8")
    (answers_folder / "05.toml").write_text(entry, "utf-8")
    with pytest.raises(LuckyLabError, match="defined twice"):
        answer_key()


def test_a_file_that_is_not_utf8_is_an_error(answers_folder):
    (answers_folder / "04.toml").write_bytes(b'hint = "\xff"')
    with pytest.raises(LuckyLabError, match="not valid TOML"):
        answer_key()


def test_other_files_in_the_folder_are_ignored(answers_folder):
    (answers_folder / "README.md").write_text("# not an answer file", "utf-8")
    (answers_folder / "04.toml").write_text(
        '[answers."04.1"]\nkind = "integer"\nvalue = 1\nhint = "h"\n', "utf-8")
    assert list(answer_key()) == ["04.1"]


# -- a common wrong answer gets a message of its own (issue 38) -------------------------------


def test_a_common_mistake_gets_its_message_instead_of_the_hint(answers_folder):
    (answers_folder / "04.toml").write_text(
        '[answers."04.1"]\nkind = "number"\nvalue = 0.25\ntolerance = 0.01\nhint = "a quarter."\n'
        '[[answers."04.1".mistakes]]\nvalue = 0.5\nmessage = "that counts both halves."\n'
        '[answers."04.2"]\nkind = "text"\nvalue = "Frog Pond"\nhint = "a wet place."\n'
        '[[answers."04.2".mistakes]]\nvalue = "Sunset Beach"\nmessage = "dry sand."\n',
        "utf-8")
    assert check("04.1", 0.25).ok
    assert str(check("04.1", 0.505)) == "not yet: that counts both halves."   # its tolerance
    assert str(check("04.1", 0.7)) == "not yet: a quarter (within 0.01)."
    assert str(check("04.2", " sunset  BEACH")) == "not yet: dry sand."
    assert str(check("04.2", "Salient Point")) == "not yet: a wet place."


def test_lesson_12_exercise_2_accepts_the_right_strategys_pass_rate_and_explains_two_thirds():
    """Player 2's pass rate at luck cost 1/6: asked holding 3 or more in 52 of the 120 deals
    (Player 1 pays only with the 3), passing in the 32 with the 4 or the 5."""
    from fractions import Fraction

    from luckylab.analysis.cfr import CFR, nash_conv, purified
    from luckylab.analysis.hidden_foil import HiddenFoil

    dear = HiddenFoil(attack=3, foilers=3, deck=(0, 1, 2, 3, 4, 5), hand_size=1,
                      luck_cost=Fraction(1, 6))
    solver = CFR(dear, plus=True)
    solver.run(200)
    profile = purified(solver.average_strategy())
    assert nash_conv(solver.root, profile, dear.num_players) == 0
    assert {h[0] for h in dear.decisions(1) if profile[(1, h)]["pass"]} == {4, 5}
    rate = dear.pass_rate(profile, 1)
    assert rate == Fraction(32, 52) == Fraction(8, 13)
    for right in (rate, Fraction(8, 13), 8 / 13, 0.615):
        assert check("12.2", right).ok, right
    for wrong in (Fraction(2, 3), 2 / 3, 0.667):
        feedback = check("12.2", wrong)
        assert not feedback.ok
        assert "counts only the deals in which she is asked" in str(feedback)
        assert "8/13" not in str(feedback) and "0.615" not in str(feedback)
    stale = check("12.2", Fraction(4, 13))          # the pass rate at luck cost 1/8
    assert not stale.ok and "Fraction(1, 6)" in str(stale)
    assert not check("12.2", 1 / 3).ok
