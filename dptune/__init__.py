"""dptune: differentially private optimizers, exact to their papers, tuned under a fixed (ε, δ)."""

__version__ = "0.1.0"
