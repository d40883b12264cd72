"""queue: pytest-xdist's load scheduling as a plain work queue (used by
tools/check/plugin.py): each worker holds at most two tests, the one it
runs and the next (a worker needs the next one to end the current one), and
gets another each time it ends one.  xdist 3.1's own LoadScheduling sends
each worker a quarter of its share at once, in collection order, so that a
worker could hold a dozen boots while another waits with nothing to do."""

from xdist.scheduler.load import LoadScheduling

HELD = 2


class Queue(LoadScheduling):
    def check_schedule(self, node, duration=0):
        if node.shutting_down:
            return
        if self.pending:
            want = HELD - len(self.node2pending[node])
            if want > 0:
                self._send_tests(node, want)
        else:
            node.shutdown()

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
