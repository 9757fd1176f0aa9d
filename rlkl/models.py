"""Typed models of a lesson and of the lesson catalog — the one source of truth.

``schema/lesson.schema.json`` and ``schema/catalog.schema.json`` are generated from these
models (``python -m rlkl.schema``). Attribute names are the JSON member names (camelCase),
so a model reads like the file it describes. Rules JSON Schema cannot express (a check's
``answer`` must index an option, options must differ, ...) are validators here; each raises
a :class:`~pydantic_core.PydanticCustomError` whose type is its stable diagnostic code and
whose context carries ``at``, the JSON pointer of the offending value relative to the model.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic import model_validator as _model_validator
from pydantic_core import PydanticCustomError

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
URL_PATTERN = r"^https?://[^\s]+$"
DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}$"
ARXIV_PATTERN = r"^\d{4}\.\d{4,5}$"
VERSION_PATTERN = r"^v\d+$"
WORKSTREAM_PATTERN = r"^W\d+$"

Text = Annotated[str, StringConstraints(min_length=1)]


class ProseMark:
    """Marks a string field as prose: every number written in it is a numeric claim, checked
    or exempt (:func:`rlkl.claims.prose.fields.prose_strings` finds the fields by this mark)."""

    def __repr__(self) -> str:
        return "PROSE"


PROSE = ProseMark()
Prose = Annotated[str, StringConstraints(min_length=1), PROSE]
"""Text whose numbers are claims; an identifier, a title of a cited work or LaTeX is ``Text``."""
Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN)]
Url = Annotated[str, StringConstraints(pattern=URL_PATTERN)]
IsoDate = Annotated[str, StringConstraints(pattern=DATE_PATTERN)]
Year = Annotated[int, Field(ge=1900, le=2100)]


def rule(code: str, at: str, message: str) -> PydanticCustomError:
    """A model-rule violation with its stable ``code`` at relative pointer ``at``."""
    return PydanticCustomError(code, "{message}", {"at": at, "message": message})


def _first_repeat(items: Sequence[str], normalise: bool = False) -> int | None:
    seen: set[str] = set()
    for index, item in enumerate(items):
        key = " ".join(item.split()).casefold() if normalise else item
        if key in seen:
            return index
        seen.add(key)
    return None


def _real_date(value: str) -> str:
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise rule("RLKL211", "", f'"{value}" is not a real calendar date (YYYY-MM-DD)') from None
    return value


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Spec(_Closed):
    """One labelled fact shown in the lesson's specification panel."""

    label: Prose = Field(title="Label", description="Short name of the fact, e.g. 'Learning mode'.")
    value: Prose = Field(title="Value", description="The fact itself.")
    context: Prose | None = Field(None, title="Context", description="Why the fact matters.")


class Interface(_Closed):
    """What flows into or out of the lesson's mechanism."""

    name: Prose = Field(title="Name", description="Name of the input or output.")
    direction: Literal["in", "out"] = Field(
        examples=["in"],
        title="Direction", description="'in' for an input or state, 'out' for a result.")
    signal: Prose = Field(title="Signal", description="What the signal carries.")


class Check(_Closed):
    """The multiple-choice check question; answer is the 0-based index of the key."""

    question: Prose = Field(title="Question", description="The question put to the learner.")
    options: list[Prose] = Field(
        min_length=2, title="Options", description="Answer options, each with its reason.")
    answer: int = Field(
        ge=0, title="Answer", description="0-based index of the correct option.", examples=[0])
    explanation: Prose = Field(title="Explanation", description="Why the keyed option is right.")

    @_model_validator(mode="after")
    def _answer_and_options(self) -> Check:
        if self.answer >= len(self.options):
            raise rule("RLKL208", "/answer",
                       f"answer {self.answer} does not index an option: there are "
                       f"{len(self.options)} options, numbered 0 to {len(self.options) - 1}")
        repeat = _first_repeat(self.options, normalise=True)
        if repeat is not None:
            raise rule("RLKL209", f"/options/{repeat}",
                       f"option {repeat} repeats an earlier option; every option must differ")
        return self


class Source(_Closed):
    """A primary source the lesson rests on."""

    title: Text = Field(title="Title", description="Title of the work.")
    url: Url = Field(
        title="URL", description="http(s) link to the work.",
        examples=["https://arxiv.org/abs/1707.06347"])
    authors: Text | None = Field(None, title="Authors", description="e.g. 'Schulman et al.'.")
    year: Year | None = Field(None, title="Year", description="Year of first publication.")
    version: Annotated[str, StringConstraints(pattern=VERSION_PATTERN)] | None = Field(
        None, title="Version", description="Pinned version of the work, e.g. 'v1'.")


