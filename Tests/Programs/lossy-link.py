#!/usr/bin/env python3
"""A lossy, slow UDP link on 127.0.0.1, for tests: what `tc netem loss L delay D` does to a veth pair,
done in user space (the machine's kernel may lack sch_netem). Datagrams sent to LISTEN go on to TARGET
and the answers come back, each way delayed by DELAY ms and each datagram lost with probability LOSS.

    lossy-link.py LISTEN_PORT TARGET_PORT LOSS DELAY_MS

Prints "ready" once it listens; runs until it is killed."""
import heapq, random, select, socket, sys, time

listen_port, target_port, loss, delay = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]) / 1000
near = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
near.bind(("127.0.0.1", listen_port))
far = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
far.bind(("127.0.0.1", 0))
random.seed(7)
pending, order, sender = [], 0, None
print("ready", flush=True)
while True:
    timeout = max(0.0, pending[0][0] - time.monotonic()) if pending else 1.0
    readable, _, _ = select.select([near, far], [], [], timeout)
    for sock in readable:
        data, address = sock.recvfrom(65536)
        if sock is near:
            sender = address
        if random.random() < loss:
            continue
        order += 1
        heapq.heappush(pending, (time.monotonic() + delay, order, sock is near, data))
    now = time.monotonic()
    while pending and pending[0][0] <= now:
        _, _, outward, data = heapq.heappop(pending)
        if outward:
            far.sendto(data, ("127.0.0.1", target_port))
        elif sender:
            near.sendto(data, sender)
