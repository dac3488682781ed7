"""Privacy accounting: ε spent by a run, and noise calibration for a fixed (ε, δ)."""

from dptune.privacy.accounting import ACCOUNTANTS, Accountant, make_accountant
from dptune.privacy.calibration import Calibration, calibrate_noise

__all__ = ["ACCOUNTANTS", "Accountant", "Calibration", "calibrate_noise", "make_accountant"]