class Science(_Closed):
    """A worked relation: an equation and the explanation that works it."""

    title: Prose = Field(title="Title", description="Heading of the relation.")
    equation: Text = Field(
        title="Equation",
        description="The relation in LaTeX; each relation (lhs = rhs) is checked against "
        "rlkl.core or exempt in claims.yaml (equations:).",
        examples=[r"r=\frac{\pi_{new}(a\mid s)}{\pi_{old}(a\mid s)}"])
    explanation: Prose = Field(title="Explanation", description="The relation worked in prose.")
    assumptions: Prose | None = Field(
        None, title="Assumptions", description="What the relation assumes.")


class HistoryEntry(_Closed):
    """One dated editorial change of the lesson."""

    date: IsoDate = Field(title="Date", description="Date of the change, YYYY-MM-DD.")
    change: Text = Field(title="Change", description="What changed and why.")

    @field_validator("date")
    @classmethod
    def _real(cls, value: str) -> str:
        return _real_date(value)


class Paper(_Closed):
    """The paper a lesson page analyses."""

    title: Text = Field(title="Title", description="Title of the paper.")
    authors: Text = Field(title="Authors", description="Authors as cited, e.g. 'Schulman et al.'.")
    arxiv: Annotated[str, StringConstraints(pattern=ARXIV_PATTERN)] = Field(
        title="arXiv id", description="arXiv identifier without version, e.g. '1707.06347'.")
    version: Annotated[str, StringConstraints(pattern=VERSION_PATTERN)] | None = Field(
        None, title="Version", description="Pinned arXiv version, e.g. 'v1'.")
    year: Year = Field(title="Year", description="Year of the first arXiv submission.")
    url: Url = Field(title="URL", description="http(s) link to the paper.")
    checked: IsoDate = Field(
        title="Checked", description="Date the source was last checked, YYYY-MM-DD.")

    @field_validator("checked")
    @classmethod
    def _real(cls, value: str) -> str:
        return _real_date(value)


class Contract(_Closed):
    """The learning contract: understand, implement, investigate."""

    goal: Prose = Field(title="Goal", description="What the learner can do afterwards.")
    understand: Prose = Field(title="Understand", description="What to be able to state.")
    implement: Prose = Field(title="Implement", description="What to reproduce.")
    investigate: Prose = Field(title="Investigate", description="What to test further.")


class Symbol(_Closed):
    """One row of the symbol table."""

    symbol: Text = Field(title="Symbol", description="The symbol as written, e.g. 'ρ'.")
    meaning: Prose = Field(title="Meaning", description="What the symbol denotes.")


class Experiment(_Closed):
    """How to design and report an experiment on the mechanism."""

    design: Prose = Field(title="Design", description="The experiment to run.")
    reporting: Prose = Field(title="Reporting", description="What to record and report.")


class ReviewerQuestion(_Closed):
    """A reviewer question with its answer."""

    question: Prose = Field(title="Question", description="The question a reviewer asks.")
    answer: Prose = Field(title="Answer", description="The answer.")


class Limits(_Closed):
    """Limits of the mechanism and reviewer questions."""

    caution: Prose = Field(title="Caution", description="The editorial caution.")
    questions: list[ReviewerQuestion] = Field(
        default_factory=list, title="Questions", description="Reviewer questions and answers.")


