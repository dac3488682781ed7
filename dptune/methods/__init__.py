"""DP methods as compositions of stages: per-sample signal -> privatize -> post-processing -> update."""

from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.registry import METHODS, get_method
from dptune.methods.stages import (
    Method,
    PerSampleSignal,
    PostProcessing,
    Privatize,
    StageOrderError,
    Update,
    chain,
)

__all__ = [
    "METHODS",
    "Hyper",
    "Method",
    "MethodDefinition",
    "PerSampleSignal",
    "PostProcessing",
    "Privatize",
    "StageOrderError",
    "Update",
    "chain",
    "get_method",
]
