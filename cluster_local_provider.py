"""The rehearsal's node provider (``cluster-local.yaml``): Ray's fake multi-node provider, each worker node
with a runtime-environment folder of its own, as each node of a real cluster has on its own disk.

The fake provider starts every node in the head's session folder, so by default all share one
``runtime_resources``. A node's runtime-environment agent unpacks a submitted job's working directory the
first time the node needs it, removing any unpacked copy first (Ray's ``download_and_unpack_package`` with
``overwrite=True``). A worker node that joined while another node's trial processes were starting in that
copy (their current directory) took it from under them: they died as they started (``Intel oneMKL FATAL
ERROR: Cannot load libtorch_cpu.so``, or an error in the actor's creation, which Tune counts as a failure),
which no real cluster does. Here worker node ``n`` takes ``runtime_resources_n``.

``cluster_local.py up`` puts this folder on the head's ``PYTHONPATH``, where Ray's autoscaler imports the
class (``provider.type: external``).
"""

from __future__ import annotations

import itertools
import threading
from typing import Any

import ray._private.ray_constants as ray_constants
from ray.autoscaler._private.fake_multi_node.node_provider import FakeMultiNodeProvider


class SeparateRuntimeFolders(FakeMultiNodeProvider):
    """``FakeMultiNodeProvider`` whose worker nodes each unpack runtime environments in their own folder."""

    _numbers = itertools.count(1)
    _naming = threading.Lock()

    def _create_node_with_resources_and_labels(
        self,
        node_config: dict[str, Any],
        tags: dict[str, str],
        count: int,
        resources: dict[str, float],
        labels: dict[str, str],
    ) -> None:
        # Ray's node takes its folder's name from this default as the node's parameters are made (RayParams)
        with self._naming:
            shared = ray_constants.DEFAULT_RUNTIME_ENV_DIR_NAME
            ray_constants.DEFAULT_RUNTIME_ENV_DIR_NAME = f"{shared}_{next(self._numbers)}"
            try:
                super()._create_node_with_resources_and_labels(node_config, tags, count, resources, labels)
            finally:
                ray_constants.DEFAULT_RUNTIME_ENV_DIR_NAME = shared
