"""The text datasets by name, without torch or ``datasets``: GLUE's tasks and the user's files
(``dptune.engine.text`` loads them; ``dptune.engine.data`` lists them beside the image datasets)."""

from __future__ import annotations

from typing import NamedTuple


class GlueTask(NamedTuple):
    """A GLUE task (Wang et al. 2019) as ``datasets`` holds it (``nyu-mll/glue``)."""

    task: str
    columns: tuple[str, str | None]
    held_out_split: str
    classes: int
    published_train_size: int


GLUE_TASKS: dict[str, GlueTask] = {
    "glue-sst2": GlueTask("sst2", ("sentence", None), "validation", 2, 67_349),
    "glue-qnli": GlueTask("qnli", ("question", "sentence"), "validation", 2, 104_743),
    "glue-mnli": GlueTask("mnli", ("premise", "hypothesis"), "validation_matched", 3, 392_702),
    "glue-qqp": GlueTask("qqp", ("question1", "question2"), "validation", 2, 363_846),
}
"""GLUE tasks by name: the task, its text column(s), the labelled split held out, its classes, and its
published training size."""
TEXT_DATASETS = (*GLUE_TASKS, "text")
"""Text datasets (``dptune.engine.text``): the GLUE tasks, and the user's files (``text``)."""
TEXT_ARGS = (
    "train",
    "held_out",
    "text",
    "text_pair",
    "label",
    "num_classes",
    "max_length",
    "tokenizer",
    "tokenizer_revision",
)
"""What ``dataset.args`` of ``text`` may give (``tokenizer`` and its revision: the model's, filled in)."""
