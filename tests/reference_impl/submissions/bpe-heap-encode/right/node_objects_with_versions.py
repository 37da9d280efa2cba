# drills: bpe-heap-encode
# variant: parts are node objects; heap entries carry version stamps of both nodes
import heapq


class Node:
    __slots__ = ("data", "prev", "next", "version", "alive", "pos")

    def __init__(self, data, pos):
        self.data = data
        self.pos = pos
        self.prev = None
        self.next = None
        self.version = 0
        self.alive = True


def heap_encode_piece(piece, ranks):
    nodes = [Node(piece[i : i + 1], i) for i in range(len(piece))]
    for left, right in zip(nodes, nodes[1:]):
        left.next, right.prev = right, left
    heap = []

    def offer(left):
        right = left.next
        if right is None:
            return
        rank = ranks.get(left.data + right.data)
        if rank is not None:
            heapq.heappush(heap, (rank, left.pos, left.version, right.version, left, right))

    for node in nodes:
        offer(node)
    while heap:
        _, _, lv, rv, left, right = heapq.heappop(heap)
        if not (left.alive and right.alive and left.next is right and left.version == lv and right.version == rv):
            continue
        left.data += right.data
        left.version += 1
        right.alive = False
        left.next = right.next
        if right.next is not None:
            right.next.prev = left
        offer(left)
        if left.prev is not None:
            offer(left.prev)
    result = []
    node = nodes[0] if nodes else None
    while node is not None:
        result.append(ranks[node.data])
        node = node.next
    return result
