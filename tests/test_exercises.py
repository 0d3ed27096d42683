"""The exercises: numbered 1, 2, 3, ... in lesson order, each answered in its lesson's key,
and shown on the site (docs/exercises.md is filled from examples/EXERCISES.md)."""

from __future__ import annotations

import importlib.util
import re

from tests.helpers import ROOT

EXERCISES = ROOT / "examples" / "EXERCISES.md"
KEYS = ROOT / "examples" / "solutions"
DOCS = ROOT / "docs"


def by_lesson() -> dict[str, list[int]]:
    """Lesson number -> the exercise numbers under its heading, in document order."""
    found: dict[str, list[int]] = {}
    lesson = None
    for line in EXERCISES.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"## Lesson (\d\d)\b", line)
        if heading:
            lesson = heading.group(1)
            found.setdefault(lesson, [])
        item = re.match(r"(\d+)\. ", line)
        if item and lesson:
            found[lesson].append(int(item.group(1)))
    return found


def test_exercises_are_numbered_in_lesson_order() -> None:
    lessons = by_lesson()
    assert list(lessons) == sorted(lessons), "lessons out of order"
    numbers = [number for each in lessons.values() for number in each]
    assert numbers == list(range(1, len(numbers) + 1)), numbers


def test_every_key_answers_the_exercises_of_its_own_lesson() -> None:
    lessons = by_lesson()
    for key in sorted(KEYS.glob("lesson*.py")):
        lesson = key.stem.removeprefix("lesson")
        answered = {int(n) for n in re.findall(r"^# Exercise (\d+):", key.read_text(), re.M)}
        stated = re.search(r"exercises (\d+)-(\d+) of EXERCISES.md", key.read_text())
        if stated:
            low, high = map(int, stated.groups())
            assert list(range(low, high + 1)) == lessons[lesson], f"{key.name}: {stated.group(0)}"
        assert answered <= set(lessons[lesson]), f"{key.name} answers {sorted(answered)}"


def test_the_docs_name_exercises_that_exist_under_the_right_lesson() -> None:
    """ "exercises 35-38" in docs/domination.md must still be lesson 11's after a renumbering."""
    lessons = by_lesson()
    total = sum(len(each) for each in lessons.values())
    for page in sorted(DOCS.glob("*.md")):
        for low, high in re.findall(r"[Ee]xercises? (\d+)(?:-(\d+))?\b", page.read_text()):
            assert 1 <= int(low) <= int(high or low) <= total, f"{page.name}: exercise {low}"
    propagation = (DOCS / "course-propagation.md").read_text()
    assert f"exercises {lessons['08'][0]}-{lessons['08'][-1]}" in propagation
    domination = (DOCS / "domination.md").read_text()
    assert f"exercises {lessons['11'][0]}-{lessons['11'][-1]}" in domination


def hook():
    spec = importlib.util.spec_from_file_location("lessons_hook", DOCS / "_hooks" / "lessons.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_shows_every_exercise_with_no_link_that_leads_nowhere() -> None:
    page = hook().exercises()
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", page, re.M)]
    assert numbers == [n for each in by_lesson().values() for n in each]
    links = re.findall(r"\]\(([^)]+)\)", page)
    assert links, "each lesson heading links to its page"
    for target in links:
        assert target.startswith(("http", "#", "notebooks/")), target
        if target.startswith("notebooks/"):
            assert (ROOT / "examples" / target).is_file(), target
    assert "<!-- exercises -->" in (DOCS / "exercises.md").read_text()
    assert not page.startswith("# ")  # the page has its own title


def test_the_week_plan_covers_every_lesson_and_exercise() -> None:
    plan = (DOCS / "week-plan.md").read_text()
    lessons = by_lesson()
    for notebook in sorted((ROOT / "examples" / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        assert f"notebooks/{notebook.name}" in plan, f"the plan leaves out {notebook.name}"
    sessions = [line for line in plan.splitlines() if re.match(r"\| (\d|lab) \|", line)]
    last_cells = [line.rstrip(" |").rsplit("|", 1)[1] for line in sessions]
    found = [m for cell in last_cells for m in re.findall(r"(\d+)(?:-(\d+))?", cell)]
    ranges = [(int(a), int(b or a)) for a, b in found]  # "15-23", or one exercise: "39"
    covered = sorted({n for low, high in ranges for n in range(low, high + 1)})
    assert covered == list(range(1, sum(map(len, lessons.values())) + 1))
    assert "--task dominate" in plan and "cp-queens grade" in plan  # both assignments


def test_the_site_keeps_the_exercise_numbers() -> None:
    """Markdown restarts every numbered list at 1 unless ``sane_lists`` is on: lesson 06's
    exercise 15 would show as 1."""
    import markdown
    import yaml

    class Loader(yaml.SafeLoader):  # mkdocs.yml has !ENV and !!python/name tags
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)
    names = [e if isinstance(e, str) else next(iter(e)) for e in config["markdown_extensions"]]
    assert "sane_lists" in names
    html = markdown.markdown(hook().exercises(), extensions=["sane_lists"])
    starts = [int(n) for n in re.findall(r'<ol start="(\d+)">', html)]
    firsts = [each[0] for each in by_lesson().values()] + [19]  # 19: the blocked squares
    assert sorted(starts) == sorted(n for n in firsts if n != 1)
    assert "<ol>" in markdown.markdown(hook().exercises())  # the test can fail