class Lesson(_Closed):
    """One lesson: prose, worked relations, a check question and its sources."""

    model_config = ConfigDict(title="rlkl lesson")

    schema_: str | None = Field(
        None, alias="$schema", title="JSON Schema",
        description="The lesson schema this file follows, for editor completion and hover "
        "docs (a relative path or URL); rlkl itself ignores it.",
        examples=["../../schema/lesson.schema.json"])
    id: Slug = Field(
        title="Id", description="Lesson id; equals the lesson's folder name.",
        examples=["ppo-clipped-objective"])
    name: Prose = Field(title="Name", description="Title of the lesson.")
    shortName: Prose | None = Field(None, title="Short name", description="Short title.")
    tagline: Prose | None = Field(None, title="Tagline", description="One-line subtitle.")
    role: Prose | None = Field(None, title="Role", description="The lesson's role in one line.")
    description: Prose = Field(title="Description", description="What the lesson covers.")
    paper: Paper | None = Field(None, title="Paper", description="The paper the page analyses.")
    establishes: Prose | None = Field(
        None, title="What the paper establishes",
        description="Paper claims only, kept apart from synthetic examples.")
    contract: Contract | None = Field(
        None, title="Learning contract", description="Understand, implement, investigate.")
    mechanism: list[Prose] = Field(
        min_length=1, title="Mechanism", description="The mechanism as ordered steps.")
    symbols: list[Symbol] = Field(
        default_factory=list, title="Symbols", description="The symbol table.")
    derivation: list[Prose] = Field(
        default_factory=list, title="Derivation", description="Worked derivation steps.")
    learningObjective: Prose = Field(
        title="Learning objective", description="What the learner should be able to do.")
    engineeringExample: Prose = Field(
        title="Engineering example", description="The worked numeric example in prose.",
        examples=["With old probability 0.5 and current probability 0.6, the ratio is 1.2."])
    evidenceNotes: Prose | None = Field(
        None, title="Evidence notes", description="Mode of evidence and its scope.")
    specs: list[Spec] = Field(
        default_factory=list, title="Specs", description="Labelled facts about the lesson.")
    interfaces: list[Interface] = Field(
        default_factory=list, title="Interfaces", description="Inputs and outputs.")
    tradeoff: Prose | None = Field(None, title="Trade-off", description="The main trade-off.")
    whyAI: Prose | None = Field(None, title="Why it matters for AI", description="Motivation.")
    misconception: Prose | None = Field(
        None, title="Misconception", description="A common mistake, stated and refuted.")
    check: Check = Field(title="Check", description="The check question.")
    experiment: Experiment | None = Field(
        None, title="Experiment", description="Experiment design and reporting.")
    limits: Limits | None = Field(
        None, title="Limits", description="Limits and reviewer questions.")
    prerequisites: list[Slug] = Field(
        title="Prerequisites", description="Ids of lessons to study first.",
        examples=[["policy-gradient-kl-control"]])
    related: list[Slug] = Field(title="Related", description="Ids of related lessons.")
    sources: list[Source] = Field(
        min_length=1, title="Sources", description="Primary sources, http(s) only.")
    level: Slug | None = Field(None, title="Level", description="Level of the lesson.")
    scale: Prose | None = Field(None, title="Scale", description="Scale the lesson works at.")
    kind: Slug | None = Field(None, title="Kind", description="Kind of lesson.")
    branch: Slug | None = Field(None, title="Branch", description="Curriculum branch id.")
    subbranch: Prose | None = Field(None, title="Sub-branch", description="Curriculum sub-branch.")
    workstream: Annotated[str, StringConstraints(pattern=WORKSTREAM_PATTERN)] | None = Field(
        None, title="Workstream", description="Workstream label, e.g. 'W11'.")
    visualFamily: Slug | None = Field(
        None, title="Visual family", description="Family of visual used on the page.")
    labId: Slug | None = Field(None, title="Lab id", description="Id of the linked lab.")
    labScope: Prose | None = Field(None, title="Lab scope", description="What the lab covers.")
    science: list[Science] = Field(
        min_length=1, title="Science", description="Worked relations with equations.")
    history: list[HistoryEntry] = Field(
        default_factory=list, title="History", description="Dated editorial changes.")

    @field_validator("prerequisites", "related")
    @classmethod
    def _no_repeats(cls, ids: list[str]) -> list[str]:
        repeat = _first_repeat(ids)
        if repeat is not None:
            raise rule("RLKL210", f"/{repeat}", f'"{ids[repeat]}" is listed twice')
        return ids


class CatalogEntry(_Closed):
    """A lesson the curriculum plans or publishes."""

    id: Slug = Field(title="Id", description="Lesson id (the lesson's folder name).")
    title: Text = Field(title="Title", description="Title of the lesson.")
    status: Literal["published", "planned"] = Field(
        examples=["published"],
        title="Status",
        description="'published': a lesson file exists in the corpus; 'planned': not yet.")
    summary: Text | None = Field(None, title="Summary", description="One-line summary.")
    branch: Slug | None = Field(
        None, title="Branch", description="Curriculum branch id (a published lesson's own branch).")
    subbranch: Text | None = Field(
        None, title="Sub-branch",
        description="Curriculum sub-branch: lessons in one sub-branch form a step of the path.")


class Catalog(_Closed):
    """The catalog of planned and published lessons (content/catalog.json)."""

    model_config = ConfigDict(title="rlkl lesson catalog")

    schema_: str | None = Field(
        None, alias="$schema", title="JSON Schema",
        description="The catalog schema this file follows, for editor completion; rlkl "
        "ignores it.", examples=["../schema/catalog.schema.json"])
    lessons: list[CatalogEntry] = Field(
        title="Lessons", description="Every lesson id a reference may name.")

    @field_validator("lessons")
    @classmethod
    def _unique_ids(cls, entries: list[CatalogEntry]) -> list[CatalogEntry]:
        repeat = _first_repeat([entry.id for entry in entries])
        if repeat is not None:
            raise rule("RLKL308", f"/{repeat}/id",
                       f'catalog lists "{entries[repeat].id}" twice')
        return entries
