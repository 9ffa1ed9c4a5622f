"""Runs ray_selfplay.py's work on a local three-node Ray cluster and checks that the
summary equals a single-process run with the same seeds.

Run it inside a private network namespace so that Ray's traffic stays on loopback
(Ray otherwise binds the machine's own address)::

    unshare --net sh -c 'ip link set lo up && python examples/python/ray_cluster_check.py'

Needs ``ray`` and the ``tabletop`` wheel installed. Exits non-zero on a mismatch.
"""

import json
import os
import sys

import ray
from ray.cluster_utils import Cluster

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ray_selfplay  # noqa: E402


def main():
    args = ray_selfplay.parser().parse_args(["--tasks", "6", "--games", "2", "--puzzles", "2"])
    local = ray_selfplay.run_local(args)
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False, "node_ip_address": "127.0.0.1"},
    )
    try:
        for _ in range(2):
            cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        nodes = [n for n in ray.nodes() if n["Alive"]]
        distributed = ray_selfplay.run_ray(args, ray)
    finally:
        ray.shutdown()
        cluster.shutdown()
    used = distributed.pop("nodes_used")
    print(json.dumps({"alive_nodes": len(nodes), "nodes_used": used, "summary": distributed}, indent=1))
    if len(nodes) != 3:
        sys.exit(f"expected 3 nodes, found {len(nodes)}")
    if used < 2:
        sys.exit(f"the tasks ran on {used} node(s): the cluster was not used")
    if distributed != local:
        sys.exit(f"the cluster's summary differs from the single-process run:\n{local}\n{distributed}")
    print("the three-node cluster's output equals the single-process run")


if __name__ == "__main__":
    main()
