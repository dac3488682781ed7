"""What a run computes with: datasets (``data``), fixed feature transforms (``features``), per-sample
gradient engines (``persample``) and a GPU share as a memory cap (``gpu_memory``)."""
