"""Where a sweep's trials run: does one node fit a trial, how many trials the cluster holds, and waiting
for the nodes of a cluster that can grow.

A trial asks for one bundle ``{CPU: cpu, GPU: gpu}`` (``resources`` in the spec). Ray places a bundle on
one node, so what matters is whether some node fits it, not the cluster's total: two nodes with half a
GPU each hold no trial of one GPU. The slots of a node are how many bundles it holds at once,
``min over resources r of floor(node[r] / bundle[r])``; the cluster's slots are their sum.

A cluster the driver joined (``RAY_ADDRESS``, e.g. ``auto`` on a ``ray up`` head) can grow: its
autoscaler adds the node types it has when asked (``ray.autoscaler.sdk.request_resources``), and a
worker started by hand can join at any time. The driver then waits up to ``resources.wait`` seconds
for a node that fits a trial before it falls back to CPU (``gpu_fallback: cpu``) or stops with a
clear message. A Ray instance the driver started itself cannot grow: it decides at once.

A sweep's compute is counted in slot-seconds (``SlotMeter``): the slots of the nodes alive, sampled over
the sweep's life, so that a cluster that grows or shrinks counts the slots it had when it had them.

A pipeline's release (one per method and total ε) trains after every tuning trial of its method ended,
usually alone: it asks for the CPUs of every slot of the roomiest node (``release_cpu``) and the same
GPU share, so the cores its tuning trials used do not sit idle while it trains.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import ray
from ray.autoscaler.sdk import request_resources
from ray.tune import PlacementGroupFactory
from ray.tune.execution.placement_groups import resource_dict_to_pg_factory

from dptune.base.errors import InputError
from dptune.training.trial_status import route

Echo = Callable[[str], None]
Bundle = dict[str, float]

POLL_SECONDS = 1.0
STILL_WAITING_EVERY = 30.0
METER_SECONDS = 5.0


def describe(bundle: Bundle) -> str:
    """``1 CPU + 0.25 GPU``: a bundle as people read it."""
    return " + ".join(f"{amount:g} {name}" for name, amount in bundle.items() if amount > 0)


def alive_nodes() -> list[Bundle]:
    """The total resources of every alive node of the cluster (``ray.nodes()``)."""
    return [dict(node["Resources"]) for node in ray.nodes() if node["Alive"]]


def node_slots(node: Bundle, bundle: Bundle) -> int:
    """How many trials of ``bundle`` one node holds at once: min_r floor(node[r] / bundle[r])."""
    needed = {name: amount for name, amount in bundle.items() if amount > 0}
    # 1e-9: Ray keeps resources in fixed point (1/10000), so 1 / 0.1 must count 10, not 9.
    return min(math.floor(node.get(name, 0.0) / amount + 1e-9) for name, amount in needed.items())


def cluster_slots(bundle: Bundle) -> int:
    """Trials of ``bundle`` the alive nodes hold at once (each node counted on its own)."""
    return sum(node_slots(node, bundle) for node in alive_nodes())


def wait_for_a_node(bundle: Bundle, seconds: float, echo: Echo) -> bool:
    """Whether a node fits ``bundle``, after asking the autoscaler for one and waiting up to ``seconds``."""
    if cluster_slots(bundle) > 0:
        return True
    if seconds <= 0:
        return False
    request_resources(bundles=[bundle])
    started = time.monotonic()
    echo(
        f"waiting up to {seconds:g}s (resources.wait) for a Ray node that fits a trial ({describe(bundle)}); "
        "the cluster's autoscaler, if it has one, is asked for it"
    )
    said = started
    while (waited := time.monotonic() - started) < seconds:
        time.sleep(POLL_SECONDS)
        if cluster_slots(bundle) > 0:
            echo(f"a node that fits a trial joined after {time.monotonic() - started:.0f}s")
            return True
        if time.monotonic() - said >= STILL_WAITING_EVERY:
            said = time.monotonic()
            echo(f"  still waiting for a node with {describe(bundle)} ({waited:.0f}s of {seconds:g}s)")
    return cluster_slots(bundle) > 0


@dataclass(frozen=True)
class TrialResources:
    """What each trial gets, and how many trials the cluster held at once when the sweep started."""

    cpu: float
    gpu: float
    slots: int
    release_cpu: float  # a release's CPUs: ``cpu`` × the slots of the roomiest node

    @property
    def bundle(self) -> Bundle:
        return {"CPU": self.cpu, "GPU": self.gpu}

    def describe(self) -> str:
        return describe(self.bundle)


@dataclass(frozen=True)
class TrialPlacement:
    """The bundle each trial of a sweep asks for (``tune.with_resources``): a pipeline's release
    (``releases``: the sweep's ε includes the tuning) the CPUs of ``release_cpu``, every other trial
    ``cpu``; all the same GPU share. It holds only these: Tune exports it with the trainable to every
    node, where the sweep (its data, its private state and secret subset) must not go."""

    resources: TrialResources
    releases: bool

    def cpus(self, config: Mapping[str, Any]) -> float:
        """The CPUs of the trial of ``config`` (its trainable runs as many torch threads)."""
        release = self.releases and route(config).rerun
        return self.resources.release_cpu if release else self.resources.cpu

    def __call__(self, config: dict[str, Any]) -> PlacementGroupFactory:
        return resource_dict_to_pg_factory({"cpu": self.cpus(config), "gpu": self.resources.gpu})


def fitted(cpu: float, gpu: float) -> TrialResources:
    """The resources of trials of ``{CPU: cpu, GPU: gpu}`` on the alive nodes (at least one fits them):
    the slots of the cluster, and a release's CPUs, ``cpu × max over nodes of node_slots``."""
    per_node = [node_slots(node, {"CPU": cpu, "GPU": gpu}) for node in alive_nodes()]
    return TrialResources(cpu, gpu, sum(per_node), cpu * max(per_node))


def node_share(cpus: float) -> float:
    """The share of its node a trial of ``cpus`` CPUs holds, on the node this process runs on: ``cpus``
    over the node's CPUs, at most 1 (what its memory is sized to, ``dptune.engine.host_memory``)."""
    here = ray.get_runtime_context().get_node_id()
    node_cpus = next((n["Resources"].get("CPU", 0.0) for n in ray.nodes() if n["NodeID"] == here), 0.0)
    return min(1.0, cpus / node_cpus) if node_cpus > 0 else 1.0


def node_shapes() -> str:
    """The distinct CPU/GPU shapes of the alive nodes, for messages (``1 CPU; 4 CPU + 1 GPU``)."""
    nodes = alive_nodes()
    return "; ".join(sorted({describe({k: n.get(k, 0.0) for k in ("CPU", "GPU")}) or "none" for n in nodes}))


def trial_resources(cpu: float, gpu: float, fallback: str, wait: float, echo: Echo) -> TrialResources:
    """Each trial's CPUs and GPUs, once some node fits them (waiting ``wait`` seconds for one to join).

    GPU trials fall back to CPU only when no node with the GPU share came within the wait and the spec
    allows it (``fallback == "cpu"``). Raises ``InputError`` naming the field to change otherwise.
    """
    waited = f" after waiting {wait:g}s (resources.wait)" if wait > 0 else ""
    if gpu > 0:
        bundle = {"CPU": cpu, "GPU": gpu}
        if wait_for_a_node(bundle, wait, echo):
            return fitted(cpu, gpu)
        if fallback == "cpu" and cluster_slots({"CPU": cpu}) > 0:
            echo(
                f"note: no Ray node fits a trial of {describe(bundle)}{waited}; running trials on CPU "
                "(gpu_fallback: cpu)"
            )
            return fitted(cpu, 0.0)
        raise InputError(
            "resources.gpu",
            f"each trial asks for {describe(bundle)} but no node of the Ray cluster fits that{waited} "
            f"(nodes: {node_shapes()}); add GPU nodes, set resources.gpu: 0, or set "
            "resources.gpu_fallback: cpu",
        )
    if wait_for_a_node({"CPU": cpu}, wait, echo):
        return fitted(cpu, 0.0)
    raise InputError(
        "resources.cpu",
        f"each trial asks for {cpu:g} CPU but no node of the Ray cluster has that many{waited} "
        f"(nodes: {node_shapes()}); lower resources.cpu or add larger nodes",
    )


def ask_for_slots(bundle: Bundle, count: int) -> None:
    """Ask the autoscaler to fit ``count`` trials at once (persistent until the next call; 0 clears)."""
    request_resources(bundles=[bundle] * count)


class SlotMeter:
    """The slot-seconds of a sweep's life: how many trials of ``bundle`` the alive nodes hold
    (``cluster_slots``), sampled every ``every`` seconds in a thread, each sample counted until the next,
    so that a cluster that grows or shrinks counts the slots it had when it had them. ``fixed``: the slots
    of a Ray the driver started, which never change (no thread samples them)."""

    def __init__(self, bundle: Bundle, fixed: int | None, every: float = METER_SECONDS) -> None:
        self._bundle, self._every = bundle, every
        self._last = time.monotonic()
        self._slots = cluster_slots(bundle) if fixed is None else fixed
        self.seconds = 0.0
        self.fewest = self.most = self._slots
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        if fixed is None:
            self._thread = threading.Thread(target=self._sampling, daemon=True, name="dptune-slots")
            self._thread.start()

    def _count(self, slots: int) -> None:
        """Count the slots held since the last sample, and hold ``slots`` from now."""
        now = time.monotonic()
        with self._lock:
            self.seconds += self._slots * (now - self._last)
            self._last, self._slots = now, slots
            self.fewest, self.most = min(self.fewest, slots), max(self.most, slots)

    def _sampling(self) -> None:
        """Sample the cluster's slots every ``every`` seconds until ``stop``."""
        while not self._stopped.wait(self._every):
            try:
                slots = cluster_slots(self._bundle)
            except (ray.exceptions.RayError, ConnectionError):  # the head did not answer: keep the last
                continue
            self._count(slots)

    def stop(self) -> float:
        """End the count; the slot-seconds from the meter's start."""
        self._stopped.set()
        if self._thread is not None:
            self._thread.join()
        self._count(self._slots)
        return self.seconds
