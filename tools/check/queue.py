"""queue: pytest-xdist's load scheduling as a plain work queue (used by
tools/check/plugin.py): each worker holds at most two units of work, the
one it runs and the next (a worker needs the next test to end the current
one), and gets another each time it ends one.  xdist 3.1's own
LoadScheduling sends each worker a quarter of its share at once, in
collection order, so that a worker could hold a dozen boots while another
waits with nothing to do.

A unit is one test, but for the host tools' own tests (tools/*/tests/),
where it is a whole module: their module and class fixtures (a built
tool, a booted image, a fake QEMU) then run once, on one worker, as they
did when one process ran them all."""

from xdist.scheduler.load import LoadScheduling

from .plugin import stage_of

HELD = 2


def module_of(nodeid):
    return nodeid.split("::", 1)[0]


def unit_size(collection, pending):
    """How many of the pending tests (indices into collection, in order)
    make the first unit: 1, or the run of the first one's module for a
    host tool's own test."""
    if not pending:
        return 0
    first = collection[pending[0]]
    if stage_of(first) != "py":
        return 1
    n, mod = 1, module_of(first)
    while n < len(pending) and module_of(collection[pending[n]]) == mod:
        n += 1
    return n


class Queue(LoadScheduling):
    def check_schedule(self, node, duration=0):
        if node.shutting_down:
            return
        if not self.pending:
            node.shutdown()
            return
        while self.pending and len(self.node2pending[node]) < HELD:
            self._send_tests(node, unit_size(self.collection,
                                             self.pending))

    def schedule(self):
        assert self.collection_is_completed
        if self.collection is not None:
            for node in self.nodes:
                self.check_schedule(node)
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        self.collection = list(self.node2collection.values())[0]
        self.pending[:] = range(len(self.collection))
        if not self.collection:
            return
        for node in self.nodes:
            self.check_schedule(node)
