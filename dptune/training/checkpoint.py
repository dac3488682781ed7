"""A trainer's checkpoint in a folder: its whole state (``Trainer.state_dict``) in one file, written by a
trial after each epoch and read back to continue exactly where it stopped, on any device."""

from __future__ import annotations

from pathlib import Path

import torch

from dptune.training.train import Trainer

STATE_FILE = "trainer_state.pt"
"""The file in a checkpoint folder that holds the trainer's state."""


def save_checkpoint(trainer: Trainer, folder: Path) -> None:
    """Write ``trainer``'s state into ``folder`` (``STATE_FILE``)."""
    torch.save(trainer.state_dict(), folder / STATE_FILE)


def load_checkpoint(trainer: Trainer, folder: Path) -> None:
    """Continue ``trainer`` from the checkpoint in ``folder``, saved on any device: every tensor is read
    onto the CPU first (``map_location``), so a GPU checkpoint loads where no GPU is and the generator
    states stay the CPU byte tensors ``set_state`` takes; ``Trainer.load_state_dict`` moves the rest."""
    trainer.load_state_dict(torch.load(folder / STATE_FILE, map_location="cpu", weights_only=False))
